// The worker's copy of @aws-sdk/util-dynamodb (test/support/worker-sdk.js).
module.exports = globalThis.workerSdkPackage('util-dynamodb');
