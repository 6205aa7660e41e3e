/**
 * The counter item: one per (entity, bucket), kept by the stream consumer, recomputed by
 * the rollover and the rebuild, read by getStats, getAggregates and top. Its keys, its
 * attributes, how it is read, added to, replaced and compared all live here.
 *
 * | Access pattern                                   | Index  | Partition key                                | Sort key              |
 * |--------------------------------------------------|--------|----------------------------------------------|-----------------------|
 * | Buckets of an entity over a time range           | table  | agg#<entity>#<entityId>                      | <granularity>#<key>   |
 * | Lifetime total of an entity                      | table  | agg#<entity>#<entityId>                      | lifetime              |
 * | Rolling window total of an entity                | table  | agg#<entity>#<entityId>                      | rolling#<period>      |
 * | Items of a set ranked by count in a period       | rank1  | set#<setId>#contentItem#<period>[#<key>]     | count (number)        |
 * | Items / sets of a project ranked by count        | rank2  | project#<projectId>#<entity>#<period>[#<key>]| count (number)        |
 * | Items / sets of an account ranked by count       | rank3  | account#<accountId>#<entity>#<period>[#<key>]| count (number)        |
 * | Entities with responses in a bucket of a rolling | retire | retire#<unit>#<key>#<shard>                  | sk                    |
 * | window's unit (day, month), for the rollover     |        |                                              |                       |
 *
 * Ranked calendar periods (shared/periods.ts RANKED_UNITS) rank their bucket items
 * directly; rolling windows rank the `rolling#<period>` items, which the daily rollover
 * recomputes from the buckets of the window's unit when one leaves the window.
 *
 * Written with raw UpdateItem/PutItem rather than ElectroDB: counters are `ADD`ed to one
 * number attribute per option (`o<index>`), a dynamic set of attribute names that an
 * ElectroDB schema cannot declare; and the consumer and jobs stay free of ElectroDB.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { COUNTER_SUMS, emptyCounter, isZeroCounter, mergeCounters, addContribution, type Counter } from '../domain/aggregation';
import {
  bucketKeysOf,
  COUNTED_GRANULARITIES,
  inWindow,
  RANKED_UNITS,
  ROLLING_PERIODS,
  ROLLOVER_UNITS,
  rollingRule,
  type Granularity,
  type RollingPeriod,
} from '../../shared/periods';
import type { Contribution } from '../domain/schemas';
import type { TableClient } from './dynamodb-clients';

export const AGGREGATE_ENTITIES = ['project', 'contentSet', 'contentItem'] as const;
export type AggregateEntity = (typeof AGGREGATE_ENTITIES)[number];
export type RankedEntity = Exclude<AggregateEntity, 'project'>;
export type RankIndex = 'rank1' | 'rank2' | 'rank3';

/** Spreads a bucket's retire entries over partitions so a busy day is not one hot key. */
export const RETIRE_SHARDS = 8;

export interface ResponseScope {
  accountId: string;
  projectId: string;
  contentSetId: string;
  contentItemId: string;
}

/* Keys */

export function aggregatePk(entity: AggregateEntity, entityId: string): string {
  return `agg#${entity}#${entityId}`;
}

/** The entity and id of an aggregate partition key `agg#<entity>#<id>`. */
export function parseAggregatePk(pk: string): { entity: AggregateEntity; entityId: string } | undefined {
  const match = /^agg#(project|contentSet|contentItem)#(.+)$/.exec(pk);
  return match ? { entity: match[1] as AggregateEntity, entityId: match[2] } : undefined;
}

export function bucketSk(granularity: Granularity, key: string): string {
  return `${granularity}#${key}`;
}

export const LIFETIME_SK = 'lifetime';
export const rollingSk = (period: RollingPeriod) => `rolling#${period}`;

const RANK_OWNERS: Record<RankIndex, string> = { rank1: 'set', rank2: 'project', rank3: 'account' };

/** A rank partition: the `entity` items of one owner (set, project or account) for a period (shared/periods.ts rankSuffix). */
export function rankPartition(index: RankIndex, ownerId: string, entity: RankedEntity, suffix: string): string {
  return `${RANK_OWNERS[index]}#${ownerId}#${entity}#${suffix}`;
}

