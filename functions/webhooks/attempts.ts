/**
 * The delivery engine's state machine, shared by the stream consumer (first attempts), the
 * sweeper (retries, redeliveries) and `webhooks/test`.
 *
 *   queued (pending, due now) --claim--> leased --attempt--> succeeded
 *                                                         \-> pending, due at the next retry
 *                                                         \-> failed (schedule exhausted, 410,
 *                                                             redirect, other 4xx, refused target)
 *
 * A first attempt from the stream consumer starts one step earlier: the delivery is not stored
 * yet (it has no lease), it is attempted, and stored once with its outcome (or as queued when
 * its turn came too late). Nothing else can send it meanwhile: the sweeper and
 * `webhooks/redeliver` see only stored deliveries (stream/webhooks.ts says why this is safe).
 *
 * Claiming moves a due delivery's `duesk` to the end of a lease, on the condition that it
 * still holds the value the claimer read: of two sweepers
 * only one wins, so a delivery is never sent twice at once. The outcome is recorded only by
 * the lease holder (`leaseToken`). A holder that dies (SIGKILL, Lambda timeout) leaves the
 * lease to expire: the delivery is due again then, and another sweep sends it.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import pLimit, { type Limit } from 'p-limit';
import { logger } from '../observability/logger';
import { ATTEMPT_TIMEOUT_MS, endpointConcurrency, failedTooLong, nextAttemptAt, TEST_EVENT_TYPE, type AttemptVerdict } from '../domain/webhooks';
import { conditionHolds, isConditionFailure } from '../store/conditions';
import type { TableClient } from '../store/dynamodb-clients';
import { deliveryFromItem, deliveryItem, deliveryKey, dueSortKey, webhookKey, type DeliveryRecord, type WebhookRecord } from '../store/webhooks';
import { openSecret } from './secrets';
import { sendAttempt, type AttemptResult } from './sender';

/** How long a claimed delivery stays out of the due index: longer than an attempt (10 s) and its bookkeeping. */
export const LEASE_MS = 30_000;

export const messageId = (deliveryId: string) => `msg_${deliveryId}`;

export interface Lease {
  token: string;
  until: string;
}

export function newLease(now: Date): Lease {
  return { token: randomUUID(), until: new Date(now.getTime() + LEASE_MS).toISOString() };
}

/** Claims a delivery seen in the due index with `duesk`; the leased delivery, or undefined when someone else got it. */
export async function claimDelivery(store: TableClient, deliveryId: string, seenDuesk: string, now: Date): Promise<DeliveryRecord | undefined> {
  const lease = newLease(now);
  try {
    const { Attributes } = await store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: deliveryKey(deliveryId),
        UpdateExpression: 'SET duesk = :lease, leaseToken = :token, leaseUntil = :until',
        ConditionExpression: 'duesk = :seen',
        ExpressionAttributeValues: { ':seen': seenDuesk, ':lease': dueSortKey(lease.until, deliveryId), ':token': lease.token, ':until': lease.until },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? deliveryFromItem(Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Gives a leased delivery back to the sweepers, due now (the consumer ran out of time for it). */
export async function releaseDelivery(store: TableClient, delivery: DeliveryRecord, now: Date): Promise<void> {
  await conditionHolds(
    store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: deliveryKey(delivery.id),
        UpdateExpression: 'SET duesk = :due REMOVE leaseToken, leaseUntil',
        ConditionExpression: 'leaseToken = :token',
        ExpressionAttributeValues: { ':due': dueSortKey(now.toISOString(), delivery.id), ':token': delivery.leaseToken },
      }),
    ),
  );
}

export interface AttemptOptions {
  allowPrivate?: boolean;
  /** The latest time (epoch ms, on the attempt's clock) the request may leave: the caller's budget. Later, the delivery is given back, due now. */
  leaveBy?: number;
  /** How the outcome is written (default: a Put conditional on the lease). */
  record?: OutcomeRecorder;
  /** The caller's own cap on its requests in flight over all endpoints, inside the endpoint's turn (only the request waits for it). */
  requestTurn?: Limit;
}

/** A request leaves only while the lease outlasts it (ATTEMPT_TIMEOUT_MS) by this much: time to record the outcome. */
const LEASE_RESERVE_MS = 5_000;

export interface AttemptSummary {
  deliveryId: string;
  /** `dropped`: the endpoint was removed; the delivery is deleted. `lost`: the lease had ended and another holder took over. */
  status: 'succeeded' | 'failed' | 'pending' | 'dropped' | 'lost';
  result?: AttemptResult;
}

