/**
 * Alerts and digests: the records the alerts job and the digest job write, and the watch
 * list that tells them which entities to read (functions/jobs/alerts.ts, digest.ts). Raw
 * items, no ElectroDB.
 *
 * | Access pattern                                        | Index | Partition key                         | Sort key                      |
 * |-------------------------------------------------------|-------|---------------------------------------|-------------------------------|
 * | An account's alerts, newest first (alerts/list)       | table | alerts#<accountId>                    | <createdAt>#<alertId>         |
 * | An account's digests as sent                          | table | digests#<accountId>                   | <createdAt>#<digestId>        |
 * | The last alert of an entity (at most one in 7 days)   | table | alertguard#<entity>#<id>              | guard                         |
 * | An account's alert settings (on the account item)     | table | account#<accountId>                   | account                       |
 * | Watched entities of a project (responses lately)      | table | alertwatch#<accountId>#<projectId>    | <entity>#<id>                 |
 * | Watched projects                                      | table | alertwatch#projects#<shard 0-7>       | <accountId>#<projectId>       |
 * | A job's checkpoint                                    | table | alerts / digests                      | checkpoint                    |
 *
 * Alert and digest records are the events: their insertion reaches the webhooks consumer
 * through the stream (`stats.alert`, `digest.weekly`; stream/events.ts), which queues their
 * deliveries exactly once like any event's.
 *
 * The watch list is how a job finds the entities that had responses lately without a scan:
 * the alerts job copies the counting consumer's change records (store/top-lists.ts, kept 2
 * days) into it, an entity's item carrying its last day with a response and expiring
 * WATCH_DAYS later. An alert needs responses in the last 7 days, a digest in the last
 * complete week (at most 14 days back). The item also carries the last day the alerts job
 * tested the entity (`testedDay`): once a day at most.
 */
import { BatchWriteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import {
  type AccountAlertSettings,
  accountAlertSettingsOf,
  ALERT_QUIET_DAYS,
  ALERT_RETENTION_DAYS,
  type AlertEntity,
  alertSettingsOf,
  quietPeriodOver,
} from '../domain/alerts';
import type { AnySchemaConfig, Schema } from '../domain/schemas';
import type { AlertImage } from '../domain/alerts';
import type { DigestImage } from '../domain/events';
import { getRawItemsChunked, queryAll, queryWithinBudget, sendUntilProcessed } from './batch';
import type { TableClient } from './dynamodb-clients';
import { keys } from './items';
import { isConditionFailure } from './conditions';

/** How long after its last response an entity stays watched: the digest's two weeks and a day. */
export const WATCH_DAYS = 15;
const PROJECT_SHARDS = 8;
const DAY_MS = 24 * 3600 * 1000;

export const alertsPartition = (accountId: string) => `alerts#${accountId}`;
export const digestsPartition = (accountId: string) => `digests#${accountId}`;
const guardKey = (entity: AlertEntity, id: string) => ({ pk: `alertguard#${entity}#${id}`, sk: 'guard' });
const watchPartition = (accountId: string, projectId: string) => `alertwatch#${accountId}#${projectId}`;
const projectShard = (accountId: string, projectId: string) =>
  `alertwatch#projects#${createHash('sha256').update(`${accountId}#${projectId}`).digest()[0] % PROJECT_SHARDS}`;

const epochSeconds = (at: Date) => Math.floor(at.getTime() / 1000);
const dayAfter = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

/** An entity: what it is and its scope. */
export interface AlertScope {
  entity: AlertEntity;
  id: string;
  accountId: string;
  projectId: string;
  contentSetId: string;
}

/** An entity with responses lately: its scope, the last day it had one, and the last day the alerts job tested it. */
export interface WatchedEntity extends AlertScope {
  lastDay: string;
  testedDay?: string;
}

const watchKey = (entity: AlertScope) => ({ pk: watchPartition(entity.accountId, entity.projectId), sk: `${entity.entity}#${entity.id}` });

/**
 * The watch entries of `entities` (undefined where there is none), in their order: one
 * eventually consistent read (BatchGetItem, 0.5 RRU each). The alerts job reads them before
 * marking (`watchEntity`) only those not yet marked that day: it runs hourly, and a page
 * answered all day long would otherwise be written every hour, 1 WRU each time, the
 * largest part of what the job costs a quiet site (docs/scaling.md). A read that missed an
 * earlier run's mark only makes the job write the same mark again.
 */
export async function readWatchEntries(store: TableClient, entities: readonly AlertScope[]): Promise<(WatchedEntity | undefined)[]> {
  const entries = await getRawItemsChunked(store, entities.map(watchKey), { consistent: false });
  return entries.map((entry) => entry && watchedOf(entry));
}

/** Marks an entity as having had responses on `day`: one UpdateItem, which keeps the day it was last tested and answers it. Its project: `watchProjects`. */
export async function watchEntity(store: TableClient, entity: AlertScope, day: string): Promise<WatchedEntity> {
  const { Attributes } = await store.documentClient.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: watchKey(entity),
      UpdateExpression:
        'SET #entity = :entity, id = :id, accountId = :accountId, projectId = :projectId, contentSetId = :contentSetId, lastDay = :day, expiresAt = :expiresAt',
      ExpressionAttributeNames: { '#entity': 'entity' },
      ExpressionAttributeValues: {
        ':entity': entity.entity,
        ':id': entity.id,
        ':accountId': entity.accountId,
        ':projectId': entity.projectId,
        ':contentSetId': entity.contentSetId,
        ':day': day,
        ':expiresAt': epochSeconds(dayAfter(day, WATCH_DAYS)),
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return watchedOf(Attributes!);
}

/** Marks the projects of `entities` as having had responses on `day`: one write each, 25 a request. */
export async function watchProjects(store: TableClient, entities: readonly AlertScope[], day: string): Promise<void> {
  const expiresAt = epochSeconds(dayAfter(day, WATCH_DAYS));
  const projects = new Map<string, Record<string, unknown>>();
  for (const entity of entities) {
    const projectPk = projectShard(entity.accountId, entity.projectId);
    const projectSk = `${entity.accountId}#${entity.projectId}`;
    projects.set(`${projectPk}|${projectSk}`, {
      pk: projectPk,
      sk: projectSk,
      accountId: entity.accountId,
      projectId: entity.projectId,
      lastDay: day,
      expiresAt,
    });
  }
  const writes = [...projects.values()];
  for (let start = 0; start < writes.length; start += 25) {
    const chunk = writes.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    await sendUntilProcessed('watching projects', chunk, async (requests) => {
      const output = await store.documentClient.send(new BatchWriteCommand({ RequestItems: { [store.tableName]: requests } }));
      return (output.UnprocessedItems?.[store.tableName] ?? []) as typeof chunk;
    });
  }
}

/** Records that the alerts job tested an entity on `day`, if it is still watched: one UpdateItem. */
export async function markTested(store: TableClient, entity: AlertScope, day: string): Promise<void> {
  try {
    await store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: watchKey(entity),
        UpdateExpression: 'SET testedDay = :day',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':day': day },
      }),
    );
  } catch (error) {
    // Not watched (expired meanwhile, or evaluated without having been watched): nothing to mark.
    if (!isConditionFailure(error)) throw error;
  }
}

function watchedOf(item: Record<string, unknown>): WatchedEntity {
  return {
    entity: item.entity as AlertEntity,
    id: String(item.id),
    accountId: String(item.accountId),
    projectId: String(item.projectId),
    contentSetId: String(item.contentSetId),
    lastDay: String(item.lastDay),
    ...(typeof item.testedDay === 'string' ? { testedDay: item.testedDay } : {}),
  };
}