function rankAttributes(entity: RankedEntity, scope: ResponseScope, suffix: string): Partial<Record<'rank1pk' | 'rank2pk' | 'rank3pk', string>> {
  return {
    ...(entity === 'contentItem' ? { rank1pk: rankPartition('rank1', scope.contentSetId, entity, suffix) } : {}),
    rank2pk: rankPartition('rank2', scope.projectId, entity, suffix),
    rank3pk: rankPartition('rank3', scope.accountId, entity, suffix),
  };
}

function retireShard(entityId: string): number {
  return createHash('sha256').update(entityId).digest()[0] % RETIRE_SHARDS;
}

/** Every retire partition of a bucket (one per shard), for the rollover to read. */
export function retirePartitions(unit: Granularity, key: string): string[] {
  return Array.from({ length: RETIRE_SHARDS }, (_, shard) => `retire#${unit}#${key}#${shard}`);
}

function entityIdOf(entity: AggregateEntity, scope: ResponseScope): string {
  return entity === 'project' ? scope.projectId : entity === 'contentSet' ? scope.contentSetId : scope.contentItemId;
}

/* Which items a response counts in */

/** One counter item a response is counted in, with the attributes that place it in indexes. */
export interface CounterTarget {
  pk: string;
  sk: string;
  /** Static attributes written with every update (ids, rank and retire keys). */
  attributes: Record<string, string>;
}

/**
 * Every counter item a response created at `createdAt` counts in: a bucket per counted
 * granularity and the lifetime item of the project, its set and its item, and for sets and
 * items the rolling items whose window ending at `now` holds the response's bucket (older
 * ones are left to the rollover, which recomputes windows from the buckets). Projects are
 * not ranked, so they have neither rank keys nor rolling items.
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
    for (const granularity of COUNTED_GRANULARITIES) {
      const key = keys[granularity];
      const attributes: Record<string, string> = { ...common, granularity, bucket: key };
      if (entity !== 'project' && RANKED_UNITS.includes(granularity)) Object.assign(attributes, rankAttributes(entity, scope, `${granularity}#${key}`));
      if (entity !== 'project' && ROLLOVER_UNITS.includes(granularity)) attributes.retirepk = retirePartitions(granularity, key)[retireShard(entityId)];
      targets.push({ pk, sk: bucketSk(granularity, key), attributes });
    }
    targets.push({ pk, sk: LIFETIME_SK, attributes: { ...common, granularity: 'lifetime' } });
    if (entity === 'project') continue;
    for (const period of ROLLING_PERIODS) {
      const { unit } = rollingRule(period);
      if (!inWindow(period, keys[unit as (typeof COUNTED_GRANULARITIES)[number]], now)) continue;
      targets.push({ pk, sk: rollingSk(period), attributes: { ...common, granularity: period, ...rankAttributes(entity, scope, period) } });
    }
  }
  return targets;
}

/** What one response write changes in the counters: the contribution it takes out and the one it adds. */
export interface ResponseChange {
  /** The stream record's id (the consumer's exactly-once marker), or the response id in a rebuild. */
  eventId: string;
  sequenceNumber: string;
  scope: ResponseScope;
  createdAt: Date;
  removed?: Contribution;
  added?: Contribution;
}

export interface CounterDelta {
  target: CounterTarget;
  delta: Counter;
}

function changeDelta(change: ResponseChange): Counter {
  let delta = emptyCounter(0);
  if (change.removed) delta = addContribution(delta, change.removed, -1);
  if (change.added) delta = addContribution(delta, change.added, 1);
  return delta;
}

/**
 * The changes' deltas merged per counter item: N responses on one item cost one update per
 * item, not N. Project counters span sets of several schemas, so they keep no per-option
 * counts (their option indexes would mean different things).
 */
