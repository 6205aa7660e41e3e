/**
 * Rollover of the rolling windows (the `rolling` periods of shared/periods.ts: rolling7d,
 * rolling28d, rolling12m today; what follows names those, the code reads the catalogue).
 *
 * The stream consumer ADDs a response to an entity's `rolling#<period>` item while the
 * response's day (month) is inside the window ending at the consumer's clock, and never
 * takes it out again. So when a day leaves a window, the rolling item still counts that
 * day's responses. This job, scheduled daily at 00:05 UTC, recomputes the rolling items of
 * exactly the entities that had responses on a day (month) that just left a window:
 *
 * 1. Leaving buckets of a run on day T (shared/periods.ts leavingBucket): day T-7
 *    (rolling7d) and day T-28 (rolling28d); on the first day of a month M also month M-12
 *    (rolling12m). `{ days: n }` takes the
 *    leaving buckets of the runs of days T-n+1 .. T too (backfill after a missed schedule).
 * 2. Which entities had responses then: the `retire` index (KEYS_ONLY), partition
 *    `retire#<day|month>#<key>#<shard>` for every shard, every page. Its entries are the
 *    entities' day/month bucket items, so its sort key `sk` names the bucket and the table
 *    key `pk` names the entity (`agg#<contentSet|contentItem>#<id>`). Projects have no
 *    rolling items (they are not ranked; their getStats reads the day/month buckets).
 * 3. Per entity, an optimistic rewrite of its rolling items, retried on conflict:
 *    a. read the rolling items (BatchGetItem, strongly consistent), keeping `version`,
 *       which every consumer update ADDs 1 to (store/counters.ts counterUpdate);
 *    b. read the buckets of the windows ending today in ONE Query per window unit,
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
import { sumCounters, isZeroCounter, sameCounter } from '../domain/aggregation';
import { addBuckets, leavingBucket, ROLLING_PERIODS, rollingRule, windowKeys, type Granularity, type RollingPeriod } from '../../shared/periods';
import {
  conditionalPut,
  counterFromItem,
  counterItem,
  counterTargets,
  parseAggregatePk,
  readBuckets,
  readRetiring,
  rollingSk,
  scopeFromItem,
  type CounterTarget,
  type ResponseScope,
} from '../store/counters';
import { getRawItems } from '../store/batch';
import { conditionHolds } from '../store/conditions';
import type { TableClient } from '../store/dynamodb-clients';
import { inParallel } from './parallel';

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
  /** The window's unit (shared/periods.ts). */
  granularity: Granularity;
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

/** The buckets that left a window on the runs of the last `days` days ending with `now`'s. */
export function leavingBuckets(now: Date, days = 1): LeavingBucket[] {
  if (!Number.isInteger(days) || days < 1 || days > MAX_ROLLOVER_DAYS) {
    throw new RangeError(`days must be an integer from 1 to ${MAX_ROLLOVER_DAYS}, got ${days}`);
  }
  const leaving = new Map<string, LeavingBucket>();
  const add = (granularity: Granularity, key: string, period: RollingPeriod) => {
    const id = `${granularity}#${key}`;
    const entry = leaving.get(id) ?? { granularity, key, periods: [] };
    if (!entry.periods.includes(period)) entry.periods.push(period);
    leaving.set(id, entry);
  };
  for (let back = 0; back < days; back++) {
    const runDay = addBuckets('day', now, -back);
    for (const period of ROLLING_PERIODS) {
      const key = leavingBucket(period, runDay);
      if (key !== undefined) add(rollingRule(period).unit, key, period);
    }
  }
  return [...leaving.values()];
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
    for (const unit of new Set(periods.map((period) => rollingRule(period).unit))) {
      const longest = periods.filter((period) => rollingRule(period).unit === unit).sort((a, b) => rollingRule(b).length - rollingRule(a).length)[0];
      const keys = windowKeys(longest, now);
      buckets.set(unit, await readBuckets(store, entity, entityId, unit, keys[0], keys.at(-1)!, { consistent: true }));
    }
    let conflict = false;
    let written = 0;
    let unchanged = 0;
    for (const [index, period] of periods.entries()) {
      const existing = current[index];
      const periodBuckets = buckets.get(rollingRule(period).unit)!;
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
      if (!(await conditionHolds(store.documentClient.send(conditionalPut(store, counterItem(target, target.attributes, sum, existing, now), existing))))) {
        conflict = true;
        break;
      }
      written++;
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

/**
 * Recomputes the rolling items of every entity that had responses on a day (month) that
 * left a window on today's run (and, with `days`, on the runs of the days before).
 */
export async function rollOver(store: TableClient, now: Date, options: RolloverOptions = {}): Promise<RolloverResult> {
  const leaving = leavingBuckets(now, options.days ?? 1);
  const periodsByEntity = new Map<string, Set<RollingPeriod>>();
  for (const bucket of leaving) {
    for (const pk of await readRetiring(store, bucket.granularity, bucket.key)) {
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