/** The secrets a delivery is signed with now: the current one, and the previous one during its 24 hours of overlap. */
async function liveSecrets(webhook: WebhookRecord, now: Date): Promise<string[]> {
  const secrets = [await openSecret(webhook.secret, webhook.id)];
  if (webhook.previousSecret && webhook.previousSecretUntil && webhook.previousSecretUntil > now.toISOString()) {
    secrets.push(await openSecret(webhook.previousSecret, webhook.id));
  }
  return secrets;
}

async function dropDelivery(store: TableClient, delivery: DeliveryRecord): Promise<void> {
  await conditionHolds(
    store.documentClient.send(
      new DeleteCommand({
        TableName: store.tableName,
        Key: deliveryKey(delivery.id),
        ConditionExpression: 'leaseToken = :token',
        ExpressionAttributeValues: { ':token': delivery.leaseToken },
      }),
    ),
  );
}

interface Outcome {
  status: 'succeeded' | 'failed' | 'pending';
  result: Pick<AttemptResult, 'statusCode' | 'error'>;
  next?: Date;
  attempted: boolean;
}

/** A held delivery once an attempt's outcome is in: the lease gone, due again only when pending. */
export function settledDelivery(delivery: DeliveryRecord, outcome: Outcome, now: Date): DeliveryRecord {
  const { leaseToken: _token, leaseUntil: _until, nextAttemptAt: _next, lastError: _error, ...kept } = delivery;
  const timestamp = now.toISOString();
  const settled: DeliveryRecord = { ...kept, status: outcome.status, updatedAt: timestamp };
  if (outcome.attempted) {
    settled.attempts = delivery.attempts + 1;
    settled.lastAttemptAt = timestamp;
    if (outcome.result.statusCode === undefined) delete settled.lastStatusCode;
  }
  if (outcome.result.statusCode !== undefined) settled.lastStatusCode = outcome.result.statusCode;
  if (outcome.result.error !== undefined) settled.lastError = outcome.result.error;
  if (outcome.status === 'pending' && outcome.next) {
    settled.failures = delivery.failures + 1;
    settled.nextAttemptAt = outcome.next.toISOString();
  }
  return settled;
}

/**
 * Writes a settled delivery (`settledDelivery`); answers whether it was recorded. By default
 * a Put conditional on the lease, so only its holder records; the stream consumer batches
 * its own (stream/webhooks.ts).
 */
export type OutcomeRecorder = (settled: DeliveryRecord, lease: string | undefined, now: Date) => Promise<boolean>;

const recordIfHeld =
  (store: TableClient): OutcomeRecorder =>
  (settled, lease, now) =>
    conditionHolds(
      store.documentClient.send(
        new PutCommand({
          TableName: store.tableName,
          Item: deliveryItem(settled, now),
          // Not stored yet (no lease): stored only if nobody stored it meanwhile.
          ...(lease
            ? { ConditionExpression: 'leaseToken = :token', ExpressionAttributeValues: { ':token': lease } }
            : { ConditionExpression: 'attribute_not_exists(pk)' }),
        }),
      ),
    );

/** Turns an endpoint off with the reason shown by webhooks/get (re-enabling with webhooks/save clears it). */
export async function disableWebhook(store: TableClient, webhook: WebhookRecord, reason: string, now: Date): Promise<void> {
  const disabled = await conditionHolds(
    store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: webhookKey(webhook.id),
        UpdateExpression: 'SET enabled = :off, disabledReason = :reason, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND enabled = :on',
        ExpressionAttributeValues: { ':off': false, ':on': true, ':reason': reason, ':now': now.toISOString() },
      }),
    ),
  );
  if (disabled) logger.warn('webhook endpoint disabled', { webhookId: webhook.id, accountId: webhook.accountId, reason });
}

/** The endpoint's health after an attempt: the 5-day failing clock, and disabling on 410 or after 5 days. */
async function updateEndpointHealth(store: TableClient, webhook: WebhookRecord, verdict: AttemptVerdict, now: Date): Promise<void> {
  if (verdict === 'succeeded') {
    if (webhook.failingSince) {
      await conditionHolds(
        store.documentClient.send(
          new UpdateCommand({
            TableName: store.tableName,
            Key: webhookKey(webhook.id),
            UpdateExpression: 'REMOVE failingSince',
            ConditionExpression: 'attribute_exists(pk)',
          }),
        ),
      );
      webhook.failingSince = undefined;
    }
    return;
  }
  if (verdict === 'gone') {
    await disableWebhook(store, webhook, `The endpoint answered 410 Gone on ${now.toISOString()}; deliveries stopped.`, now);
    return;
  }
  let failingSince = webhook.failingSince;
  if (!failingSince) {
    try {
      const { Attributes } = await store.documentClient.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: webhookKey(webhook.id),
          UpdateExpression: 'SET failingSince = if_not_exists(failingSince, :now)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': now.toISOString() },
          ReturnValues: 'ALL_NEW',
        }),
      );
      failingSince = webhook.failingSince = Attributes?.failingSince as string | undefined;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  if (failedTooLong(failingSince, now)) {
    await disableWebhook(store, webhook, `Deliveries have failed since ${failingSince} without a success (5 days); deliveries stopped.`, now);
  }
}