export function counterDeltas(changes: ResponseChange[], now: Date): CounterDelta[] {
  const merged = new Map<string, CounterDelta>();
  for (const change of changes) {
    const delta = changeDelta(change);
    for (const target of counterTargets(change.scope, change.createdAt, now)) {
      const id = counterItemId(target);
      const ownDelta = target.attributes.entity === 'project' ? { ...delta, options: [] } : delta;
      const existing = merged.get(id);
      merged.set(id, { target, delta: existing ? mergeCounters(existing.delta, ownDelta) : ownDelta });
    }
  }
  return [...merged.values()];
}

/** Identity of a counter item (its table key) for maps and sets. */
export function counterItemId(key: { pk?: unknown; sk?: unknown }): string {
  return `${String(key.pk)}\u0000${String(key.sk)}`;
}

/* Attributes */

/** Attributes that hold counters: `count`, `o<index>` per option and the sums. Everything else is static. */
export function isCounterAttribute(name: string): boolean {
  return name === 'count' || /^o\d+$/.test(name) || (COUNTER_SUMS as readonly string[]).includes(name);
}

/** Bookkeeping attributes of a counter item, neither counters nor static: written by every write. */
const BOOKKEEPING = ['pk', 'sk', 'createdAt', 'updatedAt', 'version'];

export function staticAttributesOf(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !isCounterAttribute(name) && !BOOKKEEPING.includes(name)));
}

