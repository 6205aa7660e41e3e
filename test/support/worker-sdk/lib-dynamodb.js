// The worker's copy of @aws-sdk/lib-dynamodb (test/support/worker-sdk.js).
module.exports = globalThis.workerSdkPackage('lib-dynamodb');
