/**
 * `npm run test:times`: the ten slowest test files of the last jest run (`npm test`, or any
 * `npx jest ...`), from .tmp/test-times.json (test/support/times-reporter.js), with the
 * run's wall time. `-- --all` lists every file; `-- --cpu` orders them by the worker's CPU on
 * each file instead of wall time (what to look at when the machine was busy).
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
  suites: { file: string; seconds: number; startedAt?: number; cpuSeconds?: number; tests: number; failed: boolean }[];
} = JSON.parse(fs.readFileSync(file, 'utf8'));
const ordered = process.argv.includes('--cpu') ? [...run.suites].sort((a, b) => (b.cpuSeconds ?? 0) - (a.cpuSeconds ?? 0)) : run.suites;
const shown = process.argv.includes('--all') ? ordered : ordered.slice(0, 10);
const workerCpu = run.suites.reduce((sum, suite) => sum + (suite.cpuSeconds ?? 0), 0);
console.log(
  `jest run finished ${run.finishedAt}: ${run.suites.length} files in ${run.wallSeconds} s (wall), the workers' CPU on them ${workerCpu.toFixed(0)} s`,
);
for (const suite of shown) {
  // Where the file started in the run (older runs did not record it): which files ran side by side.
  const started = suite.startedAt === undefined ? '' : `, started at ${suite.startedAt.toFixed(1)} s`;
  // The worker's own CPU on the file (older runs did not record it): steadier than wall time under load.
  const cpu = suite.cpuSeconds === undefined ? '' : `, worker CPU ${suite.cpuSeconds.toFixed(1)} s`;
  console.log(`${suite.seconds.toFixed(1).padStart(7)} s  ${suite.file}  (${suite.tests} tests${started}${cpu}${suite.failed ? ', FAILED' : ''})`);
}
