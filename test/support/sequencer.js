const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * The order of a run's test files: longest first, so that the run does not end with one
 * worker on a long file while the other core idles.
 *
 * How long a file takes: jest's own record of the last local run when there is one; else
 * test/support/test-weights.json (seconds per file in a full run on two cores, written by
 * `npm run test:times -- --weights`), since a fresh clone (CI) has no jest cache and jest
 * would order it by file size, which says little (the browser files are short and slow, the
 * unit files long and fast); else an estimate from the file's size and folder. Files that
 * failed last time still come first, as in jest's own order.
 *
 * The files that share the run's synthesized app (test/support/shared-assembly.ts): the
 * rehearsal synthesizes it (a minute or more of one worker), so it goes first; the files
 * that only read it start once the other worker has had about that long for other files,
 * so that neither waits for the synthesis and they do not all end up at the tail.
 */
const SYNTHESIZES = 'test/infra/deploy-rehearsal.test.ts';
const REUSE = ['test/infra/stack.test.ts', 'test/infra/headroom.test.ts', 'test/infra/cfn-lint.test.ts', 'test/infra/stateful-upgrade.test.ts'];
/** Seconds of other files the second worker runs while the first synthesizes (59 s on a fresh clone, 2026-12-07), with room. */
const SYNTH_SECONDS = 90;
/**
 * A file not in the weights: seconds per kilobyte of its source, by folder. The browser files'
 * rate is that of the three in the fresh clone's run of 2026-12-07 (about 3 s per KB: each line
 * drives a page); the others are rough shares of that run's remaining time (a unit test's line
 * checks a pure function). Only the order depends on them.
 */
const SECONDS_PER_KB = { browser: 3, compiler: 4, infra: 1, integration: 0.8, client: 1, unit: 0.33 };

const WEIGHTS_FILE = path.join(__dirname, 'test-weights.json');

function readWeights() {
  try {
    return JSON.parse(fs.readFileSync(WEIGHTS_FILE, 'utf8')).seconds ?? {};
  } catch {
    return {};
  }
}

class SuiteSequencer extends Sequencer {
  async sort(tests) {
    const weights = readWeights();
    const relative = (test) => path.relative(test.context.config.rootDir, test.path).replace(/\\/g, '/');
    const seconds = (test) => {
      const cached = this.time(test);
      if (cached !== undefined && cached > 0) return cached / 1000;
      const weight = weights[relative(test)];
      if (weight !== undefined) return weight;
      const folder = relative(test).split('/')[1];
      return ((test.context.hasteFS.getSize(test.path) ?? 0) / 1024) * (SECONDS_PER_KB[folder] ?? SECONDS_PER_KB.integration);
    };
    // As jest's own sort: the scheduler reads the cached durations (to run a few fast files in band).
    for (const test of tests) test.duration = this.time(test);
    const expected = new Map(tests.map((test) => [test, seconds(test)]));
    const sorted = [...tests].sort((a, b) => {
      const failedA = this.hasFailed(a);
      if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1;
      return expected.get(b) - expected.get(a);
    });
    // The rehearsal synthesizes; without it, the longest of the files that read the assembly does.
    const shares = sorted.filter((test) => relative(test) === SYNTHESIZES || REUSE.includes(relative(test)));
    const synthesizer = shares.find((test) => relative(test) === SYNTHESIZES) ?? shares[0];
    if (!synthesizer) return sorted;
    const reuse = shares.filter((test) => test !== synthesizer);
    const rest = sorted.filter((test) => !shares.includes(test));
    // After the files that keep the other worker busy for the synthesis' time.
    let position = 0;
    for (let before = 0; position < rest.length && before < SYNTH_SECONDS; position++) before += expected.get(rest[position]);
    return [synthesizer, ...rest.slice(0, position), ...reuse, ...rest.slice(position)];
  }
}

module.exports = SuiteSequencer;
