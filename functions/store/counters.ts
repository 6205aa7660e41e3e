/**
 * The counter items: two per entity (project, content set, content item) and response, kept
 * by the stream consumer (stream/counting.ts), recomputed by the rebuild (jobs/rebuild.ts),
 * read by getStats and getAggregates (operations/stats.ts). Their keys, their attributes,
 * how they are read, added to, replaced and guarded against redelivery all live here; the
 * counter maths (sums, merges) is domain/aggregation.ts's.
 *
 * | Access pattern                                     | Index | Partition key           | Sort key          |
 * |----------------------------------------------------|-------|-------------------------|-------------------|
 * | Days of an entity (day: hours; week, month, 7d/28d)| table | agg#<entity>#<entityId> | d#YYYY-MM-DD      |
 * | Years of an entity (year, 12m: months; lifetime)   | table | agg#<entity>#<entityId> | y#YYYY            |
 *
 * Every period is ONE Query of one sort-key range: `day` reads one day item (its hours are
 * the points), `week`/`month`/`rolling7d`/`rolling28d` 7-31 day items, `year` one year item
 * (its months are the points), `rolling12m` two, `lifetime` every year item from y#0000.
 * No week, month, hour, lifetime or rolling items: a response costs two small updates per
 * entity, and reads (a fifth of a write's price) sum what they need. No index attribute:
 * counter writes pay for the table alone (rankings are kept apart from them).
 *
 * Attributes (short names: an item's size is what every update of it costs):
 *
 * | Attribute            | Type | Meaning                                                          |
 * |----------------------|------|------------------------------------------------------------------|
 * | n, o<i>              | N    | the item's total: responses, responses on option i               |
 * | ss, sc, is, ic, rs   | N    | its sums: sentiment sum/count, intensity sum/count, rating sum   |
 * | h<HH><field>         | N    | day items: the same fields for hour HH (e.g. h09n, h09o2, h09ss) |
 * | m<MM><field>         | N    | year items: the same fields for month MM (e.g. m11n, m11rs)      |
 * | w<hash>              | S    | watermark of a stream shard (see Watermarks below)               |
 * | c, u                 | S    | first and last write (ISO 8601)                                  |
 * | v                    | N    | writes of the item, for the rebuild's conditional Put            |
 *
 * Hours and months are sparse (only those with responses) and a field that is 0 is absent.
 * Project items keep no o<i> (a project's sets have different schemas). A day item of a set
 * of 5 reactions with responses in 10 hours is about 700 bytes; a year item about the same.
 *
 * Written with raw UpdateItem/PutItem rather than ElectroDB: the attribute names are a
 * dynamic set (options, hours, months, shards) an ElectroDB schema cannot declare, and the
 * consumer and jobs stay free of ElectroDB.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { addContribution, COUNTER_SUMS, emptyCounter, isZeroCounter, mergeCounters, type Counter, type CounterSum } from '../domain/aggregation';
import { bucketKey, type Granularity } from '../../shared/periods';
import type { Contribution } from '../domain/schemas';
import { queryAll } from './batch';
import type { TableClient } from './dynamodb-clients';

export const AGGREGATE_ENTITIES = ['project', 'contentSet', 'contentItem'] as const;
export type AggregateEntity = (typeof AGGREGATE_ENTITIES)[number];

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

export const daySk = (dayKey: string) => `d#${dayKey}`;
export const yearSk = (yearKey: string) => `y#${yearKey}`;

/**
 * Whether a sort key in an `agg#` partition is one of this layout's items. The layout before
 * (hour#, day#, week#, month#, year#, lifetime, rolling# items) is only read by the rebuild,
 * which deletes it.
 */
export function isCounterSk(sk: string): boolean {
  return /^[dy]#/.test(sk);
}

function entityIdOf(entity: AggregateEntity, scope: ResponseScope): string {
  return entity === 'project' ? scope.projectId : entity === 'contentSet' ? scope.contentSetId : scope.contentItemId;
}

/* Which items a response counts in */

/** One place a response is counted: an item and the part of it (`h<HH>` of a day item, `m<MM>` of a year item). */
export interface CounterSlot {
  entity: AggregateEntity;
  pk: string;
  sk: string;
  part: string;
}

