const base = require('../jest.config.js');
module.exports = { ...base, rootDir: '..', globalSetup: '<rootDir>/.probe/global-setup-external.ts', globalTeardown: '<rootDir>/.probe/global-teardown-external.ts',
  setupFilesAfterEnv: [...base.setupFilesAfterEnv, '<rootDir>/.probe/timing-setup.ts'] };
