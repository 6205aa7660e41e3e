const os = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  // JSX as tsconfig.base.json says (react-jsx): the mails' templates (functions/mail/templates.tsx).
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { transform: { react: { runtime: 'automatic' } } } }] },
  // @middy/*, @feelback/js and jose are published as ES modules only.
  transformIgnorePatterns: ['/node_modules/(?!(@middy|@feelback|jose)/)'],
  // The TypeScript client (clients/typescript, an ES module package) imports its own files as './x.js'.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  setupFiles: ['<rootDir>/test/support/env.ts', '<rootDir>/test/support/day-guard.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/support/cleanup.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // Each run's per-file times, for `npm run test:times`.
  reporters: ['default', '<rootDir>/test/support/times-reporter.js'],
  // At least two files at a time, also on two cores (where jest's default, cores - 1, is one
  // and every file would wait for the one before): a file is mostly round trips between its
  // worker and DynamoDB Local (or a synthesis, or child processes), so one file at a time
  // leaves a core idle. Files do not share data: each has its own DynamoDB Local database.
  maxWorkers: Math.max(2, (os.availableParallelism?.() ?? os.cpus().length) - 1),
  testTimeout: 30000,
};