export function counterFromItem(item: Record<string, unknown> | undefined, optionCount: number): Counter {
  const counter = emptyCounter(optionCount);
  if (!item) return counter;
  counter.count = Number(item.count ?? 0);
  for (const field of COUNTER_SUMS) counter[field] = Number(item[field] ?? 0);
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

/**
 * A sum as DynamoDB should store it. DynamoDB adds decimals exactly; sums made here in
 * binary floating point pick up noise (0.7 + 0.8 + ...). Fifteen significant digits keep
 * every real value (contributions have a few decimals) and drop the noise.
 */
function tidy(value: number): number {
  return Number(value.toPrecision(15)) || 0;
}

/** The counter attributes of a whole item: `count` always, options and sums when not 0 (absent reads as 0). */
function counterAttributes(counter: Counter): Record<string, number> {
  const attributes: Record<string, number> = { count: tidy(counter.count) };
  counter.options.forEach((value, index) => {
    if (tidy(value) !== 0) attributes[`o${index}`] = tidy(value);
  });
  for (const field of COUNTER_SUMS) if (tidy(counter[field]) !== 0) attributes[field] = tidy(counter[field]);
  return attributes;
}

/* Writes */

/**
 * An UpdateItem (as a transaction item) that ADDs a delta to a counter item and (re)sets its
 * static attributes. `version` counts the writes of the item: whole-item rewrites
 * (conditionalPut) are conditional on the version they read, so no delta is lost.
 */
export function counterUpdate(tableName: string, target: CounterTarget, delta: Counter, now: Date) {
  const names: Record<string, string> = { '#count': 'count', '#updatedAt': 'updatedAt', '#createdAt': 'createdAt', '#version': 'version' };
  const values: Record<string, unknown> = { ':count': delta.count, ':now': now.toISOString(), ':one': 1 };
  const additions = ['#count :count', '#version :one'];
  delta.options.forEach((value, index) => {
    if (value === 0) return;
    names[`#o${index}`] = `o${index}`;
    values[`:o${index}`] = value;
    additions.push(`#o${index} :o${index}`);
  });
  for (const field of COUNTER_SUMS) {
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

/** The updates of the deltas that change something. */
export function counterUpdates(tableName: string, deltas: CounterDelta[], now: Date) {
  return deltas.filter(({ delta }) => !isZeroCounter(delta)).map(({ target, delta }) => counterUpdate(tableName, target, delta, now));
}

/** A whole counter item: static attributes, counters, createdAt kept from `existing`, version + 1. */
export function counterItem(
  key: { pk: string; sk: string },
  staticAttributes: Record<string, unknown>,
  counter: Counter,
  existing: Record<string, unknown> | undefined,
  now: Date,
): Record<string, unknown> {
  return {
    ...staticAttributes,
    pk: key.pk,
    sk: key.sk,
    ...counterAttributes(counter),
    createdAt: typeof existing?.createdAt === 'string' ? existing.createdAt : now.toISOString(),
    updatedAt: now.toISOString(),
    version: Number(existing?.version ?? 0) + 1,
  };
}

/**
 * A Put of a whole counter item that succeeds only if the item is still what was read:
 * the same `version` (items written before versions existed: no version and the same
 * updatedAt), or still absent.
 */
export function conditionalPut(store: TableClient, item: Record<string, unknown>, existing: Record<string, unknown> | undefined) {
  if (!existing) {
    return new PutCommand({ TableName: store.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' });
  }
  if (existing.version === undefined) {
    return new PutCommand({
      TableName: store.tableName,
      Item: item,
      ConditionExpression: 'attribute_not_exists(#version) AND #updatedAt = :seen',
      ExpressionAttributeNames: { '#version': 'version', '#updatedAt': 'updatedAt' },
      ExpressionAttributeValues: { ':seen': existing.updatedAt ?? null },
    });
  }
  return new PutCommand({
    TableName: store.tableName,
    Item: item,
    ConditionExpression: '#version = :seen',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: { ':seen': existing.version },
  });
}

/** The scope of an entity, from any of its counter items (they all carry accountId, projectId, contentSetId). */
export function scopeFromItem(entity: AggregateEntity, entityId: string, item: Record<string, unknown>): ResponseScope {
  const scope = {
    accountId: String(item.accountId ?? ''),
    projectId: String(item.projectId ?? ''),
    contentSetId: entity === 'project' ? '' : String(item.contentSetId ?? ''),
    contentItemId: entity === 'contentItem' ? entityId : '',
  };
  if (!scope.accountId || !scope.projectId || (entity !== 'project' && !scope.contentSetId)) {
    throw new Error(`counter item ${String(item.pk)} / ${String(item.sk)} lacks its entity's scope (accountId, projectId, contentSetId)`);
  }
  return scope;
}

/* Reads */

/** Every page of a Query, items in order. */
async function queryAll(store: TableClient, input: ConstructorParameters<typeof QueryCommand>[0]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await store.documentClient.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The bucket items of an entity between two keys of one granularity (inclusive), by bucket key: one Query. */
export async function readBuckets(
  store: TableClient,
  entity: AggregateEntity,
  entityId: string,
  granularity: Granularity,
  fromKey: string,
  toKey: string,
  options: { consistent?: boolean } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const items = await queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': aggregatePk(entity, entityId), ':from': bucketSk(granularity, fromKey), ':to': bucketSk(granularity, toKey) },
    ConsistentRead: options.consistent,
  });
  return new Map(items.map((item) => [String(item.bucket), item]));
}

/** Every counter item of an entity (partition key `agg#...`): one strongly consistent Query. */
export function readEntityItems(store: TableClient, pk: string): Promise<Record<string, unknown>[]> {
  return queryAll(store, { TableName: store.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true });
}

/** The counter items of one rank partition with a positive count, highest first: one Query. */
export async function readRanked(store: TableClient, index: RankIndex, partition: string, size: number): Promise<Record<string, unknown>[]> {
  const page = await store.documentClient.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: index,
      KeyConditionExpression: '#pk = :pk AND #count > :zero',
      ExpressionAttributeNames: { '#pk': `${index}pk`, '#count': 'count' },
      ExpressionAttributeValues: { ':pk': partition, ':zero': 0 },
      ScanIndexForward: false,
      Limit: size,
    }),
  );
  return page.Items ?? [];
}

/** Partition keys of the entities with a bucket item in a bucket of a rolling window's unit (every shard, every page). */
export async function readRetiring(store: TableClient, unit: Granularity, key: string): Promise<string[]> {
  const shards = await Promise.all(
    retirePartitions(unit, key).map((partition) =>
      queryAll(store, {
        TableName: store.tableName,
        IndexName: 'retire',
        KeyConditionExpression: 'retirepk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
      }),
    ),
  );
  return shards.flat().map((item) => String(item.pk));
}
