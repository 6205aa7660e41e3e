import fc from 'fast-check';
import { TOP_PERIODS } from '../../shared/periods';
import {
  currentBuckets,
  mergeTopList,
  needsFullRecount,
  rankItems,
  rankSets,
  sameTopList,
  type PeriodCounts,
  type TopList,
} from '../../functions/domain/ranking';

const week = TOP_PERIODS.indexOf('week');
const rolling7d = TOP_PERIODS.indexOf('rolling7d');
const day = TOP_PERIODS.indexOf('day');
const lifetime = TOP_PERIODS.indexOf('lifetime');
const monday = new Date('2026-11-23T10:00:00Z');
const tuesday = new Date('2026-11-24T10:00:00Z');
const nextMonday = new Date('2026-11-30T10:00:00Z');

/** Counts with `value` in every period. */
const all = (value: number): PeriodCounts => TOP_PERIODS.map(() => value);

describe('currentBuckets', () => {
  it("names the calendar bucket of calendar periods, the last day (month) of rolling windows, and lifetime's one bucket", () => {
    expect(Object.fromEntries(TOP_PERIODS.map((period, index) => [period, currentBuckets(tuesday)[index]]))).toEqual({
      day: 'day#2026-11-24',
      lifetime: 'lifetime',
      week: 'week#2026-11-23',
      month: 'month#2026-11',
      year: 'year#2026',
      rolling7d: 'day#2026-11-24',
      rolling28d: 'day#2026-11-24',
      rolling12m: 'month#2026-11',
    });
  });
});

describe('mergeTopList', () => {
  it('replaces the recounted counts and keeps the others', () => {
    const first = mergeTopList(
      undefined,
      {
        set: all(3),
        items: new Map([
          ['a', all(2)],
          ['b', all(1)],
        ]),
      },
      monday,
    );
    const second = mergeTopList(first, { set: all(4), items: new Map([['b', all(2)]]) }, monday);
    expect(second.set).toEqual(all(4));
    expect(Object.fromEntries(second.items)).toEqual({ a: all(2), b: all(2) });
  });

  it('drops items with no count left, and keeps only the deepest `depth` of some period', () => {
    const counts = new Map<string, PeriodCounts>([
      ['a', [5, 0, 0, 0, 0, 0]],
      ['b', [4, 0, 0, 0, 0, 0]],
      ['c', [0, 0, 0, 0, 0, 9]],
      ['d', [1, 0, 0, 0, 0, 0]],
      ['e', all(0)],
    ]);
    const list = mergeTopList(undefined, { set: all(1), items: counts }, monday, 2);
    expect([...list.items.keys()].sort()).toEqual(['a', 'b', 'c']);
  });

  it('counts 0 for a calendar bucket that has passed, and keeps rolling counts until they are recounted', () => {
    const list = mergeTopList(undefined, { set: all(2), items: new Map([['a', all(2)]]) }, monday);
    const nextWeek = mergeTopList(list, { set: all(0), items: new Map() }, nextMonday);
    expect(nextWeek.items.get('a')![week]).toBe(0);
    expect(nextWeek.items.get('a')![rolling7d]).toBe(2);
    expect(nextWeek.buckets).toEqual(currentBuckets(nextMonday));
  });

  it('ranks the current UTC day from 0 each day, and lifetime across every bucket', () => {
    const list = mergeTopList(undefined, { set: all(3), items: new Map([['a', all(3)]]) }, monday);
    const nextDay = mergeTopList(list, { set: all(3), items: new Map() }, tuesday);
    expect(nextDay.items.get('a')![day]).toBe(0);
    expect(nextDay.items.get('a')![lifetime]).toBe(3);
    expect(rankItems([{ contentSetId: 's', list }], 'day', tuesday, 10)).toEqual([]);
    expect(rankItems([{ contentSetId: 's', list }], 'lifetime', nextMonday, 10)).toEqual([{ id: 'a', count: 3, contentSetId: 's' }]);
  });
});

