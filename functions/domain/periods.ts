/**
 * Time buckets and statistic periods. The stream consumer counts every response in one
 * bucket per granularity; the read operations resolve a period to the buckets they sum.
 * Both sides use these functions so that they agree on what a "week" is. All maths is in
 * UTC and weeks start on Monday (ISO 8601).
 */

export type Granularity = 'hour' | 'day' | 'week' | 'month' | 'year';
export const GRANULARITIES: readonly Granularity[] = ['hour', 'day', 'week', 'month', 'year'];

export const STAT_PERIODS = ['day', 'week', 'month', 'year', 'lifetime', 'rolling7d', 'rolling28d', 'rolling12m'] as const;
export type StatPeriod = (typeof STAT_PERIODS)[number];

export const TOP_PERIODS = ['week', 'month', 'year', 'rolling7d', 'rolling28d', 'rolling12m'] as const;
export type TopPeriod = (typeof TOP_PERIODS)[number];

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

const KEY_PATTERN = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}))?)?)?$/;

/**
 * Start of the bucket a key names; the inverse of bucketKey. Keys read from storage or
 * from a caller are checked by turning them back into a key: anything else (a key of
 * another granularity, 2026-02-30, a week key that is not a Monday) throws a RangeError.
 */
export function parseBucketKey(granularity: Granularity, key: string): Date {
  const match = KEY_PATTERN.exec(key);
  if (match) {
    const [, year, month = '01', day = '01', hour = '00'] = match;
    const start = utcDate(Number(year), Number(month) - 1, Number(day), Number(hour));
    if (bucketKey(granularity, start) === key) return start;
  }
  throw new RangeError(`not a ${granularity} bucket key: ${JSON.stringify(key)}`);
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

/** Every bucket a response created at `date` is counted in. */
export function bucketKeysOf(date: Date): Record<Granularity, string> {
  return {
    hour: bucketKey('hour', date),
    day: bucketKey('day', date),
    week: bucketKey('week', date),
    month: bucketKey('month', date),
    year: bucketKey('year', date),
  };
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
 * Every period except lifetime is `length` buckets of `unit` that end with the bucket
 * containing the reference: a calendar period is the one bucket containing it, a rolling
 * window also covers the buckets just before it.
 */
const WINDOWS: Record<Exclude<StatPeriod, 'lifetime'>, { unit: Granularity; length: number; pointGranularity: Granularity }> = {
  day: { unit: 'day', length: 1, pointGranularity: 'hour' },
  week: { unit: 'week', length: 1, pointGranularity: 'day' },
  month: { unit: 'month', length: 1, pointGranularity: 'day' },
  year: { unit: 'year', length: 1, pointGranularity: 'month' },
  rolling7d: { unit: 'day', length: 7, pointGranularity: 'day' },
  rolling28d: { unit: 'day', length: 28, pointGranularity: 'day' },
  rolling12m: { unit: 'month', length: 12, pointGranularity: 'month' },
};

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
export function resolvePeriod(
  period: StatPeriod,
  options: { reference?: Date; shift?: number; firstBucketYear?: number; now: Date },
): ResolvedPeriod {
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

  const { unit, length, pointGranularity } = WINDOWS[period];
  const end = addBuckets(unit, reference, 1 + shift * length);
  return withPoints(period, addBuckets(unit, end, -length), end, pointGranularity);
}

function withPoints(period: StatPeriod, start: Date, end: Date, pointGranularity: Granularity): ResolvedPeriod {
  const points: string[] = [];
  for (let point = start; point < end; point = addBuckets(pointGranularity, point, 1)) {
    points.push(bucketKey(pointGranularity, point));
  }
  return { period, start, end, pointGranularity, points };
}