/** The six slots of a response created at `createdAt`: its day (hour) and year (month), per entity. */
export function counterSlots(scope: ResponseScope, createdAt: Date): CounterSlot[] {
  const hour = bucketKey('hour', createdAt);
  const month = bucketKey('month', createdAt);
  return AGGREGATE_ENTITIES.flatMap((entity) => {
    const pk = aggregatePk(entity, entityIdOf(entity, scope));
    return [
      { entity, pk, sk: daySk(hour.slice(0, 10)), part: `h${hour.slice(11, 13)}` },
      { entity, pk, sk: yearSk(month.slice(0, 4)), part: `m${month.slice(5, 7)}` },
    ];
  });
}

/** The counters of one item: its total and its parts (hours of a day, months of a year) by part name. */
export interface ItemCounters {
  total: Counter;
  parts: Record<string, Counter>;
}

export const emptyItemCounters = (): ItemCounters => ({ total: emptyCounter(0), parts: {} });

export function mergeItemCounters(a: ItemCounters, b: ItemCounters): ItemCounters {
  const parts = { ...a.parts };
  for (const [part, counter] of Object.entries(b.parts)) parts[part] = parts[part] ? mergeCounters(parts[part], counter) : counter;
  return { total: mergeCounters(a.total, b.total), parts };
}

export const isZeroItemCounters = (counters: ItemCounters) => isZeroCounter(counters.total) && Object.values(counters.parts).every(isZeroCounter);

/** What one response write changes in the counters: the contribution it takes out and the one it adds. */
export interface ResponseChange {
  /** The stream record's id, or the response id in a rebuild. */
  eventId: string;
  /** The stream record's position in its shard ('' in a rebuild). */
  sequenceNumber: string;
  scope: ResponseScope;
  createdAt: Date;
  removed?: Contribution;
  added?: Contribution;
}

function changeDelta(change: ResponseChange): Counter {
  let delta = emptyCounter(0);
  if (change.removed) delta = addContribution(delta, change.removed, -1);
  if (change.added) delta = addContribution(delta, change.added, 1);
  return delta;
}

/** One change's share of one item. */
export interface SlotChange {
  sequenceNumber: string;
  counters: ItemCounters;
}

/** The changes of one counter item, in stream order. */
export interface ItemChanges {
  pk: string;
  sk: string;
  changes: SlotChange[];
}

/**
 * The changes grouped per counter item, in the order of the changes: what the consumer
 * writes one UpdateItem per item for. Project counters keep no per-option counts.
 */
export function changesPerItem(changes: ResponseChange[]): ItemChanges[] {
  const items = new Map<string, ItemChanges>();
  for (const change of changes) {
    const delta = changeDelta(change);
    for (const slot of counterSlots(change.scope, change.createdAt)) {
      const own = slot.entity === 'project' ? { ...delta, options: [] } : delta;
      const id = counterItemId(slot);
      const item = items.get(id) ?? { pk: slot.pk, sk: slot.sk, changes: [] };
      item.changes.push({ sequenceNumber: change.sequenceNumber, counters: { total: own, parts: { [slot.part]: own } } });
      items.set(id, item);
    }
  }
  return [...items.values()];
}

/** The sum of an item's changes: one ADD per field, however many responses. Accumulated in place (a batch holds thousands). */
export function sumChanges(changes: SlotChange[]): ItemCounters {
  const sum = emptyItemCounters();
  for (const { counters } of changes) {
    sum.total = mergeCounters(sum.total, counters.total);
    for (const [part, counter] of Object.entries(counters.parts)) sum.parts[part] = sum.parts[part] ? mergeCounters(sum.parts[part], counter) : counter;
  }
  return sum;
}

/** Identity of a counter item (its table key) for maps and sets. */
export function counterItemId(key: { pk?: unknown; sk?: unknown }): string {
  return `${String(key.pk)}\u0000${String(key.sk)}`;
}

/* Attributes */

const SUM_NAMES: Record<CounterSum, string> = { sentimentSum: 'ss', sentimentCount: 'sc', intensitySum: 'is', intensityCount: 'ic', ratingSum: 'rs' };
const SUM_OF_NAME = Object.fromEntries(Object.entries(SUM_NAMES).map(([sum, name]) => [name, sum as CounterSum]));
const FIELD = /^([hm]\d\d)?(n|o\d+|ss|sc|is|ic|rs)$/;

