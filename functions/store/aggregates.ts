/**
 * Aggregate counters: one item per (entity, bucket), kept by the stream consumer and read
 * by getStats, getAggregates and top.
 *
 * | Access pattern                                   | Index  | Partition key                                | Sort key              |
 * |--------------------------------------------------|--------|----------------------------------------------|-----------------------|
 * | Buckets of an entity over a time range           | table  | agg#<entity>#<entityId>                      | <granularity>#<key>   |
 * | Lifetime total of an entity                      | table  | agg#<entity>#<entityId>                      | lifetime              |
 * | Rolling window total of an entity                | table  | agg#<entity>#<entityId>                      | rolling#<period>      |
 * | Items of a set ranked by count in a period       | rank1  | set#<setId>#contentItem#<period>[#<key>]     | count (number)        |
 * | Items / sets of a project ranked by count        | rank2  | project#<projectId>#<entity>#<period>[#<key>]| count (number)        |
 * | Items / sets of an account ranked by count       | rank3  | account#<accountId>#<entity>#<period>[#<key>]| count (number)        |
 * | Entities with responses on a day / in a month    | retire | retire#<day|month>#<key>#<shard>             | sk                    |
 * | Stream records already counted (idempotency)     | table  | counted#<eventID>                            | counted               |
 *
 * Calendar periods (week, month, year) rank their bucket items directly; rolling windows
 * rank the `rolling#<period>` items, which the daily rollover job recomputes from the
 * day/month buckets when a day or month leaves the window.
 *
 * These items are written with raw UpdateItem/TransactWriteItems rather than ElectroDB:
 * counters are `ADD`ed to one number attribute per option (`o<index>`), a dynamic set of
 * attribute names that an ElectroDB schema cannot declare.
 */
import { QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { emptyCounter, type Counter } from '../domain/aggregation';
import { bucketKey, bucketKeysOf, type Granularity } from '../domain/periods';
import type { TableClient } from './dynamo';

export const AGGREGATE_ENTITIES = ['project', 'contentSet', 'contentItem'] as const;
export type AggregateEntity = (typeof AGGREGATE_ENTITIES)[number];

export const ROLLING_WINDOWS = {
  rolling7d: { granularity: 'day', length: 7 },
  rolling28d: { granularity: 'day', length: 28 },
  rolling12m: { granularity: 'month', length: 12 },
} as const satisfies Record<string, { granularity: Granularity; length: number }>;
export type RollingPeriod = keyof typeof ROLLING_WINDOWS;

/** Ranked calendar periods: their bucket items carry rank keys. */
const RANKED_GRANULARITIES = ['week', 'month', 'year'] as const;
/** Spreads a day's retire entries over partitions so a busy day is not one hot key. */
export const RETIRE_SHARDS = 8;
/** Stream records are kept 24 h; markers outlive any redelivery. */
export const MARKER_TTL_SECONDS = 3 * 24 * 3600;

export interface ResponseScope {
  accountId: string;
  projectId: string;
  contentSetId: string;
  contentItemId: string;
}

export function aggregatePk(entity: AggregateEntity, entityId: string): string {
  return `agg#${entity}#${entityId}`;
}

export function bucketSk(granularity: Granularity, key: string): string {
  return `${granularity}#${key}`;
}

export const LIFETIME_SK = 'lifetime';
export const rollingSk = (period: RollingPeriod) => `rolling#${period}`;

export function markerKey(eventId: string) {
  return { pk: `counted#${eventId}`, sk: 'counted' };
}

/** Rank index partition of an entity's items for a period (`suffix`: bucket key of calendar periods). */
export function rankPartitions(entity: AggregateEntity, scope: ResponseScope, period: string): Partial<Record<'rank1pk' | 'rank2pk' | 'rank3pk', string>> {
  if (entity === 'contentItem') {
    return {
      rank1pk: `set#${scope.contentSetId}#contentItem#${period}`,
      rank2pk: `project#${scope.projectId}#contentItem#${period}`,
      rank3pk: `account#${scope.accountId}#contentItem#${period}`,
    };
  }
  if (entity === 'contentSet') {
    return { rank2pk: `project#${scope.projectId}#contentSet#${period}`, rank3pk: `account#${scope.accountId}#contentSet#${period}` };
  }
  return {};
}

export function retirePartition(granularity: 'day' | 'month', key: string, entityId: string): string {
  const shard = createHash('sha256').update(entityId).digest()[0] % RETIRE_SHARDS;
  return `retire#${granularity}#${key}#${shard}`;
}

function entityIdOf(entity: AggregateEntity, scope: ResponseScope): string {
  return entity === 'project' ? scope.projectId : entity === 'contentSet' ? scope.contentSetId : scope.contentItemId;
}

/** One counter item a response is counted in, with the attributes that place it in indexes. */
export interface CounterTarget {
  pk: string;
  sk: string;
  /** Static attributes written with every update (ids, rank and retire keys). */
  attributes: Record<string, string>;
}

/**
 * Every counter item a response created at `createdAt` counts in. Rolling items are
 * included only while the response's day (month) is inside the window ending at `now`;
 * older ones are left to the rollover job, which recomputes windows from the buckets.
 */
export function counterTargets(scope: ResponseScope, createdAt: Date, now: Date): CounterTarget[] {
  const keys = bucketKeysOf(createdAt);
  const targets: CounterTarget[] = [];
  for (const entity of AGGREGATE_ENTITIES) {
    const entityId = entityIdOf(entity, scope);
    const pk = aggregatePk(entity, entityId);
    const common = {
      entity,
      entityId,
      accountId: scope.accountId,
      projectId: scope.projectId,
      ...(entity === 'project' ? {} : { contentSetId: scope.contentSetId }),
    };
    const ranked = entity !== 'project';
    for (const granularity of ['hour', 'day', 'week', 'month', 'year'] as const) {
      const attributes: Record<string, string> = { ...common, granularity, bucket: keys[granularity] };
      if (ranked && (RANKED_GRANULARITIES as readonly string[]).includes(granularity)) {
        Object.assign(attributes, rankPartitions(entity, scope, `${granularity}#${keys[granularity]}`));
      }
      if (ranked && (granularity === 'day' || granularity === 'month')) {
        attributes.retirepk = retirePartition(granularity, keys[granularity], entityId);
      }
      targets.push({ pk, sk: bucketSk(granularity, keys[granularity]), attributes });
    }
    targets.push({ pk, sk: LIFETIME_SK, attributes: { ...common, granularity: 'lifetime' } });
    if (!ranked) continue;
    for (const period of Object.keys(ROLLING_WINDOWS) as RollingPeriod[]) {
      const { granularity, length } = ROLLING_WINDOWS[period];
      const oldestInWindow = bucketKey(granularity, shiftBuckets(granularity, now, -(length - 1)));
      if (keys[granularity] < oldestInWindow || keys[granularity] > bucketKey(granularity, now)) continue;
      targets.push({ pk, sk: rollingSk(period), attributes: { ...common, granularity: period, ...rankPartitions(entity, scope, period) } });
    }
  }
  return targets;
}

function shiftBuckets(granularity: 'day' | 'month', date: Date, count: number): Date {
  const shifted = new Date(date);
  if (granularity === 'day') shifted.setUTCDate(shifted.getUTCDate() + count);
  else shifted.setUTCMonth(shifted.getUTCMonth() + count, 1);
  return shifted;
}

/** Counter fields as item attributes: `count`, `o<index>` per option, and the sums. */
const SUM_FIELDS = ['sentimentSum', 'sentimentCount', 'intensitySum', 'intensityCount', 'ratingSum'] as const;

export function counterFromItem(item: Record<string, unknown> | undefined, optionCount: number): Counter {
  const counter = emptyCounter(optionCount);
  if (!item) return counter;
  counter.count = Number(item.count ?? 0);
  for (const field of SUM_FIELDS) counter[field] = Number(item[field] ?? 0);
  for (const [name, value] of Object.entries(item)) {
    const option = /^o(\d+)$/.exec(name);
    if (option) {
      const index = Number(option[1]);
      while (counter.options.length <= index) counter.options.push(0);
      counter.options[index] = Number(value);
    }
  }
  return counter;
}

function isZero(counter: Counter): boolean {
  return counter.count === 0 && counter.options.every((value) => value === 0) && SUM_FIELDS.every((field) => counter[field] === 0);
}

/** An UpdateItem that ADDs a delta to a counter item and (re)sets its static attributes. */
export function counterUpdate(tableName: string, target: CounterTarget, delta: Counter, now: Date) {
  const names: Record<string, string> = { '#count': 'count', '#updatedAt': 'updatedAt', '#createdAt': 'createdAt', '#version': 'version' };
  const values: Record<string, unknown> = { ':count': delta.count, ':now': now.toISOString(), ':one': 1 };
  // `version` counts the writes of the item: the rollover job (stream/rollover.ts) rewrites a
  // rolling item on the condition that it is still the version it read, so no delta is lost.
  const additions = ['#count :count', '#version :one'];
  delta.options.forEach((value, index) => {
    if (value === 0) return;
    names[`#o${index}`] = `o${index}`;
    values[`:o${index}`] = value;
    additions.push(`#o${index} :o${index}`);
  });
  for (const field of SUM_FIELDS) {
    if (delta[field] === 0) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = delta[field];
    additions.push(`#${field} :${field}`);
  }
  const assignments = ['#updatedAt = :now', '#createdAt = if_not_exists(#createdAt, :now)'];
  for (const [name, value] of Object.entries(target.attributes)) {
    names[`#a_${name}`] = name;
    values[`:a_${name}`] = value;
    assignments.push(`#a_${name} = :a_${name}`);
  }
  return {
    Update: {
      TableName: tableName,
      Key: { pk: target.pk, sk: target.sk },
      UpdateExpression: `ADD ${additions.join(', ')} SET ${assignments.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

export interface CounterDelta {
  target: CounterTarget;
  delta: Counter;
}

/**
 * Applies deltas and records their stream records as counted, atomically: either a
 * record's markers and its share of every counter are written, or nothing is. A marker
 * that already exists cancels the transaction (the caller then drops those records).
 */
export async function applyCounted(store: TableClient, eventIds: string[], deltas: CounterDelta[], now: Date): Promise<'applied' | 'already-counted'> {
  const expiresAt = Math.floor(now.getTime() / 1000) + MARKER_TTL_SECONDS;
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
    ...eventIds.map((eventId) => ({
      Put: {
        TableName: store.tableName,
        Item: { ...markerKey(eventId), countedAt: now.toISOString(), expiresAt },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    })),
    ...deltas.filter(({ delta }) => !isZero(delta)).map(({ target, delta }) => counterUpdate(store.tableName, target, delta, now)),
  ];
  try {
    await store.documentClient.send(new TransactWriteCommand({ TransactItems: items }));
    return 'applied';
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if (reasons?.slice(0, eventIds.length).some((reason) => reason.Code === 'ConditionalCheckFailed')) return 'already-counted';
    throw error;
  }
}

/** The bucket items of an entity between two keys of one granularity (inclusive): one Query. */
export async function readBuckets(
  store: TableClient,
  entity: AggregateEntity,
  entityId: string,
  granularity: Granularity,
  fromKey: string,
  toKey: string,
  options: { consistent?: boolean } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const buckets = new Map<string, Record<string, unknown>>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await store.documentClient.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': aggregatePk(entity, entityId), ':from': bucketSk(granularity, fromKey), ':to': bucketSk(granularity, toKey) },
        ExclusiveStartKey: start,
        ConsistentRead: options.consistent,
      }),
    );
    for (const item of page.Items ?? []) buckets.set(String(item.bucket), item);
    start = page.LastEvaluatedKey;
  } while (start);
  return buckets;
}
