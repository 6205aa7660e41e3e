// The worker's copy of @aws-sdk/client-dynamodb-streams (test/support/worker-sdk.js).
module.exports = globalThis.workerSdkPackage('client-dynamodb-streams');
