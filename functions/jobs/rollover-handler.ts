import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { logger } from '../observability/logger';
import { defaultTableClient } from '../store/dynamodb-clients';
import { rollOver, type RolloverResult } from './rollover';

/**
 * The rollover job's Lambda entry (functions/stream/rollover-handler.ts), run by a daily
 * EventBridge schedule at 00:05 UTC (see rollover.ts for why 00:05 and what it costs).
 *
 * The scheduled event carries no input; a manual invocation may pass `{ "days": n }` to
 * also do the last n days' work after missed runs, e.g.
 *   aws lambda invoke --function-name <rollover> --payload '{"days":3}' out.json
 * The job is idempotent, so a retried or repeated invocation is harmless.
 *
 * DynamoDB actions it needs on the table and its indexes (the retire index): Query,
 * BatchGetItem, PutItem.
 */
export interface RolloverEvent {
  /** Backfill: the leaving buckets of the last `days` daily runs (default 1: today's). */
  days?: number;
}

export const handler = middy<RolloverEvent | undefined, RolloverResult>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event) => {
    const days = typeof event?.days === 'number' ? event.days : 1;
    const result = await rollOver(defaultTableClient(), new Date(), { days });
    logger.info('rolling windows recomputed', { ...result });
    return result;
  });
