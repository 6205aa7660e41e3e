import { dayRangeQuery } from '../../console/src/lib/format';

/** The start of a local day (the viewer's time zone, as the filters name days), as ISO. */
const localStart = (year: number, month: number, date: number) => new Date(year, month - 1, date).toISOString();

describe('dayRangeQuery: a filter\'s "from" and "to" days as a list query', () => {
  test('no days, no bounds', () => {
    expect(dayRangeQuery('', '')).toEqual({});
  });

  test('"from" is the start of its day; "to", the last day included, becomes the start of the next (the API\'s to is exclusive)', () => {
    expect(dayRangeQuery('2026-11-02', '2026-11-24')).toEqual({ from: localStart(2026, 11, 2), to: localStart(2026, 11, 25) });
    expect(dayRangeQuery('2026-11-24', '2026-11-24')).toEqual({ from: localStart(2026, 11, 24), to: localStart(2026, 11, 25) });
  });

  test('either bound alone', () => {
    expect(dayRangeQuery('2026-11-02', '')).toEqual({ from: localStart(2026, 11, 2) });
    expect(dayRangeQuery('', '2026-11-24')).toEqual({ to: localStart(2026, 11, 25) });
  });

  test('"to" on the last day of a month, of February in a leap year and of a year', () => {
    expect(dayRangeQuery('', '2026-04-30').to).toBe(localStart(2026, 5, 1));
    expect(dayRangeQuery('', '2028-02-28').to).toBe(localStart(2028, 2, 29));
    expect(dayRangeQuery('', '2028-02-29').to).toBe(localStart(2028, 3, 1));
    expect(dayRangeQuery('', '2026-12-31').to).toBe(localStart(2027, 1, 1));
  });
});
