import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { logger } from '../observability/logger';
import { defaultTableClient } from '../store/dynamodb-clients';
import { runRanker, type RankerResult } from './ranker';

/**
 * The ranker's Lambda entry, run every minute by an EventBridge schedule, one run at a
 * time (reserved concurrency 1: two runs would recount the same lists, which is harmless
 * but wasted). The scheduled event carries no input. DynamoDB actions it needs: GetItem,
 * Query (the table and the `retire` index), PutItem.
 */
export const handler = middy<unknown, RankerResult>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(() => runRanker(defaultTableClient(), new Date()));