/**
 * A sum as DynamoDB should store it. DynamoDB adds decimals exactly; sums made here in
 * binary floating point pick up noise (0.7 + 0.8 + ...). Fifteen significant digits keep
 * every real value (contributions have a few decimals) and drop the noise.
 */
function tidy(value: number): number {
  return Number(value.toPrecision(15)) || 0;
}

/** The non-zero fields of a counter under a part prefix ('' for the item's total). */
function counterFields(prefix: string, counter: Counter, fields: Record<string, number>): void {
  if (tidy(counter.count) !== 0) fields[`${prefix}n`] = tidy(counter.count);
  counter.options.forEach((value, index) => {
    if (tidy(value) !== 0) fields[`${prefix}o${index}`] = tidy(value);
  });
  for (const sum of COUNTER_SUMS) if (tidy(counter[sum]) !== 0) fields[`${prefix}${SUM_NAMES[sum]}`] = tidy(counter[sum]);
}

/** Every non-zero counter attribute of an item's counters. */
export function counterAttributes(counters: ItemCounters): Record<string, number> {
  const fields: Record<string, number> = {};
  counterFields('', counters.total, fields);
  for (const part of Object.keys(counters.parts).sort()) counterFields(part, counters.parts[part], fields);
  return fields;
}

/** The counters an item holds (absent fields read as 0); `optionCount` pads the options. */
export function itemCountersOf(item: Record<string, unknown> | undefined, optionCount = 0): ItemCounters {
  const counters: ItemCounters = { total: emptyCounter(optionCount), parts: {} };
  for (const [name, value] of Object.entries(item ?? {})) {
    const match = FIELD.exec(name);
    if (!match) continue;
    if (match[1] && !counters.parts[match[1]]) counters.parts[match[1]] = emptyCounter(optionCount);
    const counter = match[1] ? counters.parts[match[1]] : counters.total;
    const field = match[2];
    if (field === 'n') counter.count = Number(value);
    else if (field.startsWith('o')) {
      const index = Number(field.slice(1));
      while (counter.options.length <= index) counter.options.push(0);
      counter.options[index] = Number(value);
    } else counter[SUM_OF_NAME[field]] = Number(value);
  }
  return counters;
}

/* Watermarks: exactly once without markers */

/**
 * Stream records of a shard arrive in order, and Lambda finishes a parent shard before its
 * children, so an item can remember, per shard, the last record applied to it and refuse
 * any record at or before it. The watermark attribute is `w` + 8 hex digits of the shard
 * id's hash; its value the sequence number with its length in front (`<2 digits><digits>`,
 * so strings compare like the numbers), then `.` and when it was written (seconds, base 36).
 * `w < :first` in a condition compares the sequence part: a value with the same number and
 * a suffix is greater, so the record it names is refused.
 */
export function watermarkName(shardId: string): string {
  return `w${createHash('sha256').update(shardId).digest('hex').slice(0, 8)}`;
}

/** A sequence number as a string that sorts like the number. */
export function sequenceKey(sequenceNumber: string): string {
  const digits = sequenceNumber.replace(/^0+(?=\d)/, '');
  if (!/^\d{1,99}$/.test(digits)) throw new Error(`not a stream sequence number: ${sequenceNumber}`);
  return `${String(digits.length).padStart(2, '0')}${digits}`;
}

export function watermarkValue(sequenceNumber: string, now: Date): string {
  return `${sequenceKey(sequenceNumber)}.${Math.floor(now.getTime() / 1000).toString(36)}`;
}

/** Whether an item with `watermark` (absent: nothing applied from that shard) takes the record at `sequenceNumber`: the update condition, evaluated here. */
export function watermarkAdmits(watermark: string | undefined, sequenceNumber: string): boolean {
  return watermark === undefined || watermark < sequenceKey(sequenceNumber);
}

/** The changes a watermark has not seen yet (it admits them), in order. */
export function changesAfter(watermark: string | undefined, changes: SlotChange[]): SlotChange[] {
  return changes.filter((change) => watermarkAdmits(watermark, change.sequenceNumber));
}