/** The projects with responses on or after `since` (a day key): one Query per shard. */
export async function watchedProjects(store: TableClient, since: string): Promise<{ accountId: string; projectId: string }[]> {
  const projects: { accountId: string; projectId: string }[] = [];
  for (let shard = 0; shard < PROJECT_SHARDS; shard++) {
    const items = await queryAll(store, {
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'lastDay >= :since',
      ExpressionAttributeValues: { ':pk': `alertwatch#projects#${shard}`, ':since': since },
    });
    for (const item of items) projects.push({ accountId: String(item.accountId), projectId: String(item.projectId) });
  }
  return projects;
}

/** A project's entities with responses on or after `since`: one Query (a page per MB). */
export async function watchedEntities(store: TableClient, accountId: string, projectId: string, since: string): Promise<WatchedEntity[]> {
  const items = await queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk',
    FilterExpression: 'lastDay >= :since',
    ExpressionAttributeValues: { ':pk': watchPartition(accountId, projectId), ':since': since },
  });
  return items.map(watchedOf);
}

/** What the jobs read of a set: its scope, schema, alert settings (defaults filled in) and whether it is active. */
export interface SetFacts {
  id: string;
  accountId: string;
  projectId: string;
  name: string;
  schema: Schema;
  config: AnySchemaConfig;
  alerts: ReturnType<typeof alertSettingsOf>;
  active: boolean;
}

/** Sets by id (missing ones are left out): one BatchGetItem per 100. */
export async function readSetFacts(store: TableClient, ids: Iterable<string>): Promise<Map<string, SetFacts>> {
  const items = await getRawItemsChunked(
    store,
    [...ids].map((id) => ({ pk: `set#${id}`, sk: 'set' })),
  );
  const sets = new Map<string, SetFacts>();
  for (const item of items) {
    if (!item) continue;
    const schema = item.schema as Schema;
    const config = item.schemaConfig as AnySchemaConfig;
    sets.set(String(item.id), {
      id: String(item.id),
      accountId: String(item.accountId),
      projectId: String(item.projectId),
      name: String(item.name),
      schema,
      config,
      alerts: alertSettingsOf(schema, config, item.alerts as never),
      active: item.state === 'active',
    });
  }
  return sets;
}

/** Accounts' alert settings by id, defaults filled in (a missing account gets the defaults): one eventually consistent BatchGetItem per 100. */
export async function readAccountAlertSettings(store: TableClient, accountIds: Iterable<string>): Promise<Map<string, AccountAlertSettings>> {
  const ids = [...new Set(accountIds)];
  const items = await getRawItemsChunked(store, ids.map(keys.account), { consistent: false });
  return new Map(ids.map((id, index) => [id, accountAlertSettingsOf(items[index]?.alerts as Partial<AccountAlertSettings> | undefined)]));
}

/**
 * Which of `entities` alerted within the last ALERT_QUIET_DAYS before `now` (their guards):
 * one BatchGetItem per 100, eventually consistent (half the read units): a guard written a
 * second ago is still enforced by the alert's own transaction.
 */
export async function entitiesInQuietPeriod(store: TableClient, entities: readonly { entity: AlertEntity; id: string }[], now: Date): Promise<Set<string>> {
  const guards = await getRawItemsChunked(
    store,
    entities.map((entity) => guardKey(entity.entity, entity.id)),
    { consistent: false },
  );
  const quiet = new Set<string>();
  entities.forEach((entity, index) => {
    const at = guards[index]?.at;
    if (typeof at === 'string' && !quietPeriodOver(at, now)) quiet.add(`${entity.entity}#${entity.id}`);
  });
  return quiet;
}

/**
 * Raises an alert: its record, on the condition that the entity raised none in the last
 * ALERT_QUIET_DAYS (its guard item, moved in the same transaction). False when another
 * evaluation raised one first, now or within the quiet days.
 */
