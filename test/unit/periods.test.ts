import {
  addBuckets,
  bucketKey,
  bucketStart,
  COUNTED_GRANULARITIES,
  PERIODS,
  resolvePeriod,
  STAT_PERIODS,
  TOP_PERIODS,
  type Granularity,
} from '../../shared/periods';
import { parseBucketKey } from '../support/bucket-keys';

const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();
const NOW = at('2026-03-18T15:42:07.123Z'); // a Wednesday

describe('period lists', () => {
  it('lists granularities from finest to coarsest', () => {
    expect(COUNTED_GRANULARITIES).toEqual(['hour', 'day', 'week', 'month', 'year']);
  });

  it('lists the SPEC stat and top periods', () => {
    expect(STAT_PERIODS).toEqual(['day', 'week', 'month', 'year', 'lifetime', 'rolling7d', 'rolling28d', 'rolling12m']);
    expect(TOP_PERIODS).toEqual(STAT_PERIODS);
  });

  it('gives every period a point granularity that is counted, and rolling units a day or coarser', () => {
    for (const period of STAT_PERIODS) {
      const rule = PERIODS[period];
      expect(COUNTED_GRANULARITIES).toContain(rule.pointGranularity);
      if (rule.kind !== 'lifetime') expect(COUNTED_GRANULARITIES).toContain(rule.unit);
      if (rule.kind === 'rolling') expect(rule.unit).not.toBe('hour');
    }
  });
});

describe('bucketStart', () => {
  it.each<[Granularity, string, string]>([
    ['hour', '2026-03-18T15:42:07.123Z', '2026-03-18T15:00:00.000Z'],
    ['day', '2026-03-18T15:42:07.123Z', '2026-03-18T00:00:00.000Z'],
    ['week', '2026-03-18T15:42:07.123Z', '2026-03-16T00:00:00.000Z'],
    ['month', '2026-03-18T15:42:07.123Z', '2026-03-01T00:00:00.000Z'],
    ['year', '2026-03-18T15:42:07.123Z', '2026-01-01T00:00:00.000Z'],
  ])('%s of %s starts at %s', (granularity, date, start) => {
    expect(iso(bucketStart(granularity, at(date)))).toBe(start);
  });

  it('keeps a date that already is a bucket start', () => {
    expect(iso(bucketStart('hour', at('2026-03-18T15:00:00.000Z')))).toBe('2026-03-18T15:00:00.000Z');
    expect(iso(bucketStart('week', at('2026-03-16T00:00:00.000Z')))).toBe('2026-03-16T00:00:00.000Z');
  });

  it('reads the date in UTC, not in a local time zone', () => {
    // 23:30 at UTC-2 is already the next UTC day.
    expect(iso(bucketStart('day', at('2026-03-18T23:30:00-02:00')))).toBe('2026-03-19T00:00:00.000Z');
  });

  describe('weeks start on Monday', () => {
    it.each([
      ['Monday 00:00', '2026-03-16T00:00:00.000Z'],
      ['Tuesday', '2026-03-17T08:00:00.000Z'],
      ['Saturday', '2026-03-21T12:00:00.000Z'],
      ['Sunday 23:59:59.999', '2026-03-22T23:59:59.999Z'],
    ])('%s belongs to the week of Monday 2026-03-16', (_, date) => {
      expect(iso(bucketStart('week', at(date)))).toBe('2026-03-16T00:00:00.000Z');
    });

    it('the next Monday starts a new week', () => {
      expect(iso(bucketStart('week', at('2026-03-23T00:00:00.000Z')))).toBe('2026-03-23T00:00:00.000Z');
    });

    it('a week crossing a year starts in the previous year (2026-01-01 is a Thursday)', () => {
      expect(iso(bucketStart('week', at('2026-01-01T10:00:00Z')))).toBe('2025-12-29T00:00:00.000Z');
      expect(iso(bucketStart('week', at('2026-01-04T23:00:00Z')))).toBe('2025-12-29T00:00:00.000Z');
      expect(iso(bucketStart('week', at('2026-01-05T00:00:00Z')))).toBe('2026-01-05T00:00:00.000Z');
    });

    it('a week crossing a month starts in the previous month', () => {
      expect(iso(bucketStart('week', at('2026-03-01T12:00:00Z')))).toBe('2026-02-23T00:00:00.000Z');
    });
  });

  it('keeps years below 100 (Date.UTC would read them as 19xx)', () => {
    expect(iso(bucketStart('year', at('0050-06-15T00:00:00Z')))).toBe('0050-01-01T00:00:00.000Z');
    expect(iso(bucketStart('day', at('0050-06-15T10:00:00Z')))).toBe('0050-06-15T00:00:00.000Z');
  });
});

