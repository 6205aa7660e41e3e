/**
 * Rankings as materialised top lists (pure part). A content set's top list holds, for each
 * ranked period (shared/periods.ts TOP_PERIODS), the response counts of the set itself and
 * of its items that can be in that period's top: the union over periods of the `keep`
 * highest. The ranker (functions/jobs/ranker.ts) recomputes the counts of what changed and
 * merges them here; `top` ranks one list (a set's items) or merges several (a project's or
 * an account's items and sets) at read time.
 *
 * Counts belong to the bucket each period had when they were computed (`buckets`). A list
 * read in a later calendar bucket (a new week) counts 0 for that period: any response of
 * the new bucket would have made its entity change, and the ranker would have recomputed
 * it. A rolling window slides every day without any change: the ranker recomputes every
 * member of a list whose rolling buckets are stale (`needsFullRecount`).
 */
import { bucketKey, PERIODS, TOP_PERIODS, type PeriodRule, type TopPeriod } from '../../shared/periods';

/** One count per ranked period, in TOP_PERIODS order. */
export type PeriodCounts = number[];

export interface TopList {
  /** The bucket of each ranked period the counts belong to, in TOP_PERIODS order. */
  buckets: string[];
  /** The set's own counts. */
  set: PeriodCounts;
  /** Counts per content item id. */
  items: Map<string, PeriodCounts>;
}

/** Entries kept per period: the largest `$size` (100) and a margin, so that a member whose
 * count falls (a removal, a window sliding) leaves room for the next without a full recount. */
export const TOP_LIST_DEPTH = 120;

/** The bucket lifetime counts carry: one that never passes (counts only grow, or fall by removals). */
export const LIFETIME_BUCKET = 'lifetime';

/** The bucket each ranked period has at `now`: the calendar bucket, or the day (month) a rolling window ends with. */
export function currentBuckets(now: Date): string[] {
  return TOP_PERIODS.map((period) => {
    const rule: PeriodRule = PERIODS[period];
    return rule.kind === 'lifetime' ? LIFETIME_BUCKET : `${rule.unit}#${bucketKey(rule.unit, now)}`;
  });
}

/**
 * Rolling windows and lifetime carry their counts from one bucket to the next (recounted
 * when stale); a calendar period starts again from 0.
 */
export const carriesOver = (period: TopPeriod) => PERIODS[period].kind !== 'calendar';

/** Whether a rolling window of the list ended on an earlier day (month) than `now`'s, or its lifetime counts are of an older layout, so its counts are stale. */
export function needsFullRecount(list: TopList | undefined, now: Date): boolean {
  if (!list || (list.items.size === 0 && list.set.every((count) => count === 0))) return false;
  const current = currentBuckets(now);
  return TOP_PERIODS.some((period, index) => carriesOver(period) && list.buckets[index] !== current[index]);
}

/** The counts of `counts` as of `now`: a period whose calendar bucket has passed counts 0. */
function countsAt(counts: PeriodCounts, buckets: string[], current: string[]): PeriodCounts {
  return TOP_PERIODS.map((period, index) => (!carriesOver(period) && buckets[index] !== current[index] ? 0 : (counts[index] ?? 0)));
}

const byCountThenId = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * The list after recounting: `recounted` replaces the counts of the set and of the items it
 * names (their counts at `now`); the others keep theirs (0 for a calendar bucket that has
 * passed). Items with no count left go, and so does any item that is not among the
 * `depth` highest of at least one period.
 */
export function mergeTopList(
  list: TopList | undefined,
  recounted: { set: PeriodCounts; items: Map<string, PeriodCounts> },
  now: Date,
  depth = TOP_LIST_DEPTH,
): TopList {
  const current = currentBuckets(now);
  const items = new Map<string, PeriodCounts>();
  for (const [id, counts] of list?.items ?? []) items.set(id, countsAt(counts, list!.buckets, current));
  for (const [id, counts] of recounted.items) items.set(id, counts);
  const kept = new Set<string>();
  TOP_PERIODS.forEach((_, index) => {
    const ranked = [...items]
      .map(([id, counts]): [string, number] => [id, counts[index] ?? 0])
      .filter(([, count]) => count > 0)
      .sort(byCountThenId);
    for (const [id] of ranked.slice(0, depth)) kept.add(id);
  });
  return {
    buckets: current,
    set: recounted.set,
    items: new Map([...items].filter(([id]) => kept.has(id))),
  };
}

/** Same buckets and counts (a list that did not change is not written again). */
export function sameTopList(a: TopList, b: TopList): boolean {
  const counts = (list: TopList) => JSON.stringify([list.buckets, list.set, [...list.items].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))]);
  return counts(a) === counts(b);
}

export interface RankedEntry {
  id: string;
  count: number;
  /** The set of a ranked item (its list's set). */
  contentSetId: string;
}

/** The `size` items with the most responses in `period` across lists (one list: a set's top), highest first, ties by id. */
export function rankItems(lists: { contentSetId: string; list: TopList }[], period: TopPeriod, now: Date, size: number): RankedEntry[] {
  const index = TOP_PERIODS.indexOf(period);
  const current = currentBuckets(now);
  const entries: RankedEntry[] = [];
  for (const { contentSetId, list } of lists) {
    for (const [id, counts] of list.items) {
      const count = countsAt(counts, list.buckets, current)[index];
      if (count > 0) entries.push({ id, count, contentSetId });
    }
  }
  return topOf(entries, size);
}

/** The `size` sets with the most responses in `period`, highest first, ties by id. */
export function rankSets(lists: { contentSetId: string; list: TopList }[], period: TopPeriod, now: Date, size: number): RankedEntry[] {
  const index = TOP_PERIODS.indexOf(period);
  const current = currentBuckets(now);
  const entries = lists
    .map(({ contentSetId, list }) => ({ id: contentSetId, contentSetId, count: countsAt(list.set, list.buckets, current)[index] }))
    .filter((entry) => entry.count > 0);
  return topOf(entries, size);
}

function topOf(entries: RankedEntry[], size: number): RankedEntry[] {
  return entries.sort((a, b) => byCountThenId([a.id, a.count], [b.id, b.count])).slice(0, size);
}
