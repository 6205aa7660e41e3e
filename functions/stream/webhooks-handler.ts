import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../observability/logger';
import { defaultTableClient } from '../store/dynamodb-clients';
import { deliverStreamRecords } from './webhooks';

/** Time kept after the last first attempt may start: one attempt (10 s) and its bookkeeping. */
const RESERVE_MS = 15_000;

/** The webhooks consumer's Lambda entry; `npm start` feeds the same function from DynamoDB Local's stream. */
export const handler = middy<DynamoDBStreamEvent, DynamoDBBatchResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler((event, context) =>
    deliverStreamRecords(defaultTableClient(), event.Records, {
      attemptBudgetMs: Math.max(0, Math.min(20_000, context.getRemainingTimeInMillis() - RESERVE_MS)),
    }),
  );
