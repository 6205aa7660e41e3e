/**
 * Time buckets and the catalogue of statistic periods. The stream consumer counts every
 * response in its day (with its hour) and its year (with its month), store/counters.ts;
 * the read operations resolve a period to the data points they read; the top lists
 * (functions/domain/ranking.ts) keep one count per ranked period. All maths is in UTC and
 * weeks start on Monday (ISO 8601).
 *
 * Adding a period is one entry in PERIODS (plus its unit tests): getStats, the top lists
 * and the ranker derive what they do from it.
 */

export type Granularity = 'hour' | 'day' | 'week' | 'month' | 'year';

/** Every granularity a period is made of, finest first. */
export const COUNTED_GRANULARITIES = ['hour', 'day', 'week', 'month', 'year'] as const satisfies readonly Granularity[];

/**
 * - `calendar`: the one bucket of `unit` containing the reference.
 * - `rolling`: the `length` buckets of `unit` ending with the one containing the reference
 *   (`unit` is a day or coarser: a top list recounts its rolling windows once a day).
 * - `lifetime`: every year from the first response's to the reference's.
 * `pointGranularity` is the granularity of the data points (AggregatedData.data.points).
 */
export type PeriodRule =
  | { kind: 'calendar'; unit: Granularity; pointGranularity: Granularity; ranked: boolean }
  | { kind: 'rolling'; unit: Exclude<Granularity, 'hour'>; length: number; pointGranularity: Granularity; ranked: true }
  | { kind: 'lifetime'; pointGranularity: 'year'; ranked: true };

export const PERIODS = {
  day: { kind: 'calendar', unit: 'day', pointGranularity: 'hour', ranked: true },
  week: { kind: 'calendar', unit: 'week', pointGranularity: 'day', ranked: true },
  month: { kind: 'calendar', unit: 'month', pointGranularity: 'day', ranked: true },
  year: { kind: 'calendar', unit: 'year', pointGranularity: 'month', ranked: true },
  lifetime: { kind: 'lifetime', pointGranularity: 'year', ranked: true },
  rolling7d: { kind: 'rolling', unit: 'day', length: 7, pointGranularity: 'day', ranked: true },
  rolling28d: { kind: 'rolling', unit: 'day', length: 28, pointGranularity: 'day', ranked: true },
  rolling12m: { kind: 'rolling', unit: 'month', length: 12, pointGranularity: 'month', ranked: true },
} as const satisfies Record<string, PeriodRule>;

type Periods = typeof PERIODS;
export type StatPeriod = keyof Periods;
export type TopPeriod = { [P in StatPeriod]: Periods[P]['ranked'] extends true ? P : never }[StatPeriod];

const periodNames = Object.keys(PERIODS) as StatPeriod[];
export const STAT_PERIODS = periodNames as readonly StatPeriod[] as readonly [StatPeriod, ...StatPeriod[]];
export const TOP_PERIODS = periodNames.filter((period) => PERIODS[period].ranked) as readonly TopPeriod[] as readonly [TopPeriod, ...TopPeriod[]];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Date.UTC reads the years 0 to 99 as 1900 to 1999; setUTCFullYear does not, so a
 * reference such as "0050-01-01" stays in year 50 instead of silently becoming 1950.
 */
function utcDate(year: number, monthIndex = 0, day = 1, hour = 0): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour);
  return date;
}

/** Start of the UTC hour, day, ISO week (Monday 00:00), month or year containing `date`. */
export function bucketStart(granularity: Granularity, date: Date): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  switch (granularity) {
    case 'hour':
      return utcDate(year, month, day, date.getUTCHours());
    case 'day':
      return utcDate(year, month, day);
    case 'week': {
      const daysSinceMonday = (date.getUTCDay() + 6) % 7;
      return utcDate(year, month, day - daysSinceMonday);
    }
    case 'month':
      return utcDate(year, month);
    case 'year':
      return utcDate(year);
  }
}

