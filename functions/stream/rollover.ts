/**
 * Rollover of the rolling windows (rolling7d, rolling28d, rolling12m).
 *
 * The stream consumer ADDs a response to an entity's `rolling#<period>` item while the
 * response's day (month) is inside the window ending at the consumer's clock, and never
 * takes it out again. So when a day leaves a window, the rolling item still counts that
 * day's responses. This job, scheduled daily at 00:05 UTC, recomputes the rolling items of
 * exactly the entities that had responses on a day (month) that just left a window:
 *
 * 1. Leaving buckets of a run on day T: day T-7 (rolling7d) and day T-28 (rolling28d);
 *    on the first day of a month M also month M-12 (rolling12m). `{ days: n }` takes the
 *    leaving buckets of the runs of days T-n+1 .. T too (backfill after a missed schedule).
 * 2. Which entities had responses then: the `retire` index (KEYS_ONLY), partition
 *    `retire#<day|month>#<key>#<shard>` for every shard, every page. Its entries are the
 *    entities' day/month bucket items, so its sort key `sk` names the bucket and the table
 *    key `pk` names the entity (`agg#<contentSet|contentItem>#<id>`). Projects have no
 *    rolling items (they are not ranked; their getStats reads the day/month buckets).
 * 3. Per entity, an optimistic rewrite of its rolling items, retried on conflict:
 *    a. read the rolling items (BatchGetItem, strongly consistent), keeping `version`,
 *       which every consumer update ADDs 1 to (store/aggregates.ts counterUpdate);
 *    b. read the buckets of the windows ending today in ONE Query per granularity,
 *       strongly consistent (the 28 day buckets serve rolling7d and rolling28d alike; the
 *       12 month buckets rolling12m);
 *    c. Put each rolling item whose counters differ from the bucket sum, on the condition
 *       `version = <read version>` (`attribute_not_exists(pk)` for a new item). The
 *       consumer writes a bucket and the rolling item in one transaction, so any update
 *       after (a) bumps the version and fails the condition: the entity is read again and
 *       recomputed, and no concurrent delta is lost (a consumer update before (a) is in
 *       both the version read and the buckets read after it).
 *    The item keeps its rank keys and static attributes (rebuilt with counterTargets from
 *    the entity's scope), its createdAt, and gets version + 1. An empty window is written
 *    as zeros (the item stays; top queries skip counts of 0, getStats reads buckets).
 *
 * Idempotent: the result depends only on the buckets and `now`; an item that already
 * equals its bucket sum is not written at all, so a second run writes nothing.
 *
 * Why 00:05: a consumer batch takes its clock when its invocation starts, and a batch
 * started just before midnight can still add a response of the leaving day to the window
 * after midnight. Batches are short (the consumer's timeout is 60 s); five minutes lets
 * them finish before the rollover recomputes.
 *
 * Cost per daily run, with E7 / E28 entities (sets + items) that had responses on the two
 * leaving days (plus E12 that had responses in the leaving month, on the 1st):
 * - 8 Queries per leaving bucket on the retire index (+1 per 1 MB page of keys);
 * - per entity: 1 BatchGetItem (1-2 small items) + 1 Query (7 or 28 day buckets,
 *   ~3 RCU strongly consistent; 12 month buckets for rolling12m) + 1 PutItem per window
 *   that changed (1 WCU, plus 2 index writes per rank index as `count` moves: 7 WCU for a
 *   content item, 5 for a set).
 * That is O(E7 + E28 (+ E12)): entities active on the leaving day, not every entity, one
 * Query + one write each (besides the small read of the version). It does not depend on
 * the number of responses.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { emptyCounter, sumCounters, type Counter } from '../domain/aggregation';
import { addBuckets, bucketKey, type Granularity } from '../domain/periods';
import {
  counterFromItem,
  counterTargets,
  readBuckets,
  RETIRE_SHARDS,
  ROLLING_WINDOWS,
  rollingSk,
  type AggregateEntity,
  type CounterTarget,
  type ResponseScope,
  type RollingPeriod,
} from '../store/aggregates';
import { getRawItems } from '../store/batch';
import { isConditionFailure } from '../store/conditions';
import type { TableClient } from '../store/dynamo';

/* Counter items as whole items: shared with the rebuild (stream/rebuild.ts). */

const SUM_FIELDS = ['sentimentSum', 'sentimentCount', 'intensitySum', 'intensityCount', 'ratingSum'] as const;

/** Attributes that hold counters (as written by counterUpdate): everything else on a counter item is static. */
export function isCounterAttribute(name: string): boolean {
  return name === 'count' || /^o\d+$/.test(name) || (SUM_FIELDS as readonly string[]).includes(name);
}

/**
 * A sum as DynamoDB should store it. DynamoDB adds decimals exactly; sums made here in
 * binary floating point pick up noise (0.7 + 0.8 + ...). Fifteen significant digits keep
 * every real value (contributions have a few decimals) and drop the noise.
 */
