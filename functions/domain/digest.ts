/**
 * The weekly digest, the pure part (docs/api.md "Weekly digest"): which week it covers,
 * how its pages are ranked (section 2's order: best by the interval's low end, worst by
 * its high end) and which changes it names, and its chat text. No I/O.
 */
import type { ThemeGrowth } from '../../shared/theme-growth';
import { addBuckets, bucketKey, bucketStart } from '../../shared/periods';
import type { Schema } from '../../shared/schema-options';
import type { AlertImage } from './alerts';
import { qualityOrder, type QualityOrder } from './ranking';
import type { ScoreMeasure } from './alerts';
import type { ScoreChange, ScoreInterval } from './statistics';

/** Pages with fewer responses in the week are left out of best and worst (section 2's default `$minCount`). */
export const DIGEST_MIN_COUNT = 10;
/** Pages per list: best, worst, changes. */
export const DIGEST_LIST_LENGTH = 5;

/** A week, Monday to Sunday: `from` and `to` inclusive day keys. */
export interface DigestWeek {
  from: string;
  to: string;
}

/** The last complete week (Monday to Sunday, UTC) that ended at or before `reference`, and the week before it. */
export function digestWeeks(reference: Date): { week: DigestWeek; previous: DigestWeek } {
  const thisMonday = bucketStart('week', reference);
  const week = (monday: Date): DigestWeek => ({ from: bucketKey('day', monday), to: bucketKey('day', addBuckets('day', monday, 6)) });
  return { week: week(addBuckets('week', thisMonday, -1)), previous: week(addBuckets('week', thisMonday, -2)) };
}

/** A page of the digest: an item with its score over the week. */
export interface DigestPage {
  contentItemId: string;
  contentSetId: string;
  name: string;
  count: number;
  score: ScoreInterval;
}

/** A page whose score changed significantly from the week before. */
export interface DigestChange extends DigestPage {
  previous: { count: number; score: ScoreInterval };
  change: ScoreChange;
}

export interface DigestSchemaPart {
  schema: Schema;
  measure: ScoreMeasure;
  best: DigestPage[];
  worst: DigestPage[];
  /** The largest significant changes, largest first (either way). */
  changes: DigestChange[];
}

export interface ProjectDigest {
  projectId: string;
  projectName: string;
  week: DigestWeek;
  previousWeek: DigestWeek;
  responses: {
    count: number;
    previous: number;
    /** `difference` = count - previous; `percentage` of previous, null when previous is 0. */
    change: { difference: number; percentage: number | null };
  };
  schemas: DigestSchemaPart[];
  /** The project's alerts raised during the week, newest first. */
  alerts: AlertImage[];
  /** Per message set, what grew in the week against the 4 weeks before (issue 40): only sets where something did. Absent on digests sent before. */
  risingThemes?: Array<ThemeGrowth & { contentSetId: string; name: string }>;
}

const byId = (a: DigestPage, b: DigestPage) => (a.contentItemId < b.contentItemId ? -1 : a.contentItemId > b.contentItemId ? 1 : 0);

/** The pages in the order of `direction`, as sets/top ranks them (ranking.ts `qualityOrder`); at least DIGEST_MIN_COUNT responses. */
function rankedPages(pages: readonly DigestPage[], direction: QualityOrder): DigestPage[] {
  const order = qualityOrder(direction);
  const entry = (page: DigestPage) => ({ id: page.contentItemId, count: page.count, score: page.score });
  return pages
    .filter((page) => page.count >= DIGEST_MIN_COUNT)
    .sort((a, b) => order(entry(a), entry(b)))
    .slice(0, DIGEST_LIST_LENGTH);
}

/** The best pages: `low` descending, then count (more first), then id (ascending). */
export function bestPages(pages: readonly DigestPage[]): DigestPage[] {
  return rankedPages(pages, 'best');
}

/** The worst pages: `high` ascending, then count (more first), then id (ascending). */
export function worstPages(pages: readonly DigestPage[]): DigestPage[] {
  return rankedPages(pages, 'worst');
}

/** The significant changes, largest |delta| first. */
export function largestChanges(changes: readonly DigestChange[]): DigestChange[] {
  return changes
    .filter((change) => change.change.significant === true)
    .sort((a, b) => Math.abs(b.change.delta) - Math.abs(a.change.delta) || byId(a, b))
    .slice(0, DIGEST_LIST_LENGTH);
}

export function responsesChange(count: number, previous: number): ProjectDigest['responses'] {
  return {
    count,
    previous,
    change: { difference: count - previous, percentage: previous === 0 ? null : Math.round(((count - previous) / previous) * 1000) / 10 },
  };
}
