import { bucketKey, type Granularity } from '../../shared/periods';

const KEY_PATTERN = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}))?)?)?$/;

/**
 * Start of the bucket a key names; the inverse of bucketKey, for tests that recompute
 * periods from bucket keys. Anything that is not a key of the granularity (a key of
 * another granularity, 2026-02-30, a week key that is not a Monday) throws a RangeError.
 */
export function parseBucketKey(granularity: Granularity, key: string): Date {
  const match = KEY_PATTERN.exec(key);
  if (match) {
    const [, year, month = '01', day = '01', hour = '00'] = match;
    const start = new Date(0);
    start.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
    start.setUTCHours(Number(hour));
    if (bucketKey(granularity, start) === key) return start;
  }
  throw new RangeError(`not a ${granularity} bucket key: ${JSON.stringify(key)}`);
}