export async function raiseAlert(store: TableClient, alert: AlertImage, now: Date): Promise<boolean> {
  const at = now.toISOString();
  try {
    await store.documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: store.tableName,
              Item: { ...guardKey(alert.entity, alert.entityId), at, alertId: alert.id, expiresAt: epochSeconds(now) + ALERT_QUIET_DAYS * 24 * 3600 + 3600 },
              ConditionExpression: 'attribute_not_exists(pk) OR #at <= :quietSince',
              ExpressionAttributeNames: { '#at': 'at' },
              ExpressionAttributeValues: { ':quietSince': new Date(now.getTime() - ALERT_QUIET_DAYS * DAY_MS).toISOString() },
            },
          },
          {
            Put: {
              TableName: store.tableName,
              Item: {
                pk: alertsPartition(alert.accountId),
                sk: `${alert.createdAt}#${alert.id}`,
                ...alert,
                expiresAt: epochSeconds(now) + ALERT_RETENTION_DAYS * 24 * 3600,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'TransactionCanceledException') return false;
    throw error;
  }
}

/** Records a digest as sent: its insertion is the `digest.weekly` event. False when `once` names a digest already sent. */
export async function recordDigest(store: TableClient, digest: DigestImage, once?: string): Promise<boolean> {
  const item = {
    pk: digestsPartition(digest.accountId),
    sk: `${digest.createdAt}#${digest.id}`,
    ...digest,
    expiresAt: epochSeconds(new Date(digest.createdAt)) + 30 * 24 * 3600,
  };
  if (!once) {
    await store.documentClient.send(new PutCommand({ TableName: store.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  }
  try {
    await store.documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          // One weekly digest per project and week, however often the schedule delivers.
          {
            Put: {
              TableName: store.tableName,
              Item: { pk: `digestsent#${once}`, sk: 'sent', digestId: digest.id, expiresAt: item.expiresAt },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Put: { TableName: store.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'TransactionCanceledException') return false;
    throw error;
  }
}

export interface AlertFilter {
  projectId?: string;
  contentSetId?: string;
  /** Created at or after (ISO time). */
  from?: string;
  /** Created before (ISO time). */
  to?: string;
}

/** Attributes of the record that are not the alert's: its keys, its TTL, whether it was mailed. */
const KEY_ATTRIBUTES = ['pk', 'sk', 'expiresAt', 'mailed'];

export function alertOf(item: Record<string, unknown>): AlertImage {
  const alert = { ...item };
  for (const name of KEY_ATTRIBUTES) delete alert[name];
  return alert as unknown as AlertImage;
}

/** An account's alerts, newest first, after `start` (the keys of the last item read), filtered within the read budget. */
export async function readAlerts(
  store: TableClient,
  accountId: string,
  filter: AlertFilter,
  options: { start?: Record<string, unknown>; count: number },
): Promise<{ items: Record<string, unknown>[]; resume?: Record<string, unknown> }> {
  const conditions = [
    ...(filter.projectId === undefined ? [] : ['projectId = :projectId']),
    ...(filter.contentSetId === undefined ? [] : ['contentSetId = :contentSetId']),
  ];
  const values = {
    ':pk': alertsPartition(accountId),
    // Sort keys begin with the creation time: every ISO time lies between these two.
    ':from': filter.from ?? '0',
    ':to': filter.to ?? '~',
    ...(filter.projectId === undefined ? {} : { ':projectId': filter.projectId }),
    ...(filter.contentSetId === undefined ? {} : { ':contentSetId': filter.contentSetId }),
  };
  return queryWithinBudget(
    store,
    {
      TableName: store.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: values,
      ...(conditions.length > 0 ? { FilterExpression: conditions.join(' AND ') } : {}),
      ScanIndexForward: false,
    },
    options,
  );
}

/** Marks an alert as mailed to everyone who wanted it at once (functions/jobs/alert-mail.ts reads the others again). */
export async function markAlertMailed(store: TableClient, alert: Pick<AlertImage, 'accountId' | 'createdAt' | 'id'>): Promise<void> {
  await store.documentClient.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { pk: alertsPartition(alert.accountId), sk: `${alert.createdAt}#${alert.id}` },
      UpdateExpression: 'SET mailed = :yes',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':yes': true },
    }),
  );
}
