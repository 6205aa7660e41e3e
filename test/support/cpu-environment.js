const { appendFileSync } = require('node:fs');
const { join } = require('node:path');
const { TestEnvironment } = require('jest-environment-node');
const { processCpu } = require('./process-cpu');
const { shareWorkerSdk } = require('./worker-sdk');

/** The CPU of this process's children that ended and were waited for, in seconds (undefined without /proc). */
const waitedChildrenCpuSeconds = () => processCpu('self')?.waitedChildrenSeconds;

/**
 * Jest's node environment, which gives each test file the worker's one copy of the AWS SDK
 * (worker-sdk.js), and records the CPU each test file took: its worker's
 * (user + system) and that of the child processes it started and waited for (a browser, a
 * spawned server or CLI, the deploy rehearsal's functions), appended to the run's folder for
 * the times reporter (test/support/times-reporter.js). Wall times depend on what else the
 * machine does, CPU much less, so these are the figures to compare between runs when looking
 * for what makes the suite slow. Measured here rather than in an afterAll hook because the
 * environment's teardown comes after the file's own hooks, which close its browsers and
 * servers. DynamoDB Local's CPU is the run's, reported once. Chromium's renderers are not
 * in a file's figure: its browser process does not wait for them (docs/testing.md).
 */
class CpuRecordingEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    await super.setup();
    this.workerSdk = shareWorkerSdk(this.global);
    this.cpuAtStart = process.cpuUsage();
    this.childCpuAtStart = waitedChildrenCpuSeconds();
  }

  handleTestEvent(event) {
    // After the setup files (env.ts) and before the file's first hook or test.
    if (event.name === 'run_start') this.workerSdk?.afterSetupFiles();
  }

  async teardown() {
    const runDir = process.env.TEST_RUN_DIR;
    if (runDir && this.cpuAtStart) {
      const used = process.cpuUsage(this.cpuAtStart);
      const childCpu = waitedChildrenCpuSeconds();
      const line = JSON.stringify({
        file: this.testPath,
        cpuSeconds: (used.user + used.system) / 1e6,
        childCpuSeconds: childCpu === undefined || this.childCpuAtStart === undefined ? undefined : childCpu - this.childCpuAtStart,
      });
      appendFileSync(join(runDir, 'worker-cpu.ndjson'), `${line}\n`);
    }
    this.workerSdk?.restore();
    await super.teardown();
  }
}

module.exports = CpuRecordingEnvironment;
