const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { moduleNameMapping: workerSdkMapping } = require('./test/support/worker-sdk');

/**
 * `npm run test:fast` (TEST_FAST=1): the inner loop. The unit, client and integration files
 * without the slow ones: no browser, CDK or compiler files, and no file that took more than
 * FAST_LIMIT_SECONDS in the last full run as test/support/test-weights.json records it
 * (`fullRun`: the brute-force comparisons, the fuzzers, the restarts, the CLIs). `npm test`
 * runs them all.
 */
const FAST_LIMIT_SECONDS = 15;
function slowFiles() {
  const file = path.join(__dirname, 'test', 'support', 'test-weights.json');
  const weights = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  const seconds = { ...weights.seconds, ...weights.fullRun };
  return Object.keys(seconds).filter((name) => seconds[name] > FAST_LIMIT_SECONDS);
}
const regexEscaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const fastSkips =
  process.env.TEST_FAST === '1' ? ['<rootDir>/test/(browser|infra|compiler)/', ...slowFiles().map((name) => `<rootDir>/${regexEscaped(name)}$`)] : [];

/** @type {import('jest').Config} */
module.exports = {
  // Jest's node environment, recording each file's CPU for `npm run test:times`.
  testEnvironment: '<rootDir>/test/support/cpu-environment.js',
  roots: ['<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/', ...fastSkips],
  // JSX as tsconfig.base.json says (react-jsx): the mails' templates (functions/mail/templates.tsx).
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { transform: { react: { runtime: 'automatic' } } } }] },
  // @middy/*, @feelback/js and jose are published as ES modules only.
  transformIgnorePatterns: ['/node_modules/(?!(@middy|@feelback|jose)/)'],
  moduleNameMapper: {
    // The AWS SDK: the worker's one copy, not one per test file (test/support/worker-sdk.js).
    ...workerSdkMapping,
    // The TypeScript client (clients/typescript, an ES module package) imports its own files as './x.js'.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  setupFiles: ['<rootDir>/test/support/env.ts', '<rootDir>/test/support/day-guard.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/support/cleanup.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // Each run's per-file times, for `npm run test:times`.
  reporters: ['default', '<rootDir>/test/support/times-reporter.js'],
  // At least three files at a time, also on two cores (where jest's default, cores - 1, is
  // one): a file is mostly round trips between its worker and DynamoDB Local (or a synthesis,
  // child processes, a browser), so fewer files than that leave a core idle whenever the
  // running ones all wait. Two full runs on the quiet 2-core machine, 2026-12-07: with two
  // workers the machine stood idle 7% of the time and jest took 678 s; with three, 1% and
  // 639 s, for the same CPU. Files do not share data: each has its own DynamoDB Local database.
  maxWorkers: Math.max(3, (os.availableParallelism?.() ?? os.cpus().length) - 1),
  testTimeout: 30000,
};
