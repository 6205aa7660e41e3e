import type { Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';

/** The Lambda context handed to handlers run locally (the logger reads its names; middy ends a handler at its remaining time). */
export function localLambdaContext(functionName: string, requestId: string = randomUUID(), timeoutMs = 30_000): Context {
  return {
    awsRequestId: requestId,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    logGroupName: 'local',
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => timeoutMs,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
