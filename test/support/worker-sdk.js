/**
 * The AWS SDK packages the product and the tests use (WORKER_SDK_PACKAGES), loaded once per
 * jest worker instead of once per test file.
 *
 * Why: jest gives every test file a module registry of its own, so each file loaded and
 * compiled the SDK's few hundred modules again, and ran them cold: against DynamoDB Local a
 * cold client spends about 2 ms of CPU per request for its first thousands and about 0.6 ms
 * once V8 has optimized it (2,000 GetItems in a row, 2026-12-07). Twelve integration files run
 * one after the other in one worker took 49 and 52 CPU s that way, and 43 and 43 with the
 * worker's one copy (docs/testing.md). The requests, the DynamoDB Local they reach and the
 * product code are the same; only the SDK's modules are shared, and they keep no state between
 * clients that one file could see of another's (each file makes its own clients).
 *
 * How: jest.config.js maps these package names to the stubs in worker-sdk/, which hand the
 * file the copy that this module's own `require` (the worker's, outside any file's registry)
 * loaded. What that copy makes comes from the worker's realm, not the file's:
 *  - a DynamoDB set is the worker's Set, so each file gets the worker's Set and Map as its
 *    own (`instanceof Set` holds, as on Lambda; jest already shares Uint8Array and
 *    ArrayBuffer);
 *  - the SDK reads its credentials and settings from the worker's process.env, so the file's
 *    environment (its own DynamoDB Local database is its access key id, env.ts) is copied there
 *    once its setup files have run, every later change is copied as it is made, and the
 *    worker's environment is put back when the file ends.
 */
const WORKER_SDK_PACKAGES = ['client-dynamodb', 'client-dynamodb-streams', 'client-sesv2', 'lib-dynamodb', 'util-dynamodb'];

/** jest's moduleNameMapper entry sending the packages to their stubs. */
const moduleNameMapping = { [`^@aws-sdk/(${WORKER_SDK_PACKAGES.join('|')})$`]: '<rootDir>/test/support/worker-sdk/$1.js' };

/** What a stub calls: the worker's copy of one of the packages. */
function workerSdkPackage(name) {
  if (!WORKER_SDK_PACKAGES.includes(name)) throw new Error(`@aws-sdk/${name} is not one of the worker's shared packages`);
  return require(`@aws-sdk/${name}`);
}

/**
 * Gives a test file's global the worker's SDK, Set and Map, and an environment whose changes
 * reach the worker's. Answers `afterSetupFiles` (copies the file's environment to the worker's)
 * and `restore` (puts the worker's environment back).
 */
function shareWorkerSdk(fileGlobal) {
  const workerEnvironment = { ...process.env };
  fileGlobal.workerSdkPackage = workerSdkPackage;
  fileGlobal.Set = Set;
  fileGlobal.Map = Map;
  const fileEnvironment = fileGlobal.process.env;
  Object.defineProperty(fileGlobal.process, 'env', {
    configurable: true,
    enumerable: true,
    writable: true,
    value: new Proxy(fileEnvironment, {
      set(target, key, value) {
        target[key] = String(value);
        process.env[key] = String(value);
        return true;
      },
      deleteProperty(target, key) {
        delete target[key];
        delete process.env[key];
        return true;
      },
    }),
  });
  return {
    afterSetupFiles: () => Object.assign(process.env, fileEnvironment),
    restore: () => {
      for (const key of Object.keys(process.env)) if (!(key in workerEnvironment)) delete process.env[key];
      Object.assign(process.env, workerEnvironment);
    },
  };
}

module.exports = { WORKER_SDK_PACKAGES, moduleNameMapping, shareWorkerSdk };
