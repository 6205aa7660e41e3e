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
 *
 * Rankings by quality (`best`, `worst`) read the same list: for a set whose schema has a
 * score, each entity carries per period the bounds of its score's 95% interval, and the list
 * also keeps, per period and direction, every item that fewer than `depth` others with at
 * least its count rank above. Such an item is in the top `depth` for any `$minCount` up to its
 * count, and an item in that top for some `$minCount` is in it for its own count, so the list
 * ranks like a recount of everything for every `$minCount` >= 1 and `$size` <= `depth`.
 */
import { bucketKey, PERIODS, TOP_PERIODS, type PeriodRule, type TopPeriod } from '../../shared/periods';

/** One count per ranked period, in TOP_PERIODS order. */
export type PeriodCounts = number[];

/** The bounds of a period's score interval (statistics.ts scoreInterval), as ranked. */
export interface ScoreBounds {
  low: number;
  high: number;
}

/** One score per ranked period, in TOP_PERIODS order; null where the period counted nothing. */
export type PeriodScores = (ScoreBounds | null)[];

/** The orders by quality: `best` by the interval's low end descending, `worst` by its high end ascending. */
export type QualityOrder = 'best' | 'worst';
export const QUALITY_ORDERS: readonly QualityOrder[] = ['best', 'worst'];

