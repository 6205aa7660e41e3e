const Sequencer = require('@jest/test-sequencer').default;

/**
 * The files that share the run's synthesized app (test/support/shared-assembly.ts). The
 * first of them to run synthesizes it (a minute or more on two cores), so it goes first,
 * and the others go last: by the time a worker reaches them the assembly is there, and no
 * worker sits waiting for another's synthesis.
 */
const SYNTHESIZES = 'test/infra/deploy-rehearsal.test.ts';
const REUSE = ['test/infra/stack.test.ts', 'test/infra/headroom.test.ts', 'test/infra/cfn-lint.test.ts', 'test/infra/stateful-upgrade.test.ts'];

/** Jest's own order (failed first, then longest first by the last run's times, else biggest file first), but for those files. */
class SuiteSequencer extends Sequencer {
  async sort(tests) {
    const sorted = [...(await super.sort(tests))];
    const is = (test, file) => test.path.replace(/\\/g, '/').endsWith(`/${file}`);
    const first = sorted.filter((test) => is(test, SYNTHESIZES));
    const last = sorted.filter((test) => REUSE.some((file) => is(test, file)));
    return [...first, ...sorted.filter((test) => !first.includes(test) && !last.includes(test)), ...last];
  }
}

module.exports = SuiteSequencer;