describe('needsFullRecount', () => {
  it('is true once a rolling window of a non-empty list has slid, and false for an empty or current list', () => {
    const list = mergeTopList(undefined, { set: all(1), items: new Map([['a', all(1)]]) }, monday);
    expect(needsFullRecount(list, monday)).toBe(false);
    expect(needsFullRecount(list, tuesday)).toBe(true);
    expect(needsFullRecount(undefined, tuesday)).toBe(false);
    expect(needsFullRecount(mergeTopList(undefined, { set: all(0), items: new Map() }, monday), tuesday)).toBe(false);
  });

  it('is true when the lifetime counts are stale (a list of the layout before lifetime was ranked)', () => {
    const list = mergeTopList(undefined, { set: all(1), items: new Map([['a', all(1)]]) }, monday);
    expect(needsFullRecount({ ...list, buckets: list.buckets.map((bucket, index) => (index === lifetime ? '' : bucket)) }, monday)).toBe(true);
  });
});

describe('rankItems and rankSets', () => {
  const lists: { contentSetId: string; list: TopList }[] = [
    {
      contentSetId: 's1',
      list: mergeTopList(
        undefined,
        {
          set: all(5),
          items: new Map([
            ['a', all(3)],
            ['b', all(2)],
          ]),
        },
        monday,
      ),
    },
    {
      contentSetId: 's2',
      list: mergeTopList(
        undefined,
        {
          set: all(7),
          items: new Map([
            ['c', all(3)],
            ['d', all(4)],
          ]),
        },
        monday,
      ),
    },
  ];

  it('merges lists, highest first, ties by id, at most size', () => {
    expect(rankItems(lists, 'week', monday, 3)).toEqual([
      { id: 'd', count: 4, contentSetId: 's2' },
      { id: 'a', count: 3, contentSetId: 's1' },
      { id: 'c', count: 3, contentSetId: 's2' },
    ]);
    expect(rankSets(lists, 'rolling28d', monday, 10).map(({ id, count }) => [id, count])).toEqual([
      ['s2', 7],
      ['s1', 5],
    ]);
  });

  it('ranks nothing in a calendar period whose bucket has passed', () => {
    expect(rankItems(lists, 'week', nextMonday, 10)).toEqual([]);
    expect(rankSets(lists, 'month', new Date('2027-01-04T00:00:00Z'), 10)).toEqual([]);
  });
});

describe('a list kept by recounting what changed', () => {
  it('ranks like a recount of every entity, as long as counts only grow within the buckets (fast-check)', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.constantFrom(...ids), period: fc.nat(TOP_PERIODS.length - 1), votes: fc.integer({ min: 1, max: 5 }) }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 4 }),
        (changes, depth) => {
          const truth = new Map<string, PeriodCounts>();
          let list: TopList | undefined;
          for (const change of changes) {
            const counts = [...(truth.get(change.id) ?? all(0))];
            counts[change.period] += change.votes;
            truth.set(change.id, counts);
            list = mergeTopList(list, { set: all(0), items: new Map([[change.id, counts]]) }, monday, depth);
          }
          if (!list) return;
          const everything = { contentSetId: 's', list: { buckets: currentBuckets(monday), set: all(0), items: truth } };
          for (const period of TOP_PERIODS) {
            expect(rankItems([{ contentSetId: 's', list }], period, monday, depth)).toEqual(rankItems([everything], period, monday, depth));
          }
        },
      ),
    );
  });
});

describe('sameTopList', () => {
  it('compares buckets, the set and the items whatever their order', () => {
    const a = mergeTopList(
      undefined,
      {
        set: all(1),
        items: new Map([
          ['a', all(1)],
          ['b', all(2)],
        ]),
      },
      monday,
    );
    const b = { ...a, items: new Map([...a.items].reverse()) };
    expect(sameTopList(a, b)).toBe(true);
    expect(sameTopList(a, { ...a, set: all(2) })).toBe(false);
    expect(sameTopList(a, mergeTopList(a, { set: all(1), items: new Map() }, tuesday))).toBe(false);
  });
});