/** Stream records are kept 24 h; a watermark written 25 h ago covers only records that cannot come again. */
export const WATERMARK_LIFETIME_MS = 25 * 3600 * 1000;
/** An item keeps up to this many watermarks before stale ones are pruned (a prune is one more write). */
export const WATERMARKS_KEPT = 4;

const isWatermark = (name: string) => /^w[0-9a-f]{8}$/.test(name);

/**
 * The watermarks to remove from an item: when it carries more than WATERMARKS_KEPT, those
 * written more than WATERMARK_LIFETIME_MS before `now` (none of their records can be
 * delivered again). Younger ones stay, however many there are.
 */
export function staleWatermarks(item: Record<string, unknown>, now: Date): Record<string, string> {
  const watermarks = Object.entries(item).filter(([name, value]) => isWatermark(name) && typeof value === 'string') as [string, string][];
  if (watermarks.length <= WATERMARKS_KEPT) return {};
  const stale = watermarks.filter(([, value]) => {
    const written = Number.parseInt(value.slice(value.indexOf('.') + 1), 36) * 1000;
    return Number.isFinite(written) && now.getTime() - written > WATERMARK_LIFETIME_MS;
  });
  return Object.fromEntries(stale);
}

/* Writes */

/** How an update is guarded: the first sequence number it applies, or the exact watermark read before. */
export type WatermarkGuard = { before: string } | { seen: string | undefined };

/**
 * One UpdateItem: ADDs the counters to the item and moves the shard's watermark to
 * `lastSequence`, on the condition that the watermark has not seen the changes yet.
 */
export function counterUpdate(
  tableName: string,
  key: { pk: string; sk: string },
  counters: ItemCounters,
  watermark: { name: string; lastSequence: string; guard: WatermarkGuard },
  now: Date,
) {
  const names: Record<string, string> = { '#w': watermark.name, '#u': 'u', '#c': 'c', '#v': 'v' };
  const values: Record<string, unknown> = { ':w': watermarkValue(watermark.lastSequence, now), ':now': now.toISOString(), ':one': 1 };
  const additions = ['#v :one'];
  for (const [name, value] of Object.entries(counterAttributes(counters))) {
    names[`#${name}`] = name;
    values[`:${name}`] = value;
    additions.push(`#${name} :${name}`);
  }
  let condition: string;
  if ('before' in watermark.guard) {
    condition = 'attribute_not_exists(#w) OR #w < :first';
    values[':first'] = sequenceKey(watermark.guard.before);
  } else if (watermark.guard.seen === undefined) {
    condition = 'attribute_not_exists(#w)';
  } else {
    condition = '#w = :seen';
    values[':seen'] = watermark.guard.seen;
  }
  return new UpdateCommand({
    TableName: tableName,
    Key: { pk: key.pk, sk: key.sk },
    UpdateExpression: `ADD ${additions.join(', ')} SET #w = :w, #u = :now, #c = if_not_exists(#c, :now)`,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_NEW',
  });
}