describe('bucketKey', () => {
  it.each<[Granularity, string]>([
    ['hour', '2026-03-18T15'],
    ['day', '2026-03-18'],
    ['week', '2026-03-16'],
    ['month', '2026-03'],
    ['year', '2026'],
  ])('%s key is %s', (granularity, key) => {
    expect(bucketKey(granularity, NOW)).toBe(key);
  });

  it('names a week crossing a year by its Monday', () => {
    expect(bucketKey('week', at('2026-01-01T00:00:00Z'))).toBe('2025-12-29');
  });

  it('zero-pads hours, days and months', () => {
    expect(bucketKey('hour', at('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03');
    expect(bucketKey('month', at('2026-01-02T03:04:05Z'))).toBe('2026-01');
  });

  it('sorts keys of one granularity in time order', () => {
    // Chosen so that plain string order of the dates' numbers would differ (2 < 10, 9 < 10).
    const inTimeOrder = ['2009-12-28T09:00:00Z', '2010-02-01T10:00:00Z', '2011-10-04T02:00:00Z', '2026-02-09T23:00:00Z'].map(at);
    for (const granularity of COUNTED_GRANULARITIES) {
      const keys = inTimeOrder.map((date) => bucketKey(granularity, date));
      expect(new Set(keys).size).toBe(keys.length);
      expect([...keys].sort()).toEqual(keys);
    }
  });

  it('throws a RangeError for an invalid date', () => {
    expect(() => bucketKey('day', new Date('nope'))).toThrow(RangeError);
  });
});

describe('parseBucketKey', () => {
  it.each<[Granularity, string, string]>([
    ['hour', '2026-03-18T15', '2026-03-18T15:00:00.000Z'],
    ['hour', '2026-03-18T00', '2026-03-18T00:00:00.000Z'],
    ['day', '2026-03-18', '2026-03-18T00:00:00.000Z'],
    ['week', '2025-12-29', '2025-12-29T00:00:00.000Z'],
    ['month', '2026-03', '2026-03-01T00:00:00.000Z'],
    ['year', '2026', '2026-01-01T00:00:00.000Z'],
    ['day', '2028-02-29', '2028-02-29T00:00:00.000Z'],
  ])('%s key %s starts at %s', (granularity, key, start) => {
    expect(iso(parseBucketKey(granularity, key))).toBe(start);
  });

  it('round-trips every granularity over a year of hours', () => {
    const start = at('2025-12-20T00:00:00Z').getTime();
    for (let hour = 0; hour < 24 * 400; hour += 7) {
      const date = new Date(start + hour * 3_600_000 + 1_234);
      for (const granularity of COUNTED_GRANULARITIES) {
        const key = bucketKey(granularity, date);
        expect(parseBucketKey(granularity, key)).toEqual(bucketStart(granularity, date));
        expect(bucketKey(granularity, parseBucketKey(granularity, key))).toBe(key);
      }
    }
  });

  it.each<[Granularity, string]>([
    ['day', '2026-02-30'], // no such day
    ['day', '2027-02-29'], // not a leap year
    ['month', '2026-13'],
    ['hour', '2026-03-18T24'],
    ['week', '2026-03-18'], // a Wednesday
    ['day', '2026-03'], // a month key
    ['month', '2026-03-01'], // a day key
    ['year', '26'],
    ['day', '2026-3-8'],
    ['day', ' 2026-03-18'],
    ['hour', '2026-03-18T15:00'],
    ['day', ''],
  ])('rejects %s key %j', (granularity, key) => {
    expect(() => parseBucketKey(granularity, key)).toThrow(RangeError);
  });
});

describe('addBuckets', () => {
  it.each<[Granularity, string, number, string]>([
    ['hour', '2026-03-18T23:00:00Z', 1, '2026-03-19T00:00:00.000Z'],
    ['hour', '2026-03-18T00:00:00Z', -1, '2026-03-17T23:00:00.000Z'],
    ['day', '2026-02-28T00:00:00Z', 1, '2026-03-01T00:00:00.000Z'],
    ['day', '2028-02-28T00:00:00Z', 1, '2028-02-29T00:00:00.000Z'],
    ['day', '2026-01-01T00:00:00Z', -1, '2025-12-31T00:00:00.000Z'],
    ['week', '2025-12-29T00:00:00Z', 1, '2026-01-05T00:00:00.000Z'],
    ['week', '2026-03-16T00:00:00Z', -3, '2026-02-23T00:00:00.000Z'],
    ['month', '2026-01-01T00:00:00Z', 1, '2026-02-01T00:00:00.000Z'],
    ['month', '2026-11-01T00:00:00Z', 3, '2027-02-01T00:00:00.000Z'],
    ['month', '2026-03-01T00:00:00Z', -15, '2024-12-01T00:00:00.000Z'],
    ['year', '2026-01-01T00:00:00Z', -10, '2016-01-01T00:00:00.000Z'],
    ['year', '2026-01-01T00:00:00Z', 0, '2026-01-01T00:00:00.000Z'],
  ])('%s %s %+d is %s', (granularity, date, count, moved) => {
    expect(iso(addBuckets(granularity, at(date), count))).toBe(moved);
  });

  it('moves from the bucket containing the date, so month ends do not overflow', () => {
    // 31 January + 1 month is February, not 3 March.
    expect(iso(addBuckets('month', at('2026-01-31T18:00:00Z'), 1))).toBe('2026-02-01T00:00:00.000Z');
    expect(iso(addBuckets('week', at('2026-03-22T23:00:00Z'), 1))).toBe('2026-03-23T00:00:00.000Z');
    expect(iso(addBuckets('day', at('2026-03-18T15:42:00Z'), 0))).toBe('2026-03-18T00:00:00.000Z');
  });

  it('rejects a count that is not an integer', () => {
    expect(() => addBuckets('day', NOW, 1.5)).toThrow(RangeError);
    expect(() => addBuckets('month', NOW, Number.NaN)).toThrow(RangeError);
  });
});

function days(from: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => bucketKey('day', new Date(at(from).getTime() + index * 86_400_000)));
}

describe('resolvePeriod', () => {
  describe('day', () => {
    it('is the UTC day of the reference in 24 hourly points', () => {
      const resolved = resolvePeriod('day', { now: NOW });
      expect(resolved.period).toBe('day');
      expect(iso(resolved.start)).toBe('2026-03-18T00:00:00.000Z');
      expect(iso(resolved.end)).toBe('2026-03-19T00:00:00.000Z');
      expect(resolved.pointGranularity).toBe('hour');
      expect(resolved.points).toHaveLength(24);
      expect(resolved.points[0]).toBe('2026-03-18T00');
      expect(resolved.points[1]).toBe('2026-03-18T01');
      expect(resolved.points[23]).toBe('2026-03-18T23');
    });

    it('shifts by whole days', () => {
      expect(iso(resolvePeriod('day', { now: NOW, shift: -1 }).start)).toBe('2026-03-17T00:00:00.000Z');
      expect(iso(resolvePeriod('day', { now: NOW, shift: 14 }).start)).toBe('2026-04-01T00:00:00.000Z');
      expect(iso(resolvePeriod('day', { now: at('2026-01-01T05:00:00Z'), shift: -1 }).start)).toBe('2025-12-31T00:00:00.000Z');
    });

    it('uses the reference instead of now', () => {
      const resolved = resolvePeriod('day', { now: NOW, reference: at('2024-02-29T23:59:59.999Z') });
      expect(iso(resolved.start)).toBe('2024-02-29T00:00:00.000Z');
      expect(resolved.points[23]).toBe('2024-02-29T23');
    });
  });

  describe('week', () => {
    it('is the ISO week of the reference in 7 daily points', () => {
      const resolved = resolvePeriod('week', { now: NOW });
      expect(iso(resolved.start)).toBe('2026-03-16T00:00:00.000Z');
      expect(iso(resolved.end)).toBe('2026-03-23T00:00:00.000Z');
      expect(resolved.pointGranularity).toBe('day');
      expect(resolved.points).toEqual(days('2026-03-16T00:00:00Z', 7));
    });

    it('puts a Sunday in the week that started the Monday before', () => {
      const resolved = resolvePeriod('week', { now: NOW, reference: at('2026-03-22T20:00:00Z') });
      expect(iso(resolved.start)).toBe('2026-03-16T00:00:00.000Z');
      expect(resolved.points.at(-1)).toBe('2026-03-22');
    });

    it('crosses the year boundary', () => {
      const resolved = resolvePeriod('week', { now: at('2026-01-01T12:00:00Z') });
      expect(resolved.points).toEqual(['2025-12-29', '2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']);
      expect(iso(resolved.end)).toBe('2026-01-05T00:00:00.000Z');
    });

    it('shifts by whole weeks', () => {
      expect(iso(resolvePeriod('week', { now: NOW, shift: -1 }).start)).toBe('2026-03-09T00:00:00.000Z');
      expect(iso(resolvePeriod('week', { now: NOW, shift: 2 }).start)).toBe('2026-03-30T00:00:00.000Z');
      expect(iso(resolvePeriod('week', { now: at('2026-01-07T00:00:00Z'), shift: -1 }).start)).toBe('2025-12-29T00:00:00.000Z');
    });
  });

  describe('month', () => {
    it.each([
      ['2026-01-15T00:00:00Z', 31, '2026-01-01', '2026-01-31', '2026-02-01T00:00:00.000Z'],
      ['2026-02-15T00:00:00Z', 28, '2026-02-01', '2026-02-28', '2026-03-01T00:00:00.000Z'],
      ['2028-02-15T00:00:00Z', 29, '2028-02-01', '2028-02-29', '2028-03-01T00:00:00.000Z'],
      ['2026-04-30T23:59:59Z', 30, '2026-04-01', '2026-04-30', '2026-05-01T00:00:00.000Z'],
      ['2026-12-01T00:00:00Z', 31, '2026-12-01', '2026-12-31', '2027-01-01T00:00:00.000Z'],
    ])('the month of %s has %i daily points from %s to %s', (reference, length, first, last, end) => {
      const resolved = resolvePeriod('month', { now: NOW, reference: at(reference) });
      expect(resolved.pointGranularity).toBe('day');
      expect(resolved.points).toHaveLength(length);
      expect(resolved.points[0]).toBe(first);
      expect(resolved.points.at(-1)).toBe(last);
      expect(iso(resolved.start)).toBe(`${first}T00:00:00.000Z`);
      expect(iso(resolved.end)).toBe(end);
    });

    it('shifts by calendar months across years', () => {
      const previous = resolvePeriod('month', { now: at('2026-01-31T12:00:00Z'), shift: -2 });
      expect(iso(previous.start)).toBe('2025-11-01T00:00:00.000Z');
      expect(previous.points).toHaveLength(30);
      const next = resolvePeriod('month', { now: at('2027-12-31T12:00:00Z'), shift: 2 });
      expect(iso(next.start)).toBe('2028-02-01T00:00:00.000Z');
      expect(next.points).toHaveLength(29);
    });
  });

  describe('year', () => {
    it('is the calendar year in 12 monthly points', () => {
      const resolved = resolvePeriod('year', { now: NOW });
      expect(iso(resolved.start)).toBe('2026-01-01T00:00:00.000Z');
      expect(iso(resolved.end)).toBe('2027-01-01T00:00:00.000Z');
      expect(resolved.pointGranularity).toBe('month');
      expect(resolved.points).toEqual([
        '2026-01',
        '2026-02',
        '2026-03',
        '2026-04',
        '2026-05',
        '2026-06',
        '2026-07',
        '2026-08',
        '2026-09',
        '2026-10',
        '2026-11',
        '2026-12',
      ]);
    });

    it('shifts by whole years', () => {
      const resolved = resolvePeriod('year', { now: NOW, shift: -3 });
      expect(iso(resolved.start)).toBe('2023-01-01T00:00:00.000Z');
      expect(resolved.points[0]).toBe('2023-01');
      expect(resolved.points[11]).toBe('2023-12');
    });
  });

  describe('lifetime', () => {
    it('has one yearly point from the first response year to the reference year', () => {
      const resolved = resolvePeriod('lifetime', { now: NOW, firstBucketYear: 2023 });
      expect(iso(resolved.start)).toBe('2023-01-01T00:00:00.000Z');
      expect(iso(resolved.end)).toBe('2027-01-01T00:00:00.000Z');
      expect(resolved.pointGranularity).toBe('year');
      expect(resolved.points).toEqual(['2023', '2024', '2025', '2026']);
    });

    it('is the reference year alone without responses', () => {
      const resolved = resolvePeriod('lifetime', { now: NOW });
      expect(resolved.points).toEqual(['2026']);
      expect(iso(resolved.start)).toBe('2026-01-01T00:00:00.000Z');
      expect(iso(resolved.end)).toBe('2027-01-01T00:00:00.000Z');
    });

    it('ends with the reference year', () => {
      const resolved = resolvePeriod('lifetime', { now: NOW, reference: at('2024-07-01T00:00:00Z'), firstBucketYear: 2022 });
      expect(resolved.points).toEqual(['2022', '2023', '2024']);
      expect(iso(resolved.end)).toBe('2025-01-01T00:00:00.000Z');
    });

    it('starts at the reference year when the first response is later', () => {
      const resolved = resolvePeriod('lifetime', { now: NOW, reference: at('2024-07-01T00:00:00Z'), firstBucketYear: 2025 });
      expect(resolved.points).toEqual(['2024']);
      expect(iso(resolved.start)).toBe('2024-01-01T00:00:00.000Z');
    });

    it('ignores shift', () => {
      expect(resolvePeriod('lifetime', { now: NOW, firstBucketYear: 2025, shift: -3 })).toEqual(resolvePeriod('lifetime', { now: NOW, firstBucketYear: 2025 }));
    });
  });

  describe.each([
    ['rolling7d', 7],
    ['rolling28d', 28],
  ] as const)('%s', (period, length) => {
    it(`is the ${length} days ending with the reference day, one point per day`, () => {
      const resolved = resolvePeriod(period, { now: NOW });
      expect(resolved.pointGranularity).toBe('day');
      expect(resolved.points).toHaveLength(length);
      expect(resolved.points.at(-1)).toBe('2026-03-18');
      expect(iso(resolved.end)).toBe('2026-03-19T00:00:00.000Z');
      expect(resolved.points[0]).toBe(bucketKey('day', resolved.start));
    });

    it(`shifts by ${length} days, so shifted windows touch without overlapping`, () => {
      const current = resolvePeriod(period, { now: NOW });
      const previous = resolvePeriod(period, { now: NOW, shift: -1 });
      const next = resolvePeriod(period, { now: NOW, shift: 1 });
      expect(previous.end).toEqual(current.start);
      expect(current.end).toEqual(next.start);
      expect(previous.points).toHaveLength(length);
      expect(next.points).toHaveLength(length);
    });
  });

  it('rolling7d starts 6 days before the reference day', () => {
    const resolved = resolvePeriod('rolling7d', { now: NOW });
    expect(iso(resolved.start)).toBe('2026-03-12T00:00:00.000Z');
    expect(resolved.points).toEqual(days('2026-03-12T00:00:00Z', 7));
  });

  it('rolling7d shifted back one window ends 7 days before the reference day', () => {
    const resolved = resolvePeriod('rolling7d', { now: NOW, shift: -1 });
    expect(resolved.points[0]).toBe('2026-03-05');
    expect(resolved.points.at(-1)).toBe('2026-03-11');
  });

  it('rolling28d covers February of a leap year up to 1 March', () => {
    const resolved = resolvePeriod('rolling28d', { now: NOW, reference: at('2028-03-01T08:00:00Z') });
    expect(resolved.points[0]).toBe('2028-02-03');
    expect(resolved.points).toContain('2028-02-29');
    expect(resolved.points.at(-1)).toBe('2028-03-01');
  });

  it('rolling28d shifted forward two windows', () => {
    const resolved = resolvePeriod('rolling28d', { now: NOW, shift: 2 });
    expect(resolved.points[0]).toBe('2026-04-16');
    expect(resolved.points.at(-1)).toBe('2026-05-13');
  });

  describe('rolling12m', () => {
    it('is the 12 months ending with the reference month, one point per month', () => {
      const resolved = resolvePeriod('rolling12m', { now: NOW });
      expect(iso(resolved.start)).toBe('2025-04-01T00:00:00.000Z');
      expect(iso(resolved.end)).toBe('2026-04-01T00:00:00.000Z');
      expect(resolved.pointGranularity).toBe('month');
      expect(resolved.points).toEqual([
        '2025-04',
        '2025-05',
        '2025-06',
        '2025-07',
        '2025-08',
        '2025-09',
        '2025-10',
        '2025-11',
        '2025-12',
        '2026-01',
        '2026-02',
        '2026-03',
      ]);
    });

    it('shifts by 12 months', () => {
      const resolved = resolvePeriod('rolling12m', { now: NOW, shift: -1 });
      expect(resolved.points[0]).toBe('2024-04');
      expect(resolved.points.at(-1)).toBe('2025-03');
      expect(iso(resolved.end)).toBe('2025-04-01T00:00:00.000Z');
    });

    it('of December is the calendar year', () => {
      const resolved = resolvePeriod('rolling12m', { now: at('2026-12-31T23:00:00Z') });
      expect(resolved.points[0]).toBe('2026-01');
      expect(resolved.points.at(-1)).toBe('2026-12');
    });
  });

  it('gives points that match start and end for every period', () => {
    for (const period of STAT_PERIODS) {
      const resolved = resolvePeriod(period, { now: NOW, reference: at('2028-02-29T12:00:00Z'), shift: -1, firstBucketYear: 2020 });
      const { pointGranularity, points, start, end } = resolved;
      expect(points[0]).toBe(bucketKey(pointGranularity, start));
      expect(iso(addBuckets(pointGranularity, parseBucketKey(pointGranularity, points.at(-1)!), 1))).toBe(iso(end));
      expect([...points].sort()).toEqual(points);
      expect(new Set(points).size).toBe(points.length);
    }
  });

  it('rejects an invalid reference, a fractional shift or a fractional first year', () => {
    expect(() => resolvePeriod('day', { now: NOW, reference: new Date('not a date') })).toThrow(RangeError);
    expect(() => resolvePeriod('rolling28d', { now: NOW, shift: 0.5 })).toThrow(RangeError);
    expect(() => resolvePeriod('lifetime', { now: NOW, firstBucketYear: 2024.5 })).toThrow(RangeError);
  });
});
