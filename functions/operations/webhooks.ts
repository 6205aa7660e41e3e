/** webhooks/*: an account's endpoints, their secrets, tests, delivery log and redeliveries. */
import { PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError, badRequest, notFound } from '../api/errors';
import { DEFAULT_PAGE_SIZE } from '../api/models';
import type { DeliveryListModel, WebhookCreateModel, WebhookListModel, WebhookSaveModel } from '../api/webhook-models';
import { newId } from '../domain/text';
import { DELIVERY_RETENTION_SECONDS, MAX_WEBHOOKS_PER_ACCOUNT, SECRET_OVERLAP_MS, DEFAULT_WEBHOOK_EVENT_TYPES } from '../domain/webhooks';
import { isConditionFailure } from '../store/conditions';
import type { Store } from '../store/entities';
import {
  accountWebhooksPartition,
  deliveryFromItem,
  deliveryItem,
  deliveryKey,
  dueAttributes,
  getDelivery,
  getWebhook,
  pendingDelivery,
  putDeliveryPointer,
  readGsi1,
  webhookCountKey,
  webhookDeliveriesPartition,
  webhookFromItem,
  webhookItem,
  webhookKey,
  type DeliveryRecord,
  type Gsi1Filter,
  type WebhookRecord,
} from '../store/webhooks';
import { attemptDelivery, newLease } from '../webhooks/attempts';
import { formatBody, testBody } from '../webhooks/payloads';
import { generateSigningSecret, sealSecret } from '../webhooks/secrets';
import { targetProblem } from '../webhooks/targets';
import { loadProject } from './projects';
import { cursorPage, type IndexSource } from './paging';

/** A webhook as the API shows it: never its secrets. */
export function webhookView(webhook: WebhookRecord) {
  return {
    id: webhook.id,
    accountId: webhook.accountId,
    ...(webhook.projectId ? { projectId: webhook.projectId } : {}),
    url: webhook.url,
    events: webhook.events,
    format: webhook.format,
    ...(webhook.description ? { description: webhook.description } : {}),
    enabled: webhook.enabled,
    ...(webhook.disabledReason ? { disabledReason: webhook.disabledReason } : {}),
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  };
}

/** A delivery as the API shows it: the log entry, without the body. */
export function deliveryView(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    ...(delivery.lastStatusCode !== undefined ? { lastStatusCode: delivery.lastStatusCode } : {}),
    ...(delivery.lastError !== undefined ? { lastError: delivery.lastError } : {}),
    ...(delivery.status === 'pending' && delivery.nextAttemptAt ? { nextAttemptAt: delivery.nextAttemptAt } : {}),
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
  };
}

async function loadWebhook(store: Store, accountId: string, webhookId: string): Promise<WebhookRecord> {
  const webhook = await getWebhook(store, webhookId);
  if (!webhook || webhook.accountId !== accountId) throw notFound('Webhook', webhookId);
  return webhook;
}

async function checkUrl(url: string, path: string): Promise<void> {
  const problem = await targetProblem(url);
  if (problem) throw badRequest(`The webhook URL ${problem}`, [{ path, message: problem }]);
}

export async function getWebhookView(store: Store, accountId: string, webhookId: string) {
  return webhookView(await loadWebhook(store, accountId, webhookId));
}

/** Validates everything (URL and where it resolves, the project), then writes the webhook and the account's count in one transaction. */
export async function createWebhook(store: Store, accountId: string, input: WebhookCreateModel, now: Date) {
  await checkUrl(input.url, 'args.0.url');
  if (input.projectId) await loadProject(store, accountId, input.projectId);
  const id = newId();
  const secret = generateSigningSecret();
  const timestamp = now.toISOString();
  const webhook: WebhookRecord = {
    id,
    accountId,
    ...(input.projectId ? { projectId: input.projectId } : {}),
    url: input.url,
    events: input.events ?? [...DEFAULT_WEBHOOK_EVENT_TYPES],
    format: input.format ?? 'standard',
    ...(input.description ? { description: input.description } : {}),
    enabled: input.enabled ?? true,
    createdAt: timestamp,
    updatedAt: timestamp,
    secret: await sealSecret(secret, id),
  };
  try {
    await store.documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: store.tableName, Item: webhookItem(webhook), ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Update: {
              TableName: store.tableName,
              Key: webhookCountKey(accountId),
              UpdateExpression: 'ADD webhookCount :one',
              ConditionExpression: 'attribute_not_exists(webhookCount) OR webhookCount < :max',
              ExpressionAttributeValues: { ':one': 1, ':max': MAX_WEBHOOKS_PER_ACCOUNT },
            },
          },
        ],
      }),
    );
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if (reasons?.[1]?.Code === 'ConditionalCheckFailed') {
      throw new ApiError('conflict', `An account has at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks`, { limit: MAX_WEBHOOKS_PER_ACCOUNT });
    }
    throw error;
  }
  return { ...webhookView(webhook), secret };
}

