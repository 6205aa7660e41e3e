import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { defaultStore } from '../store/client';
import { handleApiEvent } from './adapter';
import { logger } from './logger';
import type { OperationDefinition } from './operation';

/** The Lambda entry of one operation; the local server calls the very same function. */
export function lambdaHandler(operation: OperationDefinition) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .handler((event) => handleApiEvent(operation, event, { store: defaultStore().store }));
}