/**
 * The cap on requests in flight to one endpoint from this process (`WEBHOOK_ENDPOINT_CONCURRENCY`,
 * docs/api.md): the consumer's first attempts, the sweeper's and `webhooks/test` wait their
 * turn here, per webhook, and only for the request itself (not the bookkeeping around it).
 * One limiter per webhook this process has sent to (an account has at most 20).
 */
const endpointLimits = new Map<string, Limit>();

function inEndpointTurn<T>(webhookId: string, request: () => Promise<T>): Promise<T> {
  let limit = endpointLimits.get(webhookId);
  if (!limit) {
    limit = pLimit(endpointConcurrency());
    endpointLimits.set(webhookId, limit);
  }
  return limit(request);
}

/**
 * Attempts a leased delivery to its webhook (undefined: removed) and records the outcome.
 * Never sends when the lease was lost meanwhile (the outcome write is conditional on it).
 * A delivery without a lease is one not stored yet (the stream consumer's first attempt):
 * its outcome is its first write, and when its turn comes too late it is stored as it is,
 * queued for the sweeper.
 */
export async function attemptDelivery(
  store: TableClient,
  delivery: DeliveryRecord,
  webhook: WebhookRecord | undefined,
  clock: () => Date,
  options: AttemptOptions = {},
): Promise<AttemptSummary> {
  if (!webhook) {
    await dropDelivery(store, delivery);
    return { deliveryId: delivery.id, status: 'dropped' };
  }
  // A test event (webhooks/test) goes even to a disabled endpoint, once, and is not retried.
  const test = delivery.eventType === TEST_EVENT_TYPE;
  const recorder = options.record ?? recordIfHeld(store);
  const record = (outcome: Outcome, now: Date) => recorder(settledDelivery(delivery, outcome, now), delivery.leaseToken, now);
  if (!webhook.enabled && !test) {
    const recorded = await record(
      {
        status: 'failed',
        result: { error: `not sent: the endpoint is disabled${webhook.disabledReason ? ` (${webhook.disabledReason})` : ''}` },
        attempted: false,
      },
      clock(),
    );
    return { deliveryId: delivery.id, status: recorded ? 'failed' : 'lost' };
  }
  const secrets = await liveSecrets(webhook, clock());
  const leaseEnds = delivery.leaseUntil ? Date.parse(delivery.leaseUntil) : Number.POSITIVE_INFINITY;
  const leaveBy = Math.min(options.leaveBy ?? Number.POSITIVE_INFINITY, leaseEnds - ATTEMPT_TIMEOUT_MS - LEASE_RESERVE_MS);
  const send = async (): Promise<AttemptResult | undefined> => {
    // Its turn came too late: sent now, it could outlive the lease and leave twice (another holder's claim).
    const sentAt = clock();
    if (sentAt.getTime() > leaveBy) return undefined;
    // Signed when it leaves: its timestamp is the attempt's, however long it waited its turn.
    return sendAttempt({ url: webhook.url, body: delivery.body, messageId: messageId(delivery.id), secrets, now: sentAt, allowPrivate: options.allowPrivate });
  };
  const { requestTurn } = options;
  const result = await inEndpointTurn(webhook.id, requestTurn ? () => requestTurn(send) : send);
  if (!result) {
    if (delivery.leaseToken) await releaseDelivery(store, delivery, clock());
    else await recorder(delivery, undefined, clock());
    return { deliveryId: delivery.id, status: 'pending' };
  }
  const now = clock();
  const next = result.verdict === 'retry' && !test ? nextAttemptAt(delivery.failures + 1, now, { retryAfterSeconds: result.retryAfterSeconds }) : undefined;
  const status = result.verdict === 'succeeded' ? 'succeeded' : next ? 'pending' : 'failed';
  const recorded = await record({ status, result, next, attempted: true }, now);
  if (status === 'failed') {
    logger.warn('webhook delivery failed', {
      deliveryId: delivery.id,
      webhookId: webhook.id,
      accountId: webhook.accountId,
      eventType: delivery.eventType,
      attempts: delivery.attempts + 1,
      statusCode: result.statusCode,
      error: result.error,
    });
  }
  await updateEndpointHealth(store, webhook, result.verdict, now);
  return { deliveryId: delivery.id, status: recorded ? status : 'lost', result };
}

/** Runs `work` over `items` with at most `limit` at a time. */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(workers);
}
