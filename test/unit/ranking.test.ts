import fc from 'fast-check';
import { TOP_PERIODS } from '../../shared/periods';
import {
  currentBuckets,
  mergeTopList,
  needsFullRecount,
  QUALITY_ORDERS,
  qualityCandidates,
  qualityOrder,
  rankItems,
  rankItemsByScore,
  rankSets,
  rankSetsByScore,
  sameTopList,
  TOP_LIST_DEPTH,
  type PeriodCounts,
  type PeriodScores,
  type QualityOrder,
  type ScoreBounds,
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

describe('rankings by quality', () => {
  const bounds = (low: number, high: number): ScoreBounds => ({ low, high });
  /** A list of one set from entities given as [id, count, low, high] in every period. */
  const listOf = (entries: [string, number, number, number][], now = monday, depth = TOP_LIST_DEPTH) =>
    mergeTopList(
      undefined,
      {
        set: all(entries.reduce((sum, [, count]) => sum + count, 0)),
        items: new Map(entries.map(([id, count]) => [id, all(count)])),
        schema: 'yes-no',
        setScores: TOP_PERIODS.map(() => bounds(0.4, 0.6)),
        scores: new Map(entries.map(([id, , low, high]) => [id, TOP_PERIODS.map(() => bounds(low, high))])),
      },
      now,
      depth,
    );
  const ids = (entries: { id: string }[]) => entries.map((entry) => entry.id);

  it('orders best by the low end descending, worst by the high end ascending; ties by count (more first), then id', () => {
    const list = listOf([
      ['a', 20, 0.5, 0.9],
      ['b', 30, 0.5, 0.7],
      ['c', 30, 0.5, 0.8],
      ['d', 20, 0.2, 0.7],
      ['e', 20, 0.6, 0.7],
    ]);
    const rank = (direction: QualityOrder) => ids(rankItemsByScore([{ contentSetId: 's', list }], 'week', direction, { now: monday, minCount: 1, size: 10 }));
    // Best: e (0.6); then b, c (0.5, 30 each: by id); then a (0.5, 20); then d.
    expect(rank('best')).toEqual(['e', 'b', 'c', 'a', 'd']);
    // Worst: b (0.7, 30), then d and e (0.7, 20 each: by id), then c (0.8), then a.
    expect(rank('worst')).toEqual(['b', 'd', 'e', 'c', 'a']);
  });

  it('leaves out entities with fewer than minCount responses, and ranks sets by their own scores', () => {
    const list = listOf([
      ['a', 5, 0.9, 1],
      ['b', 10, 0.1, 0.3],
      ['c', 12, 0.5, 0.6],
    ]);
    const lists = [{ contentSetId: 's', list }];
    expect(ids(rankItemsByScore(lists, 'rolling7d', 'best', { now: monday, minCount: 10, size: 10 }))).toEqual(['c', 'b']);
    expect(ids(rankItemsByScore(lists, 'rolling7d', 'best', { now: monday, minCount: 6, size: 1 }))).toEqual(['c']);
    expect(ids(rankItemsByScore(lists, 'rolling7d', 'worst', { now: monday, minCount: 1, size: 10 }))).toEqual(['b', 'c', 'a']);
    expect(rankSetsByScore(lists, 'month', 'best', { now: monday, minCount: 27, size: 10 })).toEqual([
      { id: 's', contentSetId: 's', count: 27, score: bounds(0.4, 0.6) },
    ]);
    expect(rankSetsByScore(lists, 'month', 'best', { now: monday, minCount: 28, size: 10 })).toEqual([]);
  });

  it('ranks nothing in a calendar period whose bucket has passed, and keeps rolling scores until recounted', () => {
    const lists = [{ contentSetId: 's', list: listOf([['a', 20, 0.5, 0.9]]) }];
    expect(rankItemsByScore(lists, 'week', 'best', { now: nextMonday, minCount: 1, size: 10 })).toEqual([]);
    expect(ids(rankItemsByScore(lists, 'rolling28d', 'worst', { now: nextMonday, minCount: 1, size: 10 }))).toEqual(['a']);
  });

  it('keeps, past the top by count, an item that fewer than depth others with at least its count rank above', () => {
    // Depth 1: by count only b (most answered) would stay; a is the best of those with at least 2 responses, c the worst of all.
    const list = listOf(
      [
        ['a', 2, 0.8, 0.9],
        ['b', 9, 0.5, 0.6],
        ['c', 1, 0.1, 0.2],
        ['d', 1, 0.3, 0.4],
        ['e', 2, 0.4, 0.7],
      ],
      monday,
      1,
    );
    expect([...list.items.keys()].sort()).toEqual(['a', 'b', 'c']);
    expect([...list.scores!.keys()].sort()).toEqual(['a', 'b', 'c']);
  });

  it('compares the ends of intervals to 4 decimal places: ends that agree to them tie, then more responses first, then the id', () => {
    const entries = [
      { id: 'a', count: 3, score: bounds(0.61234, 0.9) },
      { id: 'b', count: 5, score: bounds(0.61226, 0.90004) },
      { id: 'c', count: 5, score: bounds(0.6123, 0.8999) },
      { id: 'd', count: 9, score: bounds(0.61229, 0.9) },
    ];
    // Best: every low end is 0.6123 to 4 places (0.61234 is the highest): by count, then id.
    expect([...entries].sort(qualityOrder('best')).map((entry) => entry.id)).toEqual(['d', 'b', 'c', 'a']);
    // Worst: 0.8999 (c) first; a, b and d have a high end of 0.9000.
    expect([...entries].sort(qualityOrder('worst')).map((entry) => entry.id)).toEqual(['c', 'd', 'b', 'a']);
  });

  it('keeps recounted scores to the places they rank at, so that a recount of the same counts is the same list', () => {
    const recount = {
      set: all(2),
      items: new Map([['a', all(2)]]),
      setScores: TOP_PERIODS.map(() => bounds(0.123456, 0.654321)),
      scores: new Map([['a', TOP_PERIODS.map(() => bounds(0.3333333, 0.6666666))]]),
    };
    const list = mergeTopList(undefined, recount, monday);
    expect(list.scores!.get('a')![week]).toEqual(bounds(0.3333, 0.6667));
    expect(list.setScores![week]).toEqual(bounds(0.1235, 0.6543));
    expect(sameTopList(list, mergeTopList(list, recount, monday))).toBe(true);
  });

  it('counts the entries ranked above with at least the same count (qualityCandidates)', () => {
    const entries = [
      { id: 'x', count: 5, score: bounds(0.9, 1) },
      { id: 'y', count: 3, score: bounds(0.8, 1) },
      { id: 'z', count: 5, score: bounds(0.7, 1) },
      { id: 'w', count: 1, score: bounds(0.6, 1) },
    ];
    // Best at depth 1: x alone (y and z each have x above, w all three). At depth 2: z has only x above (y has fewer responses).
    expect([...qualityCandidates(entries, 'best', 1)]).toEqual(['x']);
    expect([...qualityCandidates(entries, 'best', 2)].sort()).toEqual(['x', 'y', 'z']);
    // Worst, every high end equal: by count, then id: x, z, y, w.
    expect([...qualityCandidates(entries, 'worst', 1)]).toEqual(['x']);
  });
});

describe('a list kept by quality', () => {
  it('ranks best and worst like a recount of every entity, for every ranked period, minCount and size up to its depth (fast-check)', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    // Few distinct counts and bounds, so that ties are common.
    const periodEntry = fc.record({ count: fc.integer({ min: 0, max: 4 }), low: fc.constantFrom(0, 0.25, 0.5), width: fc.constantFrom(0, 0.25, 0.5) });
    const itemData = fc.array(periodEntry, { minLength: TOP_PERIODS.length, maxLength: TOP_PERIODS.length });
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...ids), itemData, { minKeys: 1 }),
        // The runs of the ranker: each recounts some items (an item counted in several takes its final data in the last).
        fc.array(fc.subarray(ids), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 5 }),
        (data, runs, depth, minCount) => {
          const counts = (id: string) => data[id].map((entry) => entry.count);
          const scores = (id: string): PeriodScores => data[id].map((entry) => (entry.count > 0 ? { low: entry.low, high: entry.low + entry.width } : null));
          const truth = {
            buckets: currentBuckets(monday),
            set: all(0),
            items: new Map<string, PeriodCounts>(),
            scores: new Map<string, PeriodScores>(),
            schema: 'yes-no',
          };
          let list: TopList | undefined;
          // Every item is counted at least once, in some run, and then with its data.
          const recounts = [...runs, Object.keys(data)].map((run) => run.filter((id) => data[id]));
          for (const [index, run] of recounts.entries()) {
            const last = index === recounts.length - 1;
            const recounted = run.filter((id) => (last ? !truth.items.has(id) : true));
            for (const id of recounted) {
              truth.items.set(id, counts(id));
              truth.scores.set(id, scores(id));
            }
            list = mergeTopList(
              list,
              {
                set: all(0),
                items: new Map(recounted.map((id) => [id, counts(id)])),
                schema: 'yes-no',
                setScores: all(0).map(() => null),
                scores: new Map(recounted.map((id) => [id, scores(id)])),
              },
              monday,
              depth,
            );
          }
          for (const period of TOP_PERIODS) {
            for (const direction of QUALITY_ORDERS) {
              const options = { now: monday, minCount, size: depth };
              expect(rankItemsByScore([{ contentSetId: 's', list: list! }], period, direction, options)).toEqual(
                rankItemsByScore([{ contentSetId: 's', list: truth }], period, direction, options),
              );
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