/**
 * A gsi1 partition of webhooks or deliveries as a source for the paging helpers
 * (operations/paging.ts): a position is the last item's table and index keys, where the
 * next read starts. Positions only ever leave sealed in a cursor bound to the account and
 * the list, so they need no checks here.
 */
function gsi1Source(store: Store, partition: string, newestFirst: boolean, filter?: Gsi1Filter): IndexSource<Record<string, unknown>> {
  return {
    read: async (start, count) => {
      const { items, resume } = await readGsi1(store, partition, { newestFirst, filter, count, start: start === null ? undefined : JSON.parse(start) });
      return resume ? { items, resume: JSON.stringify(resume) } : { items };
    },
    positionOf: (item) => JSON.stringify({ pk: item.pk, sk: item.sk, gsi1pk: item.gsi1pk, gsi1sk: item.gsi1sk }),
  };
}

export async function listWebhooks(store: Store, accountId: string, query: WebhookListModel | null | undefined) {
  const { projectId, $size, cursor } = query ?? { $size: DEFAULT_PAGE_SIZE };
  const page = await cursorPage(
    gsi1Source(
      store,
      accountWebhooksPartition(accountId),
      false,
      projectId ? { expression: 'projectId = :project', values: { ':project': projectId } } : undefined,
    ),
    { accountId, scope: { operation: 'webhooks/list', projectId }, path: 'args.0.cursor' },
    { cursor, size: $size },
  );
  return { items: page.items.map((item) => webhookView(webhookFromItem(item))), ...(page.cursor ? { cursor: page.cursor } : {}) };
}

/** Applies only the given fields, conditional on the webhook still being the account's. */
export async function saveWebhook(store: Store, accountId: string, webhookId: string, input: WebhookSaveModel, now: Date) {
  await loadWebhook(store, accountId, webhookId);
  if (input.url !== undefined) await checkUrl(input.url, 'args.1.url');
  if (input.projectId) await loadProject(store, accountId, input.projectId);
  // Every name through a placeholder: several (url, format, ...) are DynamoDB reserved words.
  const names: Record<string, string> = { '#updatedAt': 'updatedAt', '#accountId': 'accountId' };
  const set: string[] = ['#updatedAt = :now'];
  const remove: string[] = [];
  const values: Record<string, unknown> = { ':now': now.toISOString(), ':account': accountId };
  const assign = (name: string, value: unknown) => {
    if (value === undefined) return;
    names[`#${name}`] = name;
    if (value === null) remove.push(`#${name}`);
    else {
      set.push(`#${name} = :${name}`);
      values[`:${name}`] = value;
    }
  };
  assign('url', input.url);
  assign('events', input.events);
  assign('projectId', input.projectId);
  assign('format', input.format);
  assign('description', input.description === '' ? null : input.description);
  assign('enabled', input.enabled);
  // Re-enabling starts afresh: no reason shown, and the 5-day failing clock is reset.
  if (input.enabled === true) {
    Object.assign(names, { '#disabledReason': 'disabledReason', '#failingSince': 'failingSince' });
    remove.push('#disabledReason', '#failingSince');
  }
  try {
    const { Attributes } = await store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: webhookKey(webhookId),
        UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: 'attribute_exists(pk) AND #accountId = :account',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return webhookView(webhookFromItem(Attributes!));
  } catch (error) {
    if (isConditionFailure(error)) throw notFound('Webhook', webhookId);
    throw error;
  }
}

/**
 * Deletes the webhook and counts it out, in one transaction. Its pending deliveries are
 * dropped as they fall due (a sweeper finds no webhook and deletes them); its delivery log
 * expires with the records' TTL.
 */
export async function removeWebhook(store: Store, accountId: string, webhookId: string): Promise<void> {
  await loadWebhook(store, accountId, webhookId);
  try {
    await store.documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: store.tableName,
              Key: webhookKey(webhookId),
              ConditionExpression: 'attribute_exists(pk) AND accountId = :account',
              ExpressionAttributeValues: { ':account': accountId },
            },
          },
          {
            Update: {
              TableName: store.tableName,
              Key: webhookCountKey(accountId),
              UpdateExpression: 'ADD webhookCount :minus',
              ExpressionAttributeValues: { ':minus': -1 },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'TransactionCanceledException') throw notFound('Webhook', webhookId);
    throw error;
  }
}