/** Removes watermarks that are still what was read (a newer write of the same shard keeps its own). */
export function watermarkPrune(tableName: string, key: { pk: string; sk: string }, stale: Record<string, string>) {
  const names: Record<string, string> = {};
  const values: Record<string, string> = {};
  const conditions: string[] = [];
  Object.entries(stale).forEach(([name, value], index) => {
    names[`#w${index}`] = name;
    values[`:w${index}`] = value;
    conditions.push(`#w${index} = :w${index}`);
  });
  return new UpdateCommand({
    TableName: tableName,
    Key: { pk: key.pk, sk: key.sk },
    UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

/**
 * A whole counter item, for the rebuild: the counters, and from `existing` its watermarks
 * (a record counted before must stay refused) and `c`; `v` + 1.
 */
export function counterItem(
  key: { pk: string; sk: string },
  counters: ItemCounters,
  existing: Record<string, unknown> | undefined,
  now: Date,
): Record<string, unknown> {
  const watermarks = Object.fromEntries(Object.entries(existing ?? {}).filter(([name]) => isWatermark(name)));
  return {
    pk: key.pk,
    sk: key.sk,
    ...counterAttributes(counters),
    ...watermarks,
    c: typeof existing?.c === 'string' ? existing.c : now.toISOString(),
    u: now.toISOString(),
    v: Number(existing?.v ?? 0) + 1,
  };
}

/** A Put of a whole counter item that succeeds only if the item is still what was read: the same `v`, or still absent. */
export function conditionalPut(store: TableClient, item: Record<string, unknown>, existing: Record<string, unknown> | undefined) {
  if (!existing) return new PutCommand({ TableName: store.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' });
  return new PutCommand({
    TableName: store.tableName,
    Item: item,
    ConditionExpression: '#v = :seen',
    ExpressionAttributeNames: { '#v': 'v' },
    ExpressionAttributeValues: { ':seen': existing.v ?? null },
  });
}

/* Reads */

/** The items holding points of `granularity` between two point keys (inclusive): one sort-key range. */
export function pointItemRange(granularity: Granularity, fromKey: string, toKey: string): { from: string; to: string } {
  switch (granularity) {
    case 'hour':
    case 'day':
      return { from: daySk(fromKey.slice(0, 10)), to: daySk(toKey.slice(0, 10)) };
    case 'month':
    case 'year':
      return { from: yearSk(fromKey.slice(0, 4)), to: yearSk(toKey.slice(0, 4)) };
    case 'week':
      throw new Error('no period has week points');
  }
}

/**
 * A data point as the read side (operations/stats.ts) sees it: the counter's fields by their
 * full names (count, o<i>, sentimentSum, ...) and the dates of the item that holds it.
 */
export type PointRecord = Record<string, unknown>;

function pointRecord(counter: Counter, item: Record<string, unknown>): PointRecord {
  const record: PointRecord = { count: counter.count, createdAt: item.c, updatedAt: item.u };
  counter.options.forEach((value, index) => {
    if (value !== 0) record[`o${index}`] = value;
  });
  for (const sum of COUNTER_SUMS) if (counter[sum] !== 0) record[sum] = counter[sum];
  return record;
}

/** The data points of `granularity` the items hold, by point key (hour 'YYYY-MM-DDTHH', day, month 'YYYY-MM', year). */
export function pointRecords(items: Record<string, unknown>[], granularity: Granularity): Map<string, PointRecord> {
  const points = new Map<string, PointRecord>();
  for (const item of items) {
    const key = String(item.sk).slice(2);
    const counters = itemCountersOf(item);
    if (granularity === 'day' || granularity === 'year') {
      points.set(key, pointRecord(counters.total, item));
      continue;
    }
    for (const [part, counter] of Object.entries(counters.parts)) {
      points.set(granularity === 'hour' ? `${key}T${part.slice(1)}` : `${key}-${part.slice(1)}`, pointRecord(counter, item));
    }
  }
  return points;
}

/** The counter of a data point (absent: zeros); `optionCount` pads the options. */
export function counterFromPoint(point: PointRecord | undefined, optionCount: number): Counter {
  const counter = emptyCounter(optionCount);
  if (!point) return counter;
  counter.count = Number(point.count ?? 0);
  for (const field of COUNTER_SUMS) counter[field] = Number(point[field] ?? 0);
  for (const [name, value] of Object.entries(point)) {
    const option = /^o(\d+)$/.exec(name);
    if (option) {
      const index = Number(option[1]);
      while (counter.options.length <= index) counter.options.push(0);
      counter.options[index] = Number(value);
    }
  }
  return counter;
}

/** The counter items of an entity between two sort keys (inclusive): one Query. */
export function readCounterItems(
  store: TableClient,
  entity: AggregateEntity,
  entityId: string,
  range: { from: string; to: string },
  options: { consistent?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  return queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': aggregatePk(entity, entityId), ':from': range.from, ':to': range.to },
    ConsistentRead: options.consistent,
  });
}

/**
 * How many writes counter items have had together (their `v`): every counted change adds
 * one to a day item and one to a year item, and nothing lowers it, so of two reads of the
 * same items the later one has at least as many, and as many only if nothing changed
 * between them. The ranker stamps the set counts it writes with it (store/top-lists.ts).
 */
export function counterWrites(items: Record<string, unknown>[]): number {
  return items.reduce((sum, item) => sum + Number(item.v ?? 0), 0);
}

/** Every item of an entity's partition (`agg#...`), this layout's and the one before: one strongly consistent Query. */
export function readEntityItems(store: TableClient, pk: string): Promise<Record<string, unknown>[]> {
  return queryAll(store, { TableName: store.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true });
}
