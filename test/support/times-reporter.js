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
    const suites = results.testResults
      .map((suite) => ({
        file: path.relative(this.rootDir, suite.testFilePath),
        seconds: Math.round((suite.perfStats.end - suite.perfStats.start) / 100) / 10,
        // When the file started, in seconds from the run's start: which files ran side by side.
        startedAt: Math.round((suite.perfStats.start - this.started) / 100) / 10,
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

module.exports = TimesReporter;
