/**
 * Periods as the console shows them: the choices, the URL form of a reference, navigation
 * to the previous and next period, and labels. The maths is the server's own catalogue
 * (shared/periods.ts, pure), so the console and getStats agree on every boundary.
 */
import { UTCDate } from '@date-fns/utc';
import { format } from 'date-fns';
import {
  addBuckets,
  PERIODS,
  resolvePeriod,
  type Granularity,
  type PeriodRule,
  type ResolvedPeriod,
  type StatPeriod,
  type TopPeriod,
} from '../../../shared/periods';
import type { AggregatedData } from '@feedback-service/client';

export type { Granularity, ResolvedPeriod, StatPeriod, TopPeriod };

/** Every period's name in the selector, in its order: a period of PERIODS without a label does not compile. */
const PERIOD_LABELS = {
  day: 'Day',
  week: 'Week',
  month: 'Month',
  year: 'Year',
  rolling7d: 'Last 7 days',
  rolling28d: 'Last 28 days',
  rolling12m: 'Last 12 months',
  lifetime: 'Lifetime',
} as const satisfies Record<StatPeriod, string>;

export const PERIOD_CHOICES: readonly { value: StatPeriod; label: string }[] = (Object.keys(PERIOD_LABELS) as StatPeriod[]).map((value) => ({
  value,
  label: PERIOD_LABELS[value],
}));

export const DEFAULT_PERIOD: StatPeriod = 'rolling28d';

export function isPeriod(value: string | null | undefined): value is StatPeriod {
  return value !== null && value !== undefined && Object.hasOwn(PERIODS, value);
}

/** `YYYY-MM-DD` of a date in UTC: the form of a reference in URLs and getStats calls. */
export function dayKey(date: Date): string {
  return date.toISOString().slice(0, 10);
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A reference from the URL when it is a valid day, else undefined (meaning today). */
export function parseReference(text: string | null | undefined): string | undefined {
  if (!text || !DAY_PATTERN.test(text)) return undefined;
  return Number.isNaN(new Date(`${text}T00:00:00Z`).getTime()) ? undefined : text;
}

export function resolveView(period: StatPeriod, reference: string | undefined, now = new Date(), firstBucketYear?: number): ResolvedPeriod {
  return resolvePeriod(period, { reference: reference ? new Date(`${reference}T00:00:00Z`) : now, firstBucketYear, now });
}

/**
 * The reference of the period `delta` periods away: the last day of that period, which
 * names it for calendar periods and is the end day of a rolling window.
 */
export function shiftReference(period: StatPeriod, reference: string | undefined, delta: number, now = new Date()): string {
  const shifted = resolvePeriod(period, { reference: reference ? new Date(`${reference}T00:00:00Z`) : now, shift: delta, now });
  return dayKey(new Date(shifted.end.getTime() - 1));
}

/** Whether the period of this reference contains now (there is no next one to look at yet). */
export function containsNow(period: StatPeriod, reference: string | undefined, now = new Date()): boolean {
  const resolved = resolveView(period, reference, now);
  return resolved.end.getTime() > now.getTime();
}

const utc = (date: Date) => new UTCDate(date);

/** What a period covers, in words: "Week of 16 Nov 2026", "November 2026", "10 – 16 Nov 2026". */
export function periodLabel(resolved: Pick<ResolvedPeriod, 'period' | 'start' | 'end'>): string {
  const start = utc(resolved.start);
  const last = utc(new Date(resolved.end.getTime() - 1));
  switch (resolved.period) {
    case 'day':
      return format(start, 'EEEE d MMMM yyyy');
    case 'week':
    case 'rolling7d':
    case 'rolling28d':
      return `${format(start, start.getUTCFullYear() === last.getUTCFullYear() ? 'd MMM' : 'd MMM yyyy')} – ${format(last, 'd MMM yyyy')}`;
    case 'month':
      return format(start, 'MMMM yyyy');
    case 'year':
      return format(start, 'yyyy');
    case 'rolling12m':
      return `${format(start, 'MMM yyyy')} – ${format(last, 'MMM yyyy')}`;
    case 'lifetime':
      return start.getUTCFullYear() === last.getUTCFullYear() ? `Since ${format(start, 'yyyy')}` : `${format(start, 'yyyy')} – ${format(last, 'yyyy')}`;
  }
}

function bucketDate(key: string): UTCDate {
  // Keys: 'YYYY', 'YYYY-MM', 'YYYY-MM-DD', 'YYYY-MM-DDTHH'.
  const [datePart, hour] = key.split('T');
  const [year, month = '01', day = '01'] = datePart.split('-');
  return new UTCDate(Number(year), Number(month) - 1, Number(day), Number(hour ?? 0));
}

/** Short label of a data point on an axis. */
export function pointLabel(granularity: Granularity, key: string): string {
  const date = bucketDate(key);
  switch (granularity) {
    case 'hour':
      return format(date, 'HH:mm');
    case 'day':
    case 'week':
      return format(date, 'd MMM');
    case 'month':
      return format(date, 'MMM yy');
    case 'year':
      return format(date, 'yyyy');
  }
}

/** Full name of a data point, for tables. */
export function pointTitle(granularity: Granularity, key: string): string {
  const date = bucketDate(key);
  switch (granularity) {
    case 'hour':
      return format(date, "d MMM yyyy, HH:mm 'UTC'");
    case 'day':
      return format(date, 'EEE d MMM yyyy');
    case 'week':
      return `Week of ${format(date, 'd MMM yyyy')}`;
    case 'month':
      return format(date, 'MMMM yyyy');
    case 'year':
      return format(date, 'yyyy');
  }
}

/**
 * The resolved period of an AggregatedData, from its own referenceDate (the period's start):
 * a rolling window is named by its last bucket, so its reference is start + length - 1 units;
 * lifetime starts at the referenceDate's year.
 */
export function resolvedOf(stats: Pick<AggregatedData, 'period' | 'referenceDate'>, now = new Date()): ResolvedPeriod {
  const start = new Date(stats.referenceDate);
  if (stats.period === 'lifetime') return resolvePeriod('lifetime', { reference: now, firstBucketYear: start.getUTCFullYear(), now });
  const rule: PeriodRule = PERIODS[stats.period];
  const reference = rule.kind === 'rolling' ? addBuckets(rule.unit, start, rule.length - 1) : start;
  return resolvePeriod(stats.period, { reference, now });
}

/** What the current period of a ranked kind is called in a sentence: "this week", "the last 28 days". */
const CURRENT_PERIOD_NAMES = {
  day: 'today',
  lifetime: 'the lifetime',
  week: 'this week',
  month: 'this month',
  year: 'this year',
  rolling7d: 'the last 7 days',
  rolling28d: 'the last 28 days',
  rolling12m: 'the last 12 months',
} as const satisfies Record<TopPeriod, string>;

export function currentPeriodName(period: TopPeriod): string {
  return CURRENT_PERIOD_NAMES[period];
}

export function periodChoiceLabel(period: StatPeriod): string {
  return PERIOD_LABELS[period];
}
