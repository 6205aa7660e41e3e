// The worker's copy of @aws-sdk/client-sesv2 (test/support/worker-sdk.js).
module.exports = globalThis.workerSdkPackage('client-sesv2');
