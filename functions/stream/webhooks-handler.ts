import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { logger } from '../observability/logger';
import { defaultTableClient } from '../store/dynamodb-clients';
import type { DynamoDBWindowedEvent, DynamoDBWindowedResponse } from './counting-handler';
import { deliverStreamRecords } from './webhooks';

/** Time kept after the last first attempt may start: one attempt (10 s) and its bookkeeping. */
const RESERVE_MS = 15_000;

/**
 * The webhooks consumer's Lambda entry; `npm start` feeds the same function from DynamoDB
 * Local's stream. Its mapping has a tumbling window, as the counting consumer's, for the
 * shard id: the screening's verdicts are read from that shard's watermarks (stream/screening.ts).
 */
export const handler = middy<DynamoDBWindowedEvent, DynamoDBWindowedResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event, context) => {
    if (!event.shardId) {
      throw new Error(
        'the webhooks consumer needs the stream shard id (the screening verdicts are per shard): configure its event source mapping with a tumbling window (TumblingWindowInSeconds), which makes Lambda send shardId',
      );
    }
    const budget = Math.max(0, Math.min(20_000, context.getRemainingTimeInMillis() - RESERVE_MS));
    const result = await deliverStreamRecords(defaultTableClient(), event.shardId, event.Records ?? [], { attemptBudgetMs: budget, verdictWaitMs: budget });
    return { ...result, state: {} };
  });
