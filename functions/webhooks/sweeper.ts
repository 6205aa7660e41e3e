/**
 * The sweeper: sends every delivery whose time has come (retries, redeliveries, first
 * attempts the consumer had no time for, leases whose holder died). Pending deliveries
 * live in the sparse `due` index (store/webhooks.ts); a sweep reads the due ones from each
 * shard, claims each with a conditional update, and attempts what it claimed.
 *
 * Locally `npm start` sweeps every second (local/webhook-sweeper.ts); on AWS an
 * EventBridge rule starts the sweeper function every minute, and it keeps sweeping while
 * deliveries fall due within its minute (functions/jobs/webhook-sweeper-handler.ts).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../observability/logger';
import type { TableClient } from '../store/dynamodb-clients';
import { DUE_INDEX, DUE_SHARDS, getWebhook, type DeliveryRecord, type WebhookRecord } from '../store/webhooks';
import { attemptDelivery, claimDelivery, inParallel, type AttemptSummary } from './attempts';

/** Due deliveries read per shard and sweep. */
const SWEEP_PAGE = 25;
/** Attempts in flight at once in one sweep. */
const SWEEP_CONCURRENCY = 10;

const shards = () => Array.from({ length: DUE_SHARDS }, (_, shard) => `due#${shard}`);

/** `<ISO>#<id>` keys up to `at` (ids are base64url, all below `~`). */
const dueUpTo = (at: Date) => `${at.toISOString()}#~`;
/** Above every due key. */
const EVER = '9999-12-31T23:59:59.999Z#~';

async function dueKeys(store: TableClient, shard: string, upTo: string, limit: number): Promise<{ pk: string; duesk: string }[]> {
  const { Items } = await store.documentClient.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: DUE_INDEX,
      KeyConditionExpression: 'duepk = :shard AND duesk <= :upTo',
      ExpressionAttributeValues: { ':shard': shard, ':upTo': upTo },
      Limit: limit,
    }),
  );
  return (Items ?? []).map((item) => ({ pk: String(item.pk), duesk: String(item.duesk) }));
}

export interface SweepResult {
  /** Deliveries claimed and attempted (or dropped) by this sweep. */
  claimed: number;
  outcomes: AttemptSummary[];
}

/** One sweep: claims and attempts what is due now (at most SWEEP_PAGE per shard). */
export async function sweepDueDeliveries(store: TableClient, clock: () => Date = () => new Date()): Promise<SweepResult> {
  const now = clock();
  const due = (await Promise.all(shards().map((shard) => dueKeys(store, shard, dueUpTo(now), SWEEP_PAGE)))).flat();
  const claimed: DeliveryRecord[] = [];
  await inParallel(due, SWEEP_CONCURRENCY, async (key) => {
    const delivery = await claimDelivery(store, key.pk.slice('delivery#'.length), key.duesk, now);
    if (delivery) claimed.push(delivery);
  });
  const webhooks = new Map<string, Promise<WebhookRecord | undefined>>();
  const outcomes: AttemptSummary[] = [];
  await inParallel(claimed, SWEEP_CONCURRENCY, async (delivery) => {
    try {
      if (!webhooks.has(delivery.webhookId)) webhooks.set(delivery.webhookId, getWebhook(store, delivery.webhookId));
      outcomes.push(await attemptDelivery(store, delivery, await webhooks.get(delivery.webhookId), clock));
    } catch (error) {
      // The lease runs out and a later sweep tries again.
      logger.error('webhook attempt failed', { deliveryId: delivery.id, error: error as Error });
    }
  });
  return { claimed: claimed.length, outcomes };
}

/** When the earliest pending delivery falls due (a lease's end counts), if any. */
export async function nextDueAt(store: TableClient): Promise<Date | undefined> {
  const firsts = await Promise.all(shards().map((shard) => dueKeys(store, shard, EVER, 1)));
  const times = firsts.flat().map((key) => Date.parse(key.duesk.slice(0, key.duesk.indexOf('#'))));
  return times.length > 0 ? new Date(Math.min(...times)) : undefined;
}

/**
 * Sweeps until `deadline`: again at once while sweeps find work, otherwise sleeping until
 * the next delivery falls due if that is before the deadline. What falls due later is the
 * next run's. Returns the number of deliveries claimed.
 */
export async function sweepUntil(store: TableClient, deadline: number, clock: () => Date = () => new Date()): Promise<number> {
  let total = 0;
  while (clock().getTime() < deadline) {
    const { claimed } = await sweepDueDeliveries(store, clock);
    total += claimed;
    if (claimed > 0) continue;
    const next = await nextDueAt(store);
    if (!next || next.getTime() >= deadline) break;
    await new Promise((wait) => setTimeout(wait, Math.max(250, next.getTime() - clock().getTime())));
  }
  return total;
}
