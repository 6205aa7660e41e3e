import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '../observability/logger';
import { defaultTableClient } from '../store/dynamodb-clients';
import { sweepUntil } from '../webhooks/sweeper';

/** A run starts attempts for at most this long: the schedule starts the next run a minute after this one. */
export const SWEEP_WINDOW_MS = 55_000;
/** Time kept after the last attempt may start: one attempt (10 s) and its bookkeeping. */
const RESERVE_MS = 15_000;

/**
 * The webhook sweeper's Lambda entry, started every minute by EventBridge: sends what is
 * due, and keeps sweeping while deliveries fall due within this minute (a 5 s retry then
 * goes out about 5 s late at worst while the function runs, within a minute otherwise).
 */
export const handler = middy<ScheduledEvent, { claimed: number }>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (_event, context) => {
    const window = Math.min(SWEEP_WINDOW_MS, context.getRemainingTimeInMillis() - RESERVE_MS);
    const claimed = await sweepUntil(defaultTableClient(), Date.now() + Math.max(0, window));
    if (claimed > 0) logger.info('webhook deliveries swept', { claimed });
    return { claimed };
  });