/** A new secret; the current one keeps signing (second signature) for 24 hours. */
export async function rotateWebhookSecret(store: Store, accountId: string, webhookId: string, now: Date) {
  const webhook = await loadWebhook(store, accountId, webhookId);
  const secret = generateSigningSecret();
  try {
    await store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: webhookKey(webhookId),
        UpdateExpression: 'SET secret = :new, previousSecret = :old, previousSecretUntil = :until, updatedAt = :now',
        // Two rotations at once: only one wins, so the answered secret is the one stored.
        ConditionExpression: 'attribute_exists(pk) AND secret = :old',
        ExpressionAttributeValues: {
          ':new': await sealSecret(secret, webhookId),
          ':old': webhook.secret,
          ':until': new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString(),
          ':now': now.toISOString(),
        },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new ApiError('conflict', 'The secret was rotated or the webhook removed meanwhile; try again', { id: webhookId });
    throw error;
  }
  return { secret };
}

/** Sends a `webhook.test` event now, once, and answers its outcome; it is logged like any delivery. */
export async function testWebhook(store: Store, accountId: string, webhookId: string, now: Date) {
  const webhook = await loadWebhook(store, accountId, webhookId);
  const id = newId();
  const lease = newLease(now);
  const delivery = pendingDelivery(
    {
      id,
      webhookId,
      accountId,
      eventId: `evt_${newId()}`,
      eventType: 'webhook.test',
      body: formatBody(webhook.format, testBody(webhook, now)),
      leaseToken: lease.token,
      leaseUntil: lease.until,
    },
    now,
  );
  await store.documentClient.send(
    new PutCommand({
      TableName: store.tableName,
      // Leased: if this function dies mid-attempt, a sweeper completes the test when the lease ends.
      Item: deliveryItem(delivery, now),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  const { result } = await attemptDelivery(store, delivery, webhook, () => new Date());
  return {
    deliveryId: id,
    status: result?.verdict === 'succeeded' ? ('succeeded' as const) : ('failed' as const),
    ...(result?.statusCode !== undefined ? { statusCode: result.statusCode } : {}),
    ...(result?.error !== undefined ? { error: result.error } : {}),
    durationMs: result?.durationMs ?? 0,
  };
}

export async function listDeliveries(store: Store, accountId: string, query: DeliveryListModel) {
  await loadWebhook(store, accountId, query.webhookId);
  const filter = query.status ? { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': query.status } } : undefined;
  const page = await cursorPage(
    gsi1Source(store, webhookDeliveriesPartition(query.webhookId), true, filter),
    { accountId, scope: { operation: 'webhooks/deliveries', webhookId: query.webhookId, status: query.status }, path: 'args.0.cursor' },
    { cursor: query.cursor, size: query.$size },
  );
  return { items: page.items.map((item) => deliveryView(deliveryFromItem(item))), ...(page.cursor ? { cursor: page.cursor } : {}) };
}

/**
 * Queues a delivery again: pending, due now, a fresh retry schedule, the same body and
 * `webhook-id`. Not while an attempt of it is running, nor to a disabled endpoint.
 */
export async function redeliver(store: Store, accountId: string, deliveryId: string, now: Date) {
  const delivery = await getDelivery(store, deliveryId);
  if (!delivery || delivery.accountId !== accountId) throw notFound('Delivery', deliveryId);
  const webhook = await getWebhook(store, delivery.webhookId);
  if (!webhook || webhook.accountId !== accountId) throw notFound('Delivery', deliveryId);
  if (!webhook.enabled) throw new ApiError('conflict', 'The webhook is disabled; enable it with webhooks/save first', { webhookId: webhook.id });
  const timestamp = now.toISOString();
  const due = dueAttributes(deliveryId, timestamp);
  // Its TTL starts again below: the pointer that erasure finds it by must outlive it again.
  if (delivery.responseId) await putDeliveryPointer(store, delivery.responseId, deliveryId, now);
  try {
    const { Attributes } = await store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: deliveryKey(deliveryId),
        UpdateExpression:
          'SET #status = :pending, failures = :zero, nextAttemptAt = :now, updatedAt = :now, duepk = :duepk, duesk = :duesk, expiresAt = :expires',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':zero': 0,
          ':now': timestamp,
          ':expires': Math.floor(now.getTime() / 1000) + DELIVERY_RETENTION_SECONDS,
          ':duepk': due.duepk,
          ':duesk': due.duesk,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return deliveryView(deliveryFromItem(Attributes!));
  } catch (error) {
    if (isConditionFailure(error)) throw new ApiError('conflict', 'An attempt of this delivery is running; try again in a moment', { deliveryId });
    throw error;
  }
}