const KEY_LENGTHS: Record<Granularity, number> = { hour: 13, day: 10, week: 10, month: 7, year: 4 };

/**
 * Key of the bucket containing `date`: hour 'YYYY-MM-DDTHH', day and week 'YYYY-MM-DD'
 * (a week by its Monday), month 'YYYY-MM', year 'YYYY'. Keys of one granularity sort
 * in time order, which lets the store read a period as one key range.
 * Throws a RangeError for an invalid date.
 */
export function bucketKey(granularity: Granularity, date: Date): string {
  return bucketStart(granularity, date).toISOString().slice(0, KEY_LENGTHS[granularity]);
}

/**
 * Start of the bucket `count` buckets after (negative: before) the one containing `date`.
 * Months and years move by the calendar, so a month is 28 to 31 days long.
 */
export function addBuckets(granularity: Granularity, date: Date, count: number): Date {
  if (!Number.isInteger(count)) throw new RangeError(`bucket count must be an integer, got ${count}`);
  const start = bucketStart(granularity, date);
  switch (granularity) {
    case 'hour':
      return new Date(start.getTime() + count * HOUR_MS);
    case 'day':
      return new Date(start.getTime() + count * DAY_MS);
    case 'week':
      return new Date(start.getTime() + count * 7 * DAY_MS);
    case 'month':
      return utcDate(start.getUTCFullYear(), start.getUTCMonth() + count);
    case 'year':
      return utcDate(start.getUTCFullYear() + count);
  }
}

export interface ResolvedPeriod {
  period: StatPeriod;
  /** Inclusive; this is AggregatedData.referenceDate. */
  start: Date;
  /** Exclusive. */
  end: Date;
  pointGranularity: Granularity;
  /** Bucket keys of the data points, oldest first. */
  points: string[];
}

/**
 * The time range and data points of a statistic period.
 * - `reference` (default `now`) picks the period containing it.
 * - `shift` moves by whole periods (negative: earlier); a rolling window moves by its
 *   own length, so shift -1 of rolling7d is the 7 days before the current window.
 * - `firstBucketYear` is the year of the first response; lifetime starts there
 *   (or at the reference year when it is missing or later).
 * Throws a RangeError for an invalid reference, or a shift or firstBucketYear that is
 * not an integer.
 */
export function resolvePeriod(period: StatPeriod, options: { reference?: Date; shift?: number; firstBucketYear?: number; now: Date }): ResolvedPeriod {
  const { reference = options.now, shift = 0, firstBucketYear } = options;
  if (Number.isNaN(reference.getTime())) throw new RangeError('reference is not a valid date');
  if (!Number.isInteger(shift)) throw new RangeError(`shift must be an integer, got ${shift}`);
  if (firstBucketYear !== undefined && !Number.isInteger(firstBucketYear)) {
    throw new RangeError(`firstBucketYear must be an integer, got ${firstBucketYear}`);
  }

  if (period === 'lifetime') {
    // Lifetime ignores `shift`: it is the one period from the first response up to the
    // reference year, so there is no earlier or later lifetime to move to.
    const referenceYear = reference.getUTCFullYear();
    const firstYear = Math.min(firstBucketYear ?? referenceYear, referenceYear);
    return withPoints(period, utcDate(firstYear), addBuckets('year', reference, 1), 'year');
  }

  const rule = PERIODS[period];
  const length = rule.kind === 'rolling' ? rule.length : 1;
  const end = addBuckets(rule.unit, reference, 1 + shift * length);
  return withPoints(period, addBuckets(rule.unit, end, -length), end, rule.pointGranularity);
}

function withPoints(period: StatPeriod, start: Date, end: Date, pointGranularity: Granularity): ResolvedPeriod {
  const points: string[] = [];
  for (let point = start; point < end; point = addBuckets(pointGranularity, point, 1)) {
    points.push(bucketKey(pointGranularity, point));
  }
  return { period, start, end, pointGranularity, points };
}
