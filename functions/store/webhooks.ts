/**
 * The webhook and delivery items: keys, stored shapes and the reads every part of the
 * delivery engine shares (API operations, the stream consumer, the sweeper). Raw
 * DocumentClient, no ElectroDB, so the consumer's and the sweeper's bundles stay small.
 *
 * | Access pattern                                   | Index | Partition key                     | Sort key                 |
 * |--------------------------------------------------|-------|-----------------------------------|--------------------------|
 * | Webhook by id                                    | table | webhook#<id>                      | webhook                  |
 * | Webhooks of an account, oldest first             | gsi1  | account#<accountId>#webhooks      | <createdAt>#<id>         |
 * | How many webhooks an account has (limit of 20)   | table | account#<accountId>               | webhooks                 |
 * | Delivery by id                                   | table | delivery#<id>                     | delivery                 |
 * | Deliveries of a webhook, newest first            | gsi1  | webhook#<webhookId>#deliveries    | <createdAt>#<id>         |
 * | Pending deliveries by due time (sparse)          | due   | due#<shard 0..3>                  | <nextAttemptAt>#<id>     |
 * | Deliveries of a response's events (erasure)      | table | delivery-of#<responseId>          | <deliveryId>             |
 *
 * Only pending deliveries carry `duepk`/`duesk`, so the `due` index (keys only) holds
 * exactly the work to do; a sweeper claims a due delivery by moving its `duesk` with a
 * condition on the value it read (see webhooks/attempts.ts). The four shards spread the
 * index's write load over partitions; a sweep queries all of them.
 *
 * `delivery-of#` items are pointers (ids and a TTL only): erasure of a response
 * (`responses/erase`) must also delete the deliveries whose bodies hold it, and they are
 * found through these pointers instead of a scan or one more GSI (CloudFormation adds one
 * GSI per stack update, and the index would hold every delivery for the rare erasure).
 * Their prefix is neither stream consumer's (`response#`, `content#`), so writing them
 * invokes no one. A pointer expires after the longest a delivery can live
 * (domain/webhooks.ts, deliveryLifetimeSeconds): never before its delivery, whose TTL is
 * pushed back by every attempt.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import {
  DELIVERY_RETENTION_SECONDS,
  deliveryLifetimeSeconds,
  type DeliveredEventType,
  type DeliveryStatus,
  type WebhookEventType,
  type WebhookFormat,
} from '../domain/webhooks';
import type { TableClient } from './dynamodb-clients';
import { putItemsBatched, queryAll, queryWithinBudget } from './batch';

export const DUE_INDEX = 'due';
export const DUE_SHARDS = 4;

export interface WebhookRecord {
  id: string;
  accountId: string;
  projectId?: string;
  url: string;
  events: WebhookEventType[];
  format: WebhookFormat;
  description?: string;
  enabled: boolean;
  disabledReason?: string;
  createdAt: string;
  updatedAt: string;
  /** The signing secret, encrypted (webhooks/secrets.ts); never returned by the API after create/rotate. */
  secret: string;
  /** The secret before the last rotation, encrypted, still signing until `previousSecretUntil`. */
  previousSecret?: string;
  previousSecretUntil?: string;
  /** When deliveries to it started failing without a success since (the 5-day disabling rule). */
  failingSince?: string;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  accountId: string;
  /** The event's id: the same for every endpoint the event goes to. */
  eventId: string;
  eventType: DeliveredEventType;
  status: DeliveryStatus;
  /** Attempts made, over every round (a redelivery starts a new round). */
  attempts: number;
  /** Failed attempts of the current round: the position in the retry schedule. */
  failures: number;
  lastStatusCode?: number;
  lastError?: string;
  lastAttemptAt?: string;
  nextAttemptAt?: string;
  createdAt: string;
  updatedAt: string;
  /** The exact bytes posted (JSON), fixed when the event is queued so every attempt signs the same body. */
  body: string;
  /** The response a response event's body holds (not `response.deleted`'s: ids only): its pointer's partition. */
  responseId?: string;
  /** Held while an attempt runs: the outcome is only recorded by the holder (webhooks/attempts.ts). */
  leaseToken?: string;
  leaseUntil?: string;
}

export const webhookKey = (id: string) => ({ pk: `webhook#${id}`, sk: 'webhook' });
export const webhookCountKey = (accountId: string) => ({ pk: `account#${accountId}`, sk: 'webhooks' });
export const accountWebhooksPartition = (accountId: string) => `account#${accountId}#webhooks`;
export const deliveryKey = (id: string) => ({ pk: `delivery#${id}`, sk: 'delivery' });
export const webhookDeliveriesPartition = (webhookId: string) => `webhook#${webhookId}#deliveries`;
export const responseDeliveriesPartition = (responseId: string) => `delivery-of#${responseId}`;

/** The due index's partition of a delivery: fixed by its id. */
export function dueShard(deliveryId: string): string {
  return `due#${createHash('sha256').update(deliveryId).digest()[0] % DUE_SHARDS}`;
}

export const dueSortKey = (at: string, deliveryId: string) => `${at}#${deliveryId}`;

/** The due index attributes of a delivery to attempt at `at`. */
export const dueAttributes = (deliveryId: string, at: string) => ({ duepk: dueShard(deliveryId), duesk: dueSortKey(at, deliveryId) });

const KEY_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'duepk', 'duesk', 'expiresAt'];

function strip<T>(item: Record<string, unknown>): T {
  const record = { ...item };
  for (const name of KEY_ATTRIBUTES) delete record[name];
  return record as T;
}

export const webhookFromItem = (item: Record<string, unknown>) => strip<WebhookRecord>(item);
export const deliveryFromItem = (item: Record<string, unknown>) => strip<DeliveryRecord>(item);