function tidy(value: number): number {
  return Number(value.toPrecision(15)) || 0;
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Same counts and sums (a missing option counts as 0). */
export function sameCounter(a: Counter, b: Counter): boolean {
  const length = Math.max(a.options.length, b.options.length);
  for (let index = 0; index < length; index++) if (!close(a.options[index] ?? 0, b.options[index] ?? 0)) return false;
  return close(a.count, b.count) && SUM_FIELDS.every((field) => close(a[field], b[field]));
}

export function isZeroCounter(counter: Counter): boolean {
  return sameCounter(counter, emptyCounter(0));
}

/** The counter attributes of an item: `count` always, options and sums when not 0 (absent reads as 0). */
export function counterAttributes(counter: Counter): Record<string, number> {
  const attributes: Record<string, number> = { count: tidy(counter.count) };
  counter.options.forEach((value, index) => {
    if (tidy(value) !== 0) attributes[`o${index}`] = tidy(value);
  });
  for (const field of SUM_FIELDS) if (tidy(counter[field]) !== 0) attributes[field] = tidy(counter[field]);
  return attributes;
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

/** The entity and id of an aggregate partition key `agg#<entity>#<id>`. */
export function parseAggregatePk(pk: string): { entity: AggregateEntity; entityId: string } | undefined {
  const match = /^agg#(project|contentSet|contentItem)#(.+)$/.exec(pk);
  return match ? { entity: match[1] as AggregateEntity, entityId: match[2] } : undefined;
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

/** The rolling item of an entity as the consumer writes it (keys and static attributes). */
function rollingTarget(pk: string, scope: ResponseScope, period: RollingPeriod, now: Date): CounterTarget {
  const target = counterTargets(scope, now, now).find((candidate) => candidate.pk === pk && candidate.sk === rollingSk(period));
  if (!target) throw new Error(`no ${period} item for ${pk}`);
  return target;
}

/* The rollover */

export interface RolloverOptions {
  /** Process the leaving buckets of the last `days` daily runs, today's included (default 1). */
  days?: number;
  /** Entities recomputed in parallel (default 16). */
  concurrency?: number;
}

export interface LeavingBucket {
  granularity: 'day' | 'month';
  key: string;
  /** The windows it leaves. */
  periods: RollingPeriod[];
}

export interface RolloverResult {
  now: string;
  leaving: LeavingBucket[];
  /** Entities listed by the retire index for the leaving buckets, each recomputed once. */
  entities: number;
  /** Rolling items rewritten, and found already exact. */
  written: number;
  unchanged: number;
  /** Rewrites refused because a consumer update came in between (then read and done again). */
  retries: number;
}

/** Backfill beyond this is a rebuild's work (npm run aggregates:rebuild). */
export const MAX_ROLLOVER_DAYS = 400;
const MAX_ATTEMPTS = 8;
const ROLLING_PERIODS = Object.keys(ROLLING_WINDOWS) as RollingPeriod[];

/** The buckets that left a window on the runs of the last `days` days ending with `now`'s. */
export function leavingBuckets(now: Date, days = 1): LeavingBucket[] {
  if (!Number.isInteger(days) || days < 1 || days > MAX_ROLLOVER_DAYS) {
    throw new RangeError(`days must be an integer from 1 to ${MAX_ROLLOVER_DAYS}, got ${days}`);
  }
  const leaving = new Map<string, LeavingBucket>();
  const add = (granularity: 'day' | 'month', key: string, period: RollingPeriod) => {
    const id = `${granularity}#${key}`;
    const entry = leaving.get(id) ?? { granularity, key, periods: [] };
    if (!entry.periods.includes(period)) entry.periods.push(period);
    leaving.set(id, entry);
  };
  for (let back = 0; back < days; back++) {
    const runDay = addBuckets('day', now, -back);
    for (const period of ROLLING_PERIODS) {
      const { granularity, length } = ROLLING_WINDOWS[period];
      if (granularity === 'day') add('day', bucketKey('day', addBuckets('day', runDay, -length)), period);
      else if (runDay.getUTCDate() === 1) add('month', bucketKey('month', addBuckets('month', runDay, -length)), period);
    }
  }
  return [...leaving.values()];
}

/** Partition keys of the entities with a bucket item in `bucket` (every shard, in parallel; every page). */
async function retiringEntities(store: TableClient, bucket: LeavingBucket): Promise<string[]> {
  const shards = await Promise.all(
    Array.from({ length: RETIRE_SHARDS }, async (_, shard) => {
      // Same partition as store/aggregates.ts retirePartition, for every shard.
      const partition = `retire#${bucket.granularity}#${bucket.key}#${shard}`;
      const entities: string[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await store.documentClient.send(
          new QueryCommand({
            TableName: store.tableName,
            IndexName: 'retire',
            KeyConditionExpression: 'retirepk = :pk',
            ExpressionAttributeValues: { ':pk': partition },
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) entities.push(String(item.pk));
        start = page.LastEvaluatedKey;
      } while (start);
      return entities;
    }),
  );
  return shards.flat();
}

/** Keys of the buckets of a window ending with `now`'s bucket, oldest first. */
function windowKeys(period: RollingPeriod, now: Date): string[] {
  const { granularity, length } = ROLLING_WINDOWS[period];
  return Array.from({ length }, (_, index) => bucketKey(granularity, addBuckets(granularity, now, index - (length - 1))));
}

interface EntityOutcome {
  written: number;
  unchanged: number;
  retries: number;
}

/**
 * Sets an entity's rolling items for `periods` to the sums of their window's buckets
 * ending at `now` (see the header: read versions, read buckets, conditional Put, retry).
 */
export async function recomputeRolling(store: TableClient, pk: string, periods: RollingPeriod[], now: Date): Promise<EntityOutcome> {
  const parsed = parseAggregatePk(pk);
  if (!parsed || parsed.entity === 'project') throw new Error(`not an entity with rolling windows: ${pk}`);
  const { entity, entityId } = parsed;
  const outcome: EntityOutcome = { written: 0, unchanged: 0, retries: 0 };
  for (let attempt = 1; ; attempt++) {
    const current = await getRawItems(
      store,
      periods.map((period) => ({ pk, sk: rollingSk(period) })),
    );
    // One Query per granularity, covering the longest window of it.
    const buckets = new Map<Granularity, Map<string, Record<string, unknown>>>();
    for (const granularity of ['day', 'month'] as const) {
      const longest = periods.filter((period) => ROLLING_WINDOWS[period].granularity === granularity).sort((a, b) => ROLLING_WINDOWS[b].length - ROLLING_WINDOWS[a].length)[0];
      if (!longest) continue;
      const keys = windowKeys(longest, now);
      buckets.set(granularity, await readBuckets(store, entity, entityId, granularity, keys[0], keys.at(-1)!, { consistent: true }));
    }
    let conflict = false;
    let written = 0;
    let unchanged = 0;
    for (const [index, period] of periods.entries()) {
      const existing = current[index];
      const periodBuckets = buckets.get(ROLLING_WINDOWS[period].granularity)!;
      const sum = sumCounters(
        windowKeys(period, now).map((key) => counterFromItem(periodBuckets.get(key), 0)),
        0,
      );
      if (existing ? sameCounter(counterFromItem(existing, 0), sum) : isZeroCounter(sum)) {
        unchanged++;
        continue;
      }
      const source = existing ?? [...periodBuckets.values()][0];
      const target = rollingTarget(pk, scopeFromItem(entity, entityId, source), period, now);
      try {
        await store.documentClient.send(conditionalPut(store, counterItem(target, target.attributes, sum, existing, now), existing));
        written++;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        conflict = true;
        break;
      }
    }
    outcome.written += written;
    if (!conflict) {
      outcome.unchanged += unchanged;
      return outcome;
    }
    outcome.retries++;
    if (attempt >= MAX_ATTEMPTS) throw new Error(`the rolling items of ${pk} kept changing during ${MAX_ATTEMPTS} attempts`);
    await new Promise((wait) => setTimeout(wait, Math.random() * 20 * attempt));
  }
}

/** Runs `work` on every item, at most `concurrency` at a time. */
export async function inParallel<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

/**
 * Recomputes the rolling items of every entity that had responses on a day (month) that
 * left a window on today's run (and, with `days`, on the runs of the days before).
 */
export async function rollOver(store: TableClient, now: Date, options: RolloverOptions = {}): Promise<RolloverResult> {
  const leaving = leavingBuckets(now, options.days ?? 1);
  const periodsByEntity = new Map<string, Set<RollingPeriod>>();
  for (const bucket of leaving) {
    for (const pk of await retiringEntities(store, bucket)) {
      const parsed = parseAggregatePk(pk);
      if (!parsed || parsed.entity === 'project') continue;
      const periods = periodsByEntity.get(pk) ?? new Set<RollingPeriod>();
      for (const period of bucket.periods) periods.add(period);
      periodsByEntity.set(pk, periods);
    }
  }
  const result: RolloverResult = { now: now.toISOString(), leaving, entities: periodsByEntity.size, written: 0, unchanged: 0, retries: 0 };
  await inParallel([...periodsByEntity], options.concurrency ?? 16, async ([pk, periods]) => {
    const outcome = await recomputeRolling(
      store,
      pk,
      ROLLING_PERIODS.filter((period) => periods.has(period)),
      now,
    );
    result.written += outcome.written;
    result.unchanged += outcome.unchanged;
    result.retries += outcome.retries;
  });
  return result;
}
