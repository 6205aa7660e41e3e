import { ANONYMOUS } from '../../functions/api/auth';
import { resolvePeriod, STAT_PERIODS, TOP_PERIODS, type StatPeriod, type TopPeriod } from '../../shared/periods';
import { parseBucketKey } from '../support/bucket-keys';
import type { ResponseCreateModel } from '../../functions/api/response-models';
import { createResponse } from '../../functions/operations/response-collection';
import { eraseResponses } from '../../functions/operations/response-erasure';
import { editResponse, removeResponse } from '../../functions/operations/response-revocation';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, pool, startTestApi, type AccountKeys, type TestApi } from '../support/api';

/**
 * A seeded random workload (creates, edits, removals and erasures, by ids and by person,
 * over ~10 days of the last three weeks, 4 sets of different schemas in 2 projects, 15
 * content items), counted by the real stream consumer; then getStats of every entity, for
 * every period and several references and shifts, the top queries and getAggregates are
 * compared with a brute-force recomputation from a ledger of what was done. Equality is
 * exact.
 *
 * AGG_SEED=<n> replays another workload; a failure prints the seed.
 */
const SEED = Number(process.env.AGG_SEED ?? 20261122);
const OPERATIONS = 300;
const ITEM_COUNT = 15;
const DAY = 86_400_000;

