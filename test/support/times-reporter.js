const fs = require('node:fs');
const path = require('node:path');
const { processCpu } = require('./process-cpu');

/**
 * Writes how long each test file took in this run to .tmp/test-times.json (the repo's
 * git-ignored folder), for `npm run test:times`, which prints the slowest. Jest's own cache
 * keeps durations for ordering only, in a format of its own.
 */
class TimesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.started = Date.now();
    this.machineAtStart = machineCpuTicks();
  }

  onRunComplete(_contexts, results) {
    const cpu = workerCpuByFile();
    const suites = results.testResults
      .map((suite) => ({
        file: path.relative(this.rootDir, suite.testFilePath),
        seconds: Math.round((suite.perfStats.end - suite.perfStats.start) / 100) / 10,
        // When the file started, in seconds from the run's start: which files ran side by side.
        startedAt: Math.round((suite.perfStats.start - this.started) / 100) / 10,
        // The worker's CPU on the file (test/support/cpu-environment.js), when it recorded one.
        cpuSeconds: rounded(cpu.get(suite.testFilePath)?.cpuSeconds),
        // Its child processes' CPU (browsers, spawned servers and CLIs), when it recorded one.
        childCpuSeconds: rounded(cpu.get(suite.testFilePath)?.childCpuSeconds),
        tests: suite.numPassingTests + suite.numFailingTests,
        failed: suite.numFailingTests > 0 || Boolean(suite.testExecError),
      }))
      .sort((a, b) => b.seconds - a.seconds);
    const out = path.join(this.rootDir, '.tmp', 'test-times.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    // Where else the machine's CPU went: the shared DynamoDB Local, and how much stayed idle.
    const machine = machineCpuTicks();
    const idleShare = machine && this.machineAtStart ? (machine.idle - this.machineAtStart.idle) / (machine.total - this.machineAtStart.total) : undefined;
    const run = {
      finishedAt: new Date().toISOString(),
      wallSeconds: Math.round((Date.now() - this.started) / 1000),
      dynamoDbLocalCpuSeconds: rounded(dynamoDbLocalCpuSeconds()),
      machineIdleShare: idleShare === undefined ? undefined : Math.round(idleShare * 1000) / 1000,
      suites,
    };
    fs.writeFileSync(out, `${JSON.stringify(run, null, 2)}\n`);
  }
}

const rounded = (seconds) => (seconds === undefined ? undefined : Math.round(seconds * 10) / 10);

/** What each file's worker recorded of its CPU in this run's folder (global-setup.ts makes it). */
function workerCpuByFile() {
  const cpu = new Map();
  const runDir = process.env.TEST_RUN_DIR;
  const file = runDir && path.join(runDir, 'worker-cpu.ndjson');
  if (!file || !fs.existsSync(file)) return cpu;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const { file: testFile, cpuSeconds, childCpuSeconds } = JSON.parse(line);
    cpu.set(testFile, { cpuSeconds, childCpuSeconds });
  }
  return cpu;
}

/**
 * The run's DynamoDB Local's CPU so far: user + system of the process global-setup.ts wrote
 * the pid of (a shell) and of its children (Java), from /proc.
 */
function dynamoDbLocalCpuSeconds() {
  let shell;
  let pids;
  try {
    shell = Number(fs.readFileSync(path.join(process.env.TEST_RUN_DIR, 'dynamodb-local.pid'), 'utf8'));
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined; // no pid written, or no /proc
  }
  let seconds = 0;
  for (const pid of pids) {
    const cpu = processCpu(pid); // undefined: ended meanwhile
    if (cpu && (Number(pid) === shell || cpu.parent === shell)) seconds += cpu.ownSeconds;
  }
  return seconds;
}

/** The machine's CPU time so far, all cores, in clock ticks: its total and its idle part (/proc/stat). */
function machineCpuTicks() {
  try {
    const ticks = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { total: ticks.reduce((sum, tick) => sum + tick, 0), idle: ticks[3] + ticks[4] };
  } catch {
    return undefined;
  }
}

module.exports = TimesReporter;