export interface TopList {
  /** The bucket of each ranked period the counts belong to, in TOP_PERIODS order. */
  buckets: string[];
  /** The set's own counts. */
  set: PeriodCounts;
  /**
   * The writes its counter items had had when the set's counts were read (store/counters.ts
   * `counterWrites`): of two recounts, the one with more read the later counts, whichever
   * run wrote last. Absent in a list written before it was kept.
   */
  setVersion?: number;
  /** Counts per content item id. */
  items: Map<string, PeriodCounts>;
  /** The set's schema; absent in a list written before rankings by quality. */
  schema?: string;
  /** The set's own scores, for a schema with a score. */
  setScores?: PeriodScores;
  /** Scores per content item id (the same ids as `items`), for a schema with a score. */
  scores?: Map<string, PeriodScores>;
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

/** The scores of `scores` as of `now`: none in a period whose calendar bucket has passed. */
function scoresAt(scores: PeriodScores, buckets: string[], current: string[]): PeriodScores {
  return TOP_PERIODS.map((period, index) => (!carriesOver(period) && buckets[index] !== current[index] ? null : (scores[index] ?? null)));
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** An entity as ranked by quality in one period. */
export interface ScoredEntry {
  id: string;
  count: number;
  score: ScoreBounds;
}

/**
 * The precision rankings by quality compare scores at (docs/api.md, "Rankings by quality"):
 * the ends of the interval to 4 decimal places (a share to a hundredth of a percentage point),
 * ends that agree to it tie. The top lists store them to this precision and no further, so
 * a list ranks exactly as a recount would; finer digits would only order entities whose
 * intervals are the same to the eye, and would make every list part heavier to write.
 */
export const RANKED_SCORE_DECIMALS = 4;
const RANKED_SCALE = 10 ** RANKED_SCORE_DECIMALS;

/** `value` to RANKED_SCORE_DECIMALS places: rounding an already rounded value changes nothing. */
export function rankedBound(value: number): number {
  return Math.round(value * RANKED_SCALE) / RANKED_SCALE;
}

/** Scores as ranked and kept: each bound to RANKED_SCORE_DECIMALS places (a recount that changed nothing ranked is the list it was). */
function rankedScores(scores: PeriodScores): PeriodScores {
  return scores.map((score) => score && { low: rankedBound(score.low), high: rankedBound(score.high) });
}

/** The order of `direction`: best by `low` descending, worst by `high` ascending (to RANKED_SCORE_DECIMALS places); ties by count (more first), then id. */
export function qualityOrder(direction: QualityOrder): (a: ScoredEntry, b: ScoredEntry) => number {
  return direction === 'best'
    ? (a, b) => rankedBound(b.score.low) - rankedBound(a.score.low) || b.count - a.count || byId(a.id, b.id)
    : (a, b) => rankedBound(a.score.high) - rankedBound(b.score.high) || b.count - a.count || byId(a.id, b.id);
}

/**
 * The entries that fewer than `depth` others with at least their count rank above in
 * `direction`: those in the top `depth` for some `$minCount`. One pass in rank order, counting
 * the entries seen so far per count with a Fenwick tree over the distinct counts (descending),
 * so that "seen with at least my count" is a prefix sum: n log n, not n squared, for a set's
 * thousands of items at a recount. Hand-written: a dozen lines, no dependency fits better.
 */
export function qualityCandidates(entries: ScoredEntry[], direction: QualityOrder, depth: number): Set<string> {
  const counts = [...new Set(entries.map((entry) => entry.count))].sort((a, b) => b - a);
  const position = new Map(counts.map((count, index) => [count, index + 1]));
  const tree = new Array<number>(counts.length + 1).fill(0);
  const kept = new Set<string>();
  for (const entry of [...entries].sort(qualityOrder(direction))) {
    const at = position.get(entry.count)!;
    let above = 0;
    for (let index = at; index > 0; index -= index & -index) above += tree[index];
    if (above < depth) kept.add(entry.id);
    for (let index = at; index < tree.length; index += index & -index) tree[index]++;
  }
  return kept;
}

/** The entries of one period with a count and a score. */
function scoredEntries(items: Map<string, PeriodCounts>, scores: Map<string, PeriodScores>, index: number): ScoredEntry[] {
  const entries: ScoredEntry[] = [];
  for (const [id, counts] of items) {
    const score = scores.get(id)?.[index];
    if ((counts[index] ?? 0) > 0 && score) entries.push({ id, count: counts[index], score });
  }
  return entries;
}

const byCountThenId = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * The list after recounting: `recounted` replaces the counts of the set and of the items it
 * names (their counts at `now`); the others keep theirs (0 for a calendar bucket that has
 * passed). Items with no count left go, and so does any item that is not among the
 * `depth` highest of at least one period. Given only some parts of a list (the ranker's
 * run on members only), it drops only items with no count left: keeping more members than
 * the depth changes no rank, and the next whole merge trims them.
 */
export function mergeTopList(list: TopList | undefined, recounted: Omit<TopList, 'buckets'>, now: Date, depth = TOP_LIST_DEPTH): TopList {
  const current = currentBuckets(now);
  const items = new Map<string, PeriodCounts>();
  for (const [id, counts] of list?.items ?? []) items.set(id, countsAt(counts, list!.buckets, current));
  for (const [id, counts] of recounted.items) items.set(id, counts);
  // Scores are kept when the recount has them (a schema with a score); a member without any is recounted (its list is of an older layout).
  const scores = recounted.scores && new Map<string, PeriodScores>();
  if (scores) {
    for (const [id, periodScores] of list?.scores ?? []) scores.set(id, scoresAt(periodScores, list!.buckets, current));
    for (const [id, periodScores] of recounted.scores!) scores.set(id, rankedScores(periodScores));
  }
  const kept = new Set<string>();
  TOP_PERIODS.forEach((_, index) => {
    const ranked = [...items]
      .map(([id, counts]): [string, number] => [id, counts[index] ?? 0])
      .filter(([, count]) => count > 0)
      .sort(byCountThenId);
    for (const [id] of ranked.slice(0, depth)) kept.add(id);
    if (!scores) return;
    const entries = scoredEntries(items, scores, index);
    for (const direction of QUALITY_ORDERS) for (const id of qualityCandidates(entries, direction, depth)) kept.add(id);
  });
  return {
    buckets: current,
    set: recounted.set,
    ...(recounted.setVersion === undefined ? {} : { setVersion: recounted.setVersion }),
    items: new Map([...items].filter(([id]) => kept.has(id))),
    ...(recounted.schema === undefined ? {} : { schema: recounted.schema }),
    ...(scores
      ? { setScores: rankedScores(recounted.setScores ?? TOP_PERIODS.map(() => null)), scores: new Map([...scores].filter(([id]) => kept.has(id))) }
      : {}),
  };
}

/** Same buckets and counts (a list that did not change is not written again), whatever the versions of the set's counts. */
export function sameTopList(a: TopList, b: TopList): boolean {
  const sorted = <T>(map: Map<string, T> | undefined) => map && [...map].sort(([x], [y]) => byId(x, y));
  const counts = (list: TopList) => JSON.stringify([list.buckets, list.set, sorted(list.items), list.schema, list.setScores, sorted(list.scores)]);
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

/** An entity ranked by quality, with the score bounds it was ranked by. */
export interface ScoredRankedEntry extends RankedEntry {
  score: ScoreBounds;
}

function bestOf(entries: ScoredRankedEntry[], direction: QualityOrder, minCount: number, size: number): ScoredRankedEntry[] {
  return entries
    .filter((entry) => entry.count >= minCount)
    .sort(qualityOrder(direction))
    .slice(0, size);
}

type ScoreRankOptions = { now: Date; minCount: number; size: number };

/**
 * The `size` items of the lists in `direction` in `period` among those with at least
 * `minCount` responses (lists of sets of one schema: the caller picks them). Exact for
 * `size` up to the lists' depth (see the header).
 */
export function rankItemsByScore(
  lists: { contentSetId: string; list: TopList }[],
  period: TopPeriod,
  direction: QualityOrder,
  options: ScoreRankOptions,
): ScoredRankedEntry[] {
  return rankByScore(lists, period, direction, options, (_, list) =>
    [...list.items].map(([id, counts]) => ({ id, counts, scores: list.scores?.get(id) ?? [] })),
  );
}

/** The `size` sets in `direction` in `period` among those with at least `minCount` responses. */
export function rankSetsByScore(
  lists: { contentSetId: string; list: TopList }[],
  period: TopPeriod,
  direction: QualityOrder,
  options: ScoreRankOptions,
): ScoredRankedEntry[] {
  return rankByScore(lists, period, direction, options, (contentSetId, list) => [{ id: contentSetId, counts: list.set, scores: list.setScores ?? [] }]);
}

/** What `subjects` picks of each list (its items, or the set itself), as of `now`, ranked by score. */
function rankByScore(
  lists: { contentSetId: string; list: TopList }[],
  period: TopPeriod,
  direction: QualityOrder,
  options: ScoreRankOptions,
  subjects: (contentSetId: string, list: TopList) => { id: string; counts: PeriodCounts; scores: PeriodScores }[],
): ScoredRankedEntry[] {
  const index = TOP_PERIODS.indexOf(period);
  const current = currentBuckets(options.now);
  const entries: ScoredRankedEntry[] = [];
  for (const { contentSetId, list } of lists) {
    for (const { id, counts, scores } of subjects(contentSetId, list)) {
      const count = countsAt(counts, list.buckets, current)[index];
      const score = scoresAt(scores, list.buckets, current)[index];
      if (count > 0 && score) entries.push({ id, count, contentSetId, score });
    }
  }
  return bestOf(entries, direction, options.minCount, options.size);
}
