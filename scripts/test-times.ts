/**
 * `npm run test:times`: the ten slowest test files of the last jest run (`npm test`, or any
 * `npx jest ...`), from .tmp/test-times.json (test/support/times-reporter.js), with the
 * run's wall time. `-- --all` lists every file; `-- --cpu` orders them by the CPU of each file
 * (its worker's and its child processes') instead of wall time (what to look at when the
 * machine was busy: on 2 cores the suite is mostly CPU-bound, and DynamoDB Local's share,
 * printed once, is the run's). `-- --weights`
 * writes the run's seconds per file into test/support/test-weights.json (`fullRun`), from
 * which `npm run test:fast` leaves out the slow files (jest.config.js): run it after a full
 * `npm test` on a quiet machine, and commit the file. The seeds the test sequencer
 * (test/support/sequencer.js) orders a run without jest cache by (`seconds`) stay as they are.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const file = path.join(__dirname, '..', '.tmp', 'test-times.json');
if (!fs.existsSync(file)) {
  console.error('No test times yet: run `npm test` (or `npx jest ...`) first.');
  process.exit(1);
}
const run: {
  finishedAt: string;
  wallSeconds: number;
  dynamoDbLocalCpuSeconds?: number;
  machineIdleShare?: number;
  suites: { file: string; seconds: number; startedAt?: number; cpuSeconds?: number; childCpuSeconds?: number; tests: number; failed: boolean }[];
} = JSON.parse(fs.readFileSync(file, 'utf8'));
if (process.argv.includes('--weights')) {
  const weightsFile = path.join(__dirname, '..', 'test', 'support', 'test-weights.json');
  const weights = fs.existsSync(weightsFile) ? JSON.parse(fs.readFileSync(weightsFile, 'utf8')) : {};
  const fullRun: Record<string, number> = { ...weights.fullRun };
  for (const suite of run.suites) fullRun[suite.file] = suite.seconds;
  // Files gone from the repository are dropped; the slowest first, for the reader.
  const kept = Object.entries(fullRun)
    .filter(([name]) => fs.existsSync(path.join(__dirname, '..', name)))
    .sort(([, a], [, b]) => b - a);
  fs.writeFileSync(weightsFile, `${JSON.stringify({ ...weights, fullRunMeasuredAt: run.finishedAt, fullRun: Object.fromEntries(kept) }, null, 2)}\n`);
  console.log(`wrote ${kept.length} files' seconds to ${path.relative(process.cwd(), weightsFile)} (fullRun)`);
}
const fileCpu = (suite: (typeof run.suites)[number]) => (suite.cpuSeconds ?? 0) + (suite.childCpuSeconds ?? 0);
const ordered = process.argv.includes('--cpu') ? [...run.suites].sort((a, b) => fileCpu(b) - fileCpu(a)) : run.suites;
const shown = process.argv.includes('--all') ? ordered : ordered.slice(0, 10);
const workerCpu = run.suites.reduce((sum, suite) => sum + (suite.cpuSeconds ?? 0), 0);
const childCpu = run.suites.reduce((sum, suite) => sum + (suite.childCpuSeconds ?? 0), 0);
// Older runs recorded neither the child processes, nor DynamoDB Local, nor the idle share.
const others = [
  run.suites.some((suite) => suite.childCpuSeconds !== undefined) ? `their child processes' ${childCpu.toFixed(0)} s` : '',
  run.dynamoDbLocalCpuSeconds === undefined ? '' : `DynamoDB Local's ${run.dynamoDbLocalCpuSeconds.toFixed(0)} s`,
  run.machineIdleShare === undefined ? '' : `the machine idle ${(run.machineIdleShare * 100).toFixed(0)}% of the time`,
].filter(Boolean);
console.log(
  `jest run finished ${run.finishedAt}: ${run.suites.length} files in ${run.wallSeconds} s (wall), the workers' CPU on them ${workerCpu.toFixed(0)} s${others.length ? `; ${others.join(', ')}` : ''}`,
);
for (const suite of shown) {
  // Where the file started in the run (older runs did not record it): which files ran side by side.
  const started = suite.startedAt === undefined ? '' : `, started at ${suite.startedAt.toFixed(1)} s`;
  // The worker's own CPU on the file (older runs did not record it): steadier than wall time under load.
  const cpu =
    (suite.cpuSeconds === undefined ? '' : `, worker CPU ${suite.cpuSeconds.toFixed(1)} s`) +
    (suite.childCpuSeconds === undefined ? '' : `, child processes ${suite.childCpuSeconds.toFixed(1)} s`);
  console.log(`${suite.seconds.toFixed(1).padStart(7)} s  ${suite.file}  (${suite.tests} tests${started}${cpu}${suite.failed ? ', FAILED' : ''})`);
}
