const fs = require('node:fs');
const path = require('node:path');

/**
 * Writes how long each test file took in this run to .tmp/test-times.json (the repo's
 * git-ignored folder), for `npm run test:times`, which prints the slowest. Jest's own cache
 * keeps durations for ordering only, in a format of its own.
 */
class TimesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.started = Date.now();
  }

  onRunComplete(_contexts, results) {
    const cpu = workerCpuByFile();
    const suites = results.testResults
      .map((suite) => ({
        file: path.relative(this.rootDir, suite.testFilePath),
        seconds: Math.round((suite.perfStats.end - suite.perfStats.start) / 100) / 10,
        // When the file started, in seconds from the run's start: which files ran side by side.
        startedAt: Math.round((suite.perfStats.start - this.started) / 100) / 10,
        // The worker's CPU on the file (test/support/cleanup.ts), when it recorded one.
        cpuSeconds: cpu.has(suite.testFilePath) ? Math.round(cpu.get(suite.testFilePath) * 10) / 10 : undefined,
        tests: suite.numPassingTests + suite.numFailingTests,
        failed: suite.numFailingTests > 0 || Boolean(suite.testExecError),
      }))
      .sort((a, b) => b.seconds - a.seconds);
    const out = path.join(this.rootDir, '.tmp', 'test-times.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(
      out,
      `${JSON.stringify({ finishedAt: new Date().toISOString(), wallSeconds: Math.round((Date.now() - this.started) / 1000), suites }, null, 2)}\n`,
    );
  }
}

/** What each file's worker recorded of its CPU in this run's folder (global-setup.ts makes it). */
function workerCpuByFile() {
  const cpu = new Map();
  const runDir = process.env.TEST_RUN_DIR;
  const file = runDir && path.join(runDir, 'worker-cpu.ndjson');
  if (!file || !fs.existsSync(file)) return cpu;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const { file: testFile, cpuSeconds } = JSON.parse(line);
    cpu.set(testFile, cpuSeconds);
  }
  return cpu;
}

module.exports = TimesReporter;