function mulberry32(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

/**
 * How each value counts, written out here rather than taken from the schema module:
 * option index, sentiment, intensity, rating. (github reactions, default tags, rating 1..5)
 */
interface Counted {
  option: number;
  sentiment?: number;
  intensity?: number;
  rating?: number;
}
type SchemaName = 'yes-no' | 'reaction' | 'rating' | 'tagged-message';
const GITHUB: [string, number, number][] = [
  ['+1', 1, 0.5],
  ['-1', -1, 0.5],
  ['laugh', 1, 0.7],
  ['confused', -0.5, 0.5],
  ['heart', 1, 0.9],
  ['hooray', 1, 0.8],
  ['rocket', 1, 1],
  ['eyes', 0, 0.3],
];
const TAGS: [string, number][] = [
  ['idea', 0.5],
  ['error', -1],
  ['other', 0],
];
const VALUES: Record<SchemaName, { value: unknown; counted: Counted }[]> = {
  'yes-no': [
    ...['y', 'yes', '+1', true].map((value) => ({ value, counted: { option: 0, sentiment: 1 } })),
    ...['n', 'no', '-1', false].map((value) => ({ value, counted: { option: 1, sentiment: -1 } })),
  ],
  reaction: GITHUB.map(([value, sentiment, intensity], option) => ({ value, counted: { option, sentiment, intensity } })),
  rating: [1, 2, 3, 4, 5, '4'].map((value) => ({ value, counted: { option: Number(value) - 1, rating: Number(value) } })),
  'tagged-message': TAGS.flatMap(([tag, sentiment], option) => [
    { value: { tag }, counted: { option, sentiment } },
    { value: { tag, message: `about ${tag}` }, counted: { option, sentiment } },
  ]),
};
const OPTION_COUNT: Record<SchemaName, number> = { 'yes-no': 2, reaction: 8, rating: 5, 'tagged-message': 3 };

interface SetInfo {
  id: string;
  projectId: string;
  schema: SchemaName;
}
interface LedgerEntry {
  responseId: string;
  token: string;
  set: SetInfo;
  itemKey: string;
  createdAt: Date;
  counted: Counted;
  active: boolean;
  /** The person the response names (profiling.userId), if any. */
  userId?: string;
  /** Deleted by responses/erase: counted nowhere, like a removed one, and gone from the table. */
  erased: boolean;
}

const USERS = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'];

let api: TestApi;
let owner: AccountKeys;
const projects: string[] = [];
const sets: SetInfo[] = [];
const itemIds = new Map<string, string>();
const ledger: LedgerEntry[] = [];
const now = new Date();
const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
const tally = { create: 0, edit: 0, remove: 0, eraseIds: 0, eraseUser: 0, erased: 0 };

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('bruteforce');
  for (const name of ['P-one', 'P-two']) projects.push((await api.call('projects/create', [{ name }], { key: owner.admin })).body.id);
  const layout: [SchemaName, number][] = [
    ['reaction', 0],
    ['rating', 0],
    ['tagged-message', 1],
    ['yes-no', 1],
  ];
  for (const [schema, project] of layout) {
    const { body } = await api.call(
      'sets/create',
      [{ projectId: projects[project], key: schema, schema, metadata: { name: schema, revokeWindow: 7 * 24 * 3600 } }],
      { key: owner.admin },
    );
    sets.push({ id: body.id, projectId: projects[project], schema });
  }

  // Ten distinct days among the last 21 (today included), times before now.
  const offsets = new Set<number>([0]);
  while (offsets.size < 10) offsets.add(Math.floor(random() * 21));
  const days = [...offsets];
  const instant = () => {
    const day = pick(days);
    const at = today - day * DAY + Math.floor(random() * DAY);
    return new Date(Math.min(at, now.getTime() - 5 * 60_000));
  };

  const store = defaultStore().store;
  for (let step = 0; step < OPERATIONS; step++) {
    const live = ledger.filter((entry) => entry.active);
    const stored = ledger.filter((entry) => !entry.erased);
    const roll = random();
    if (live.length === 0 || roll < 0.55) {
      const itemIndex = Math.floor(random() * ITEM_COUNT);
      const set = sets[itemIndex % sets.length];
      const itemKey = `https://site.example/${set.schema}/page-${itemIndex}?a=1&b=${itemIndex}`;
      const { value, counted } = pick(VALUES[set.schema]);
      const createdAt = instant();
      const userId = random() < 0.4 ? pick(USERS) : undefined;
      const input = {
        contentSetId: set.id,
        key: itemKey,
        value: value as ResponseCreateModel['value'],
        revokable: true,
        ...(userId ? { profiling: { userId } } : {}),
      };
      const result = await createResponse(store, ANONYMOUS, input, { headers: {} }, createdAt);
      ledger.push({ responseId: result.responseId, token: result.revokable!.token, set, itemKey, createdAt, counted, active: true, userId, erased: false });
      if (!itemIds.has(itemKey)) {
        const { data } = await store.entities.Response.get({ id: result.responseId }).go();
        itemIds.set(itemKey, data!.contentItemId);
      }
      tally.create++;
    } else if (roll < 0.77) {
      const entry = pick(live);
      const { value, counted } = pick(VALUES[entry.set.schema]);
      await editResponse(store, ANONYMOUS, { responseId: entry.responseId, revokeToken: entry.token, value }, new Date(entry.createdAt.getTime() + 30_000));
      entry.counted = counted;
      tally.edit++;
    } else if (roll < 0.9) {
      const entry = pick(live);
      await removeResponse(store, ANONYMOUS, { responseId: entry.responseId, revokeToken: entry.token }, new Date(entry.createdAt.getTime() + 60_000));
      entry.active = false;
      tally.remove++;
    } else if (roll < 0.96) {
      // Erase one to three stored responses (active or removed) by id, with an id erased before among them.
      const chosen = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(stored));
      const gone = ledger.filter((entry) => entry.erased);
      const ids = [...chosen.map((entry) => entry.responseId), ...(gone.length > 0 ? [pick(gone).responseId] : [])];
      const { erased } = await eraseResponses(store, owner.accountId, { responseIds: ids });
      expect(erased).toBe(new Set(chosen).size);
      for (const entry of chosen) Object.assign(entry, { active: false, erased: true });
      tally.eraseIds++;
      tally.erased += erased;
    } else {
      const userId = pick(USERS);
      const theirs = ledger.filter((entry) => entry.userId === userId && !entry.erased);
      const { erased, more } = await eraseResponses(store, owner.accountId, { userId });
      expect([erased, more]).toEqual([theirs.length, false]);
      for (const entry of theirs) Object.assign(entry, { active: false, erased: true });
      tally.eraseUser++;
      tally.erased += erased;
    }
  }
  await api.drainStream();
}, 600_000);
afterAll(() => api.close());

/* Brute force */

interface Subject {
  entity: 'project' | 'contentSet' | 'contentItem';
  entityId: string;
  projectId: string;
  contentSetId?: string;
  schema?: SchemaName;
  /** Every response ever written on the subject (removed ones too: their buckets exist). */
  responses: () => LedgerEntry[];
}

