import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { TableClient } from '../store/dynamodb-clients';
import { handleApiEvent, type AdapterDependencies } from './adapter';
import { logger } from '../observability/logger';
import type { RunnableOperation } from './operation';

/**
 * The Lambda entry of one operation over the store `dependencies` gives (created on the
 * first invocation, kept for the container's life). lambda.ts gives the ElectroDB store,
 * table-lambda.ts the raw table client: each entry module imports only what its store needs.
 */
export function lambdaEntry<S extends TableClient>(operation: RunnableOperation<S>, dependencies: () => AdapterDependencies<S>) {
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .handler((event) => handleApiEvent(operation, event, dependencies()));
}