export function webhookItem(webhook: WebhookRecord): Record<string, unknown> {
  return {
    ...webhookKey(webhook.id),
    gsi1pk: accountWebhooksPartition(webhook.accountId),
    gsi1sk: `${webhook.createdAt}#${webhook.id}`,
    ...webhook,
  };
}

export async function getWebhook(store: TableClient, id: string): Promise<WebhookRecord | undefined> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: webhookKey(id), ConsistentRead: true }));
  return Item ? webhookFromItem(Item) : undefined;
}

export async function getDelivery(store: TableClient, id: string): Promise<DeliveryRecord | undefined> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: deliveryKey(id), ConsistentRead: true }));
  return Item ? deliveryFromItem(Item) : undefined;
}

/**
 * A delivery as stored at `now`: its keys, its place among its webhook's deliveries (gsi1),
 * its place in the `due` index while it has work to do (held: when its lease ends; pending:
 * when its next attempt is due), and its TTL.
 */
export function deliveryItem(delivery: DeliveryRecord, now: Date): Record<string, unknown> {
  const dueAt = delivery.leaseUntil ?? (delivery.status === 'pending' ? delivery.nextAttemptAt : undefined);
  return {
    ...deliveryKey(delivery.id),
    gsi1pk: webhookDeliveriesPartition(delivery.webhookId),
    gsi1sk: `${delivery.createdAt}#${delivery.id}`,
    ...(dueAt ? dueAttributes(delivery.id, dueAt) : {}),
    expiresAt: Math.floor(now.getTime() / 1000) + DELIVERY_RETENTION_SECONDS,
    ...delivery,
  };
}

/** A delivery not attempted yet, due at `now`: the event queued for a webhook, or a test. */
export function pendingDelivery(
  fields: Pick<DeliveryRecord, 'id' | 'webhookId' | 'accountId' | 'eventId' | 'eventType' | 'body' | 'responseId' | 'leaseToken' | 'leaseUntil'>,
  now: Date,
): DeliveryRecord {
  const timestamp = now.toISOString();
  return { ...fields, status: 'pending', attempts: 0, failures: 0, nextAttemptAt: timestamp, createdAt: timestamp, updatedAt: timestamp };
}

/** A filter on the items a gsi1 read returns (they still count against the read's Limit). */
export interface Gsi1Filter {
  expression: string;
  names?: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * Items of a gsi1 partition in index order, after the item whose keys are `start`: all of
 * them, or with `count` up to that many, fewer when the partition ends or a filtered read
 * spends its budget (budgetedRead: then `resume` holds the keys where it stopped).
 */
export async function readGsi1(
  store: TableClient,
  partition: string,
  options: { newestFirst?: boolean; start?: Record<string, unknown>; count?: number; filter?: Gsi1Filter } = {},
): Promise<{ items: Record<string, unknown>[]; resume?: Record<string, unknown> }> {
  const { filter, count, start } = options;
  const query = {
    TableName: store.tableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :partition',
    ExpressionAttributeValues: { ':partition': partition, ...filter?.values },
    ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
    ScanIndexForward: !options.newestFirst,
  };
  if (count !== undefined) return queryWithinBudget(store, query, { start, count });
  return { items: await queryAll(store, { ...query, ExclusiveStartKey: start }) };
}

/** Every webhook of an account (at most 20: one page). */
export async function accountWebhooks(store: TableClient, accountId: string): Promise<WebhookRecord[]> {
  return (await readGsi1(store, accountWebhooksPartition(accountId))).items.map(webhookFromItem);
}

/**
 * Writes (or moves the expiry of) the pointer from a response to a delivery holding it:
 * before the delivery is written or requeued, so no such delivery exists without one.
 */
export async function putDeliveryPointer(store: TableClient, responseId: string, deliveryId: string, now: Date): Promise<void> {
  await store.documentClient.send(new PutCommand({ TableName: store.tableName, Item: deliveryPointer(responseId, deliveryId, now) }));
}

/** The pointers of many deliveries (a stream batch's), 25 to a request: as `putDeliveryPointer`, before their deliveries. */
export async function putDeliveryPointers(store: TableClient, pointers: { responseId: string; deliveryId: string }[], now: Date): Promise<void> {
  await putItemsBatched(
    store,
    pointers.map(({ responseId, deliveryId }) => deliveryPointer(responseId, deliveryId, now)),
  );
}

function deliveryPointer(responseId: string, deliveryId: string, now: Date): Record<string, unknown> {
  return { pk: responseDeliveriesPartition(responseId), sk: deliveryId, expiresAt: Math.floor(now.getTime() / 1000) + deliveryLifetimeSeconds() };
}

/**
 * Deletes the deliveries of a response's events (the bodies holding its value, context and
 * profiling), and their pointers; answers how many pointers it followed. Each delivery goes before its
 * pointer, so an interrupted run leaves the pointer to find on the next; deleting what is
 * gone already changes nothing, so a redelivered `response.deleted` is harmless. An attempt
 * running meanwhile records nothing: its writes are conditional on its lease, which went
 * with the item (webhooks/attempts.ts).
 */
export async function eraseResponseDeliveries(store: TableClient, responseId: string): Promise<number> {
  let erased = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await store.documentClient.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :partition',
        ExpressionAttributeValues: { ':partition': responseDeliveriesPartition(responseId) },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const pointer of page.Items ?? []) {
      await store.documentClient.send(new DeleteCommand({ TableName: store.tableName, Key: deliveryKey(String(pointer.sk)) }));
      await store.documentClient.send(new DeleteCommand({ TableName: store.tableName, Key: { pk: pointer.pk, sk: pointer.sk } }));
      erased++;
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return erased;
}