function subjects(): Subject[] {
  const list: Subject[] = projects.map((projectId) => ({
    entity: 'project',
    entityId: projectId,
    projectId,
    responses: () => ledger.filter((entry) => entry.set.projectId === projectId),
  }));
  for (const set of sets) {
    list.push({
      entity: 'contentSet',
      entityId: set.id,
      projectId: set.projectId,
      contentSetId: set.id,
      schema: set.schema,
      responses: () => ledger.filter((entry) => entry.set === set),
    });
  }
  for (const [itemKey, itemId] of itemIds) {
    const set = ledger.find((entry) => entry.itemKey === itemKey)!.set;
    list.push({
      entity: 'contentItem',
      entityId: itemId,
      projectId: set.projectId,
      contentSetId: set.id,
      schema: set.schema,
      responses: () => ledger.filter((entry) => entry.itemKey === itemKey),
    });
  }
  return list;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6 || 0;
const meanOf = (values: number[]) => (values.length > 0 ? round(values.reduce((sum, value) => sum + value, 0) / values.length) : 0);

interface Filter {
  reference?: string;
  shift?: number;
}

/**
 * The expected getStats answer, computed once per subject, period and filter (the ledger is
 * complete once beforeAll is done): the getStats, top and getAggregates tests ask for the
 * same ones again.
 */
const expectedCache = new Map<string, ReturnType<typeof computeExpectedStats>>();
function expectedStats(subject: Subject, period: StatPeriod, filter: Filter) {
  const key = JSON.stringify([subject.entityId, period, filter.reference, filter.shift]);
  let expected = expectedCache.get(key);
  if (!expected) {
    expected = computeExpectedStats(subject, period, filter);
    expectedCache.set(key, expected);
  }
  return expected;
}

function computeExpectedStats(subject: Subject, period: StatPeriod, filter: Filter) {
  const all = subject.responses();
  const years = all.map((entry) => entry.createdAt.getUTCFullYear());
  const resolved = resolvePeriod(period, {
    reference: filter.reference === undefined ? undefined : new Date(filter.reference),
    shift: filter.shift,
    firstBucketYear: years.length > 0 ? Math.min(...years) : undefined,
    now,
  });
  const starts = resolved.points.map((key) => parseBucketKey(resolved.pointGranularity, key).getTime());
  const pointsOf = starts.map((start, index) => {
    const end = index + 1 < starts.length ? starts[index + 1] : resolved.end.getTime();
    return all.filter((entry) => entry.active && entry.createdAt.getTime() >= start && entry.createdAt.getTime() < end).map((entry) => entry.counted);
  });
  const total = pointsOf.flat();
  const optionCount = subject.schema ? OPTION_COUNT[subject.schema] : 1;
  const countsOf = (counted: Counted[]) => Array.from({ length: optionCount }, (_, option) => counted.filter((entry) => entry.option === option).length);
  const sentiment = (counted: Counted[]) => meanOf(counted.map((entry) => entry.sentiment!));
  const intensity = (counted: Counted[]) => meanOf(counted.map((entry) => entry.intensity!));
  const rating = (counted: Counted[]) => meanOf(counted.map((entry) => entry.rating!));
  const base = { period, values: countsOf(total), count: total.length };
  let data: Record<string, unknown>;
  switch (subject.schema) {
    case undefined:
      data = { schema: 'pulse', period, values: [total.length], count: total.length, points: pointsOf.map((point) => point.length) };
      break;
    case 'yes-no': {
      const [yes, no] = countsOf(total);
      data = { schema: 'yes-no', ...base, counts: [yes, no], summary: yes + no > 0 ? round((yes - no) / (yes + no)) : 0, points: pointsOf.map(countsOf) };
      break;
    }
    case 'reaction':
      data = {
        schema: 'reaction',
        ...base,
        counts: countsOf(total),
        summary: sentiment(total),
        intensity: intensity(total),
        points: pointsOf.map((point) => [countsOf(point), sentiment(point), intensity(point)]),
      };
      break;
    case 'rating':
      data = { schema: 'rating', ...base, summary: rating(total), points: pointsOf.map((point) => [point.length, rating(point)]) };
      break;
    case 'tagged-message':
      data = {
        schema: 'tagged-message',
        ...base,
        counts: countsOf(total),
        summary: sentiment(total),
        points: pointsOf.map((point) => [countsOf(point), sentiment(point)]),
      };
      break;
  }
  const referenceDate = resolved.start.toISOString();
  return {
    id: `${subject.entity}:${subject.entityId}:${period}:${referenceDate.slice(0, 10)}`,
    accountId: owner.accountId,
    projectId: subject.projectId,
    ...(subject.contentSetId ? { contentSetId: subject.contentSetId } : {}),
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    entity: subject.entity,
    entityId: subject.entityId,
    period,
    referenceDate,
    data,
    count: total.length,
    ...('summary' in data ? { summary: data.summary } : {}),
  };
}

const RESOURCE = { project: 'projects', contentSet: 'sets', contentItem: 'contents' } as const;

describe(`seeded workload (AGG_SEED=${SEED})`, () => {
  it('did what it was meant to', () => {
    expect(tally.create + tally.edit + tally.remove + tally.eraseIds + tally.eraseUser).toBe(OPERATIONS);
    expect(tally.edit).toBeGreaterThan(30);
    expect(tally.remove).toBeGreaterThan(15);
    expect(tally.eraseIds).toBeGreaterThan(5);
    expect(tally.eraseUser).toBeGreaterThan(3);
    expect(tally.erased).toBeGreaterThan(20);
    expect(itemIds.size).toBeGreaterThanOrEqual(12);
    const days = new Set(ledger.map((entry) => entry.createdAt.toISOString().slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(8);
    // Means are compared exactly: below 64 responses per entity and period, no mean of
    // these sentiments/intensities sits on a rounding boundary (see expectedStats).
    for (const set of sets) expect(ledger.filter((entry) => entry.set === set && entry.active).length).toBeLessThan(64);
  });

  it('getStats equals the brute-force aggregation for every entity, period, reference and shift', async () => {
    const filters: Filter[] = [
      {},
      { shift: -1 },
      { shift: -2 },
      { shift: 1 },
      { reference: new Date(today - 10 * DAY + 3_600_000).toISOString() },
      { reference: new Date(today - 17 * DAY).toISOString().slice(0, 10), shift: -1 },
      { reference: new Date(today - 5 * DAY).toISOString().slice(0, 10), shift: 1 },
    ];
    // Every subject for every period; the references and shifts for every period of the
    // projects, the sets and the busiest item of each set (so each entity kind and schema with
    // every filter), not of every item: the other items of a set take the same code path over
    // other data, and crossing them too tripled the calls (1,176 instead of ~620) for no path
    // more. The period and filter arithmetic itself has exhaustive unit tests (periods.test.ts).
    const all = subjects();
    const busiest = sets.map(
      (set) =>
        all
          .filter((subject) => subject.entity === 'contentItem' && subject.contentSetId === set.id)
          .sort((a, b) => b.responses().length - a.responses().length)[0],
    );
    const crossed = all.filter((subject) => subject.entity !== 'contentItem' || busiest.includes(subject));
    const cases = all.flatMap((subject) =>
      STAT_PERIODS.flatMap((period) => (crossed.includes(subject) ? filters : [{}]).map((filter) => ({ subject, period, filter }))),
    );
    expect(busiest.every(Boolean)).toBe(true);
    expect(cases.length).toBeGreaterThan(600);
    const mismatches: string[] = [];
    let nonZero = 0;
    await pool(cases, 8, async ({ subject, period, filter }) => {
      const answer = await api.call(`${RESOURCE[subject.entity]}/getStats`, [subject.entityId, { period, ...filter }], { key: owner.viewer });
      const expected = expectedStats(subject, period, filter);
      if (expected.count > 0) nonZero++;
      try {
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual(expected);
      } catch (error) {
        mismatches.push(`${subject.entity} ${subject.entityId} ${period} ${JSON.stringify(filter)}: ${(error as Error).message.slice(0, 2000)}`);
      }
    });
    expect({ mismatches: mismatches.length, first: mismatches.slice(0, 3) }).toEqual({ mismatches: 0, first: [] });
    // Something was counted in most periods, so the comparison was not between zeros.
    expect(nonZero).toBeGreaterThan(cases.length / 3);
  }, 600_000);

  it('top equals the brute-force ranking for every scope and period', async () => {
    const all = subjects();
    const items = all.filter((subject) => subject.entity === 'contentItem');
    const setSubjects = all.filter((subject) => subject.entity === 'contentSet');
    const scopes: { resource: 'contents' | 'sets'; query: Record<string, unknown>; candidates: Subject[] }[] = [
      { resource: 'contents', query: {}, candidates: items },
      ...projects.map((projectId) => ({
        resource: 'contents' as const,
        query: { projectId },
        candidates: items.filter((item) => item.projectId === projectId),
      })),
      ...sets.map((set) => ({
        resource: 'contents' as const,
        query: { contentSetId: set.id },
        candidates: items.filter((item) => item.contentSetId === set.id),
      })),
      { resource: 'sets', query: {}, candidates: setSubjects },
      ...projects.map((projectId) => ({
        resource: 'sets' as const,
        query: { projectId },
        candidates: setSubjects.filter((set) => set.projectId === projectId),
      })),
    ];
    // A short list (3), the default (10) and a long one (100). Where a scope has at most 10
    // candidates the default and 100 both answer every ranked entry, the same comparison twice:
    // 100 is asked only where it can differ (the account's items).
    const cases = scopes.flatMap((scope) =>
      (TOP_PERIODS as readonly TopPeriod[]).flatMap((period) =>
        (scope.candidates.length > 10 ? [3, undefined, 100] : [3, undefined]).map(($size) => ({ scope, period, $size })),
      ),
    );
    expect(cases.some((testCase) => testCase.$size === 100)).toBe(true);
    // Each call reads a list and the stats of every entry: a few at a time, as the getStats cases.
    const compared = await pool(cases, 8, async ({ scope, period, $size }) => {
      const expected = new Map(scope.candidates.map((subject) => [subject.entityId, expectedStats(subject, period, {})]));
      const ranked = [...expected.values()].filter((stats) => stats.count > 0).sort((a, b) => b.count - a.count);
      const size = $size ?? 10;
      const answer = await api.call(`${scope.resource}/top`, [{ ...scope.query, period, ...($size ? { $size } : {}) }], { key: owner.viewer });
      const context = `${scope.resource}/top ${JSON.stringify(scope.query)} ${period} $size ${$size}`;
      expect([context, answer.status]).toEqual([context, 200]);
      const entries = answer.body as { id: string; stats: { count: number } }[];
      expect([context, entries.length]).toEqual([context, Math.min(size, ranked.length)]);
      for (const entry of entries) expect(entry.stats).toEqual(expected.get(entry.id));
      const counts = entries.map((entry) => entry.stats.count);
      // Highest first; ties may come in any order, but nothing left out outranks the last entry.
      expect(counts).toEqual(ranked.slice(0, entries.length).map((stats) => stats.count));
      expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
      return entries.length;
    });
    expect(compared.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(200);
  }, 600_000);

  it('getAggregates of every item equals its brute-force lifetime counts', async () => {
    const items = subjects().filter((subject) => subject.entity === 'contentItem');
    await pool(items, 8, async (item) => {
      const expected = expectedStats(item, 'lifetime', {});
      const answer = await api.call('responses/getAggregates', [item.entityId], { key: owner.viewer });
      expect({ item: item.entityId, values: answer.body }).toEqual({ item: item.entityId, values: (expected.data as { values: number[] }).values });
    });
  });

  it('erased responses are gone from the table, the others stored', async () => {
    const stored = new Set<string>();
    for (const projectId of projects) {
      let cursor: string | undefined;
      do {
        const { body } = await api.call('responses/list', [{ projectId, state: 'all', $size: 100, ...(cursor ? { cursor } : {}) }], { key: owner.viewer });
        for (const item of body.items) stored.add(item.id);
        cursor = body.cursor;
      } while (cursor);
    }
    expect([...stored].sort()).toEqual(
      ledger
        .filter((entry) => !entry.erased)
        .map((entry) => entry.responseId)
        .sort(),
    );
    for (const userId of USERS) {
      const { body } = await api.call('responses/list', [{ userId, state: 'all', $size: 100 }], { key: owner.viewer });
      expect(body.items.map((item: { id: string }) => item.id).sort()).toEqual(
        ledger
          .filter((entry) => entry.userId === userId && !entry.erased)
          .map((entry) => entry.responseId)
          .sort(),
      );
    }
  });
});
