import { ANONYMOUS } from '../../functions/api/auth';
import { bucketKey } from '../../shared/periods';
import { createResponse } from '../../functions/operations/response-collection';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, startTestApi, type AccountKeys, type TestApi, createContentSet } from '../support/api';

/**
 * sets/top and contents/top over the rank indexes, against DynamoDB Local through the real
 * stream consumer. Most responses are sent now (through the API); one item gets responses
 * 45 days ago, which only some periods include.
 */
let api: TestApi;
let owner: AccountKeys;
let stranger: AccountKeys;
let p1: string;
let p2: string;
let strangerProject: string;
const sets: Record<'s1' | 's2' | 's3', string> = { s1: '', s2: '', s3: '' };
let strangerSet: string;
/** Content item id by key. */
const items: Record<string, string> = {};

const DAY = 86_400_000;
const now = new Date();
const old = new Date(now.getTime() - 45 * DAY);
const sameBucket = (granularity: 'week' | 'month' | 'year') => bucketKey(granularity, old) === bucketKey(granularity, now);

async function createSet(account: AccountKeys, projectId: string, schema: string, schemaConfig?: unknown) {
  return createContentSet(api, account.admin, projectId, schema, { schemaConfig, metadata: { name: `${schema} set` } });
}

async function send(contentSetId: string, key: string, value: unknown, times: number) {
  const results = [];
  for (let index = 0; index < times; index++) {
    const { status, body } = await api.call('responses/create', [{ contentSetId, key, value, revokable: true }]);
    expect(status).toBe(200);
    results.push(body);
  }
  const stored = await api.call('responses/get', [results[0].responseId], { key: owner.viewer });
  if (stored.status === 200) items[key] = stored.body.contentItemId;
  return results;
}

beforeAll(async () => {
  api = await startTestApi();
  [owner, stranger] = await Promise.all([createAccount('top'), createAccount('top-stranger')]);
  p1 = (await api.call('projects/create', [{ name: 'P1' }], { key: owner.admin })).body.id;
  p2 = (await api.call('projects/create', [{ name: 'P2' }], { key: owner.admin })).body.id;
  strangerProject = (await api.call('projects/create', [{ name: 'Theirs' }], { key: stranger.admin })).body.id;
  sets.s1 = await createSet(owner, p1, 'yes-no');
  sets.s2 = await createSet(owner, p1, 'pulse');
  sets.s3 = await createSet(owner, p2, 'reaction', { preset: 'feeling' });
  strangerSet = await createSet(stranger, strangerProject, 'pulse');

  // Items by count now: f 7, a 5, d 4, b 3, e 2, c 1; g has no response, h had one that was removed.
  await send(sets.s1, 'a', 'y', 4);
  await send(sets.s1, 'a', 'n', 1);
  await send(sets.s1, 'b', 'n', 3);
  await send(sets.s1, 'c', 'y', 1);
  await send(sets.s2, 'd', '+', 4);
  await send(sets.s2, 'e', '+', 2);
  await send(sets.s3, 'f', 'happy', 5);
  await send(sets.s3, 'f', 'sad', 2);
  items.g = (await api.call('contents/create', [{ contentSetId: sets.s3, key: 'g' }], { key: owner.admin })).body.id;
  const [removed] = await send(sets.s3, 'h', 'neutral', 1);
  expect((await api.call('responses/remove', [{ responseId: removed.responseId, revokeToken: removed.revokable.token }])).status).toBe(204);
  // i: 10 responses 45 days ago (in rolling12m, and in year/month/week only when they contain that day).
  const store = defaultStore().store;
  for (let index = 0; index < 10; index++) {
    const { responseId } = await createResponse(store, ANONYMOUS, { contentSetId: sets.s2, key: 'i', value: '+' }, { headers: {} }, old);
    if (index === 0) items.i = (await api.call('responses/get', [responseId], { key: owner.viewer })).body.contentItemId;
  }
  // The stranger's account is the busiest, and must never show up in the owner's rankings.
  await send(strangerSet, 'x', '+', 9);
  await api.drainStream();
}, 120_000);
afterAll(() => api.close());

async function top(resource: 'sets' | 'contents', query?: Record<string, unknown>, key = owner.viewer) {
  const answer = await api.call(`${resource}/top`, query === undefined ? [] : [query], { key });
  expect(answer.status).toBe(200);
  return answer.body as any[];
}
const idsOf = (entries: any[]) => entries.map((entry) => entry.id);
const itemKeys = (ids: string[]) => ids.map((id) => Object.keys(items).find((key) => items[key] === id));

describe('contents/top', () => {
  it('ranks the items of the account by count in the last 7 days by default, with their stats', async () => {
    const entries = await top('contents');
    expect(itemKeys(idsOf(entries))).toEqual(['f', 'a', 'd', 'b', 'e', 'c']);
    expect(entries.map((entry) => entry.stats.count)).toEqual([7, 5, 4, 3, 2, 1]);
    const [f, a] = entries;
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    expect(f).toEqual({
      id: items.f,
      key: 'f',
      accountId: owner.accountId,
      projectId: p2,
      contentSetId: sets.s3,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      state: 'active',
      metadata: {},
      stats: expect.objectContaining({
        entity: 'contentItem',
        entityId: items.f,
        accountId: owner.accountId,
        projectId: p2,
        contentSetId: sets.s3,
        period: 'rolling7d',
        referenceDate: new Date(today - 6 * DAY).toISOString(),
        count: 7,
        summary: 0.428571,
      }),
    });
    expect(f.stats.data).toMatchObject({ schema: 'reaction', values: [5, 0, 2], counts: [5, 0, 2], count: 7 });
    expect(f.stats.data.points).toHaveLength(7);
    expect(a.stats).toMatchObject({ summary: 0.6, data: { schema: 'yes-no', values: [4, 1] } });
    expect(await top('contents', {})).toEqual(entries);
    expect(await top('contents', { period: 'rolling7d', $size: 10 })).toEqual(entries);
  });

  it('takes $size entries, 10 by default and at most 100', async () => {
    expect(itemKeys(idsOf(await top('contents', { $size: 2 })))).toEqual(['f', 'a']);
    expect(itemKeys(idsOf(await top('contents', { $size: 1, period: 'rolling12m' })))).toEqual(['i']);
    expect(await top('contents', { $size: 100 })).toHaveLength(6);
    for (const $size of [0, 101, 2.5, '3']) {
      const answer = await api.call('contents/top', [{ $size }], { key: owner.viewer });
      expect([answer.status, answer.body.error, answer.body.data.fields[0].path]).toEqual([400, 'bad-request', 'args.0.$size']);
    }
  });

  it('applies the default size of 10', async () => {
    for (let index = 0; index < 12; index++) await send(sets.s2, `many-${index}`, '+', 1);
    await api.drainStream();
    const entries = await top('contents', { contentSetId: sets.s2 });
    expect(entries).toHaveLength(10);
    expect(itemKeys(idsOf(entries)).slice(0, 2)).toEqual(['d', 'e']);
    expect(entries.slice(2).map((entry) => entry.stats.count)).toEqual(new Array(8).fill(1));
    expect(await top('contents', { contentSetId: sets.s2, $size: 20 })).toHaveLength(14);
    // The fixture's ranking is unchanged above the new counts of 1 (c now ties with them).
    expect(itemKeys(idsOf(await top('contents', { $size: 5 })))).toEqual(['f', 'a', 'd', 'b', 'e']);
    expect((await top('contents', { $size: 20 })).map((entry) => entry.stats.count)).toEqual([7, 5, 4, 3, 2, ...new Array(13).fill(1)]);
  });

  it('scopes by content set, by project, or both', async () => {
    expect(itemKeys(idsOf(await top('contents', { contentSetId: sets.s1 })))).toEqual(['a', 'b', 'c']);
    expect(itemKeys(idsOf(await top('contents', { contentSetId: sets.s3 })))).toEqual(['f']);
    expect(itemKeys(idsOf(await top('contents', { projectId: p1, $size: 4 })))).toEqual(['a', 'd', 'b', 'e']);
    expect(itemKeys(idsOf(await top('contents', { projectId: p2 })))).toEqual(['f']);
    expect(itemKeys(idsOf(await top('contents', { projectId: p1, contentSetId: sets.s1 })))).toEqual(['a', 'b', 'c']);
    expect(await top('contents', { projectId: p2, contentSetId: sets.s1 })).toEqual([]);
  });

  it.each(['day', 'week', 'month', 'year', 'lifetime', 'rolling28d', 'rolling12m'] as const)('ranks the current %s', async (period) => {
    const includesOld =
      period === 'rolling12m' || period === 'lifetime' || ((period === 'week' || period === 'month' || period === 'year') && sameBucket(period));
    // Five entries: below e, c ties with the twelve items of the previous test.
    const expected = includesOld ? ['i', 'f', 'a', 'd', 'b'] : ['f', 'a', 'd', 'b', 'e'];
    const entries = await top('contents', { period, $size: 5 });
    expect(itemKeys(idsOf(entries))).toEqual(expected);
    for (const entry of entries) expect(entry.stats.period).toBe(period);
    if (period === 'day' || period === 'week' || period === 'month' || period === 'year') {
      const start =
        period === 'day'
          ? bucketKey('day', now)
          : period === 'week'
            ? bucketKey('week', now)
            : period === 'month'
              ? `${bucketKey('month', now)}-01`
              : `${bucketKey('year', now)}-01-01`;
      expect(entries[0].stats.referenceDate).toBe(`${start}T00:00:00.000Z`);
      expect(entries[0].stats.id).toBe(`contentItem:${entries[0].id}:${period}:${start}`);
    }
  });
});

describe('sets/top', () => {
  it('ranks the sets of the account, or of a project, with their stats', async () => {
    const entries = await top('sets', { period: 'week' });
    // s2: d 4 + e 2 + 12 × 1 (previous test) = 18, s1: 9, s3: 7 (+ i's 10 when this week holds that day).
    expect(idsOf(entries)).toEqual([sets.s2, sets.s1, sets.s3]);
    expect(entries.map((entry) => entry.stats.count)).toEqual([sameBucket('week') ? 28 : 18, 9, 7]);
    expect(entries[1]).toEqual({
      id: sets.s1,
      name: 'yes-no set',
      key: expect.stringMatching(/^yes-no-/),
      accountId: owner.accountId,
      projectId: p1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      state: 'active',
      schema: 'yes-no',
      schemaConfig: {},
      metadata: expect.objectContaining({ publicAggregates: false }),
      stats: expect.objectContaining({ entity: 'contentSet', entityId: sets.s1, contentSetId: sets.s1, period: 'week', count: 9, summary: 0.111111 }),
    });
    expect(entries[1].stats.data).toMatchObject({ schema: 'yes-no', values: [5, 4], points: expect.any(Array) });
    expect(idsOf(await top('sets', { period: 'week', projectId: p1 }))).toEqual([sets.s2, sets.s1]);
    expect(idsOf(await top('sets', { period: 'week', projectId: p2 }))).toEqual([sets.s3]);
    expect(idsOf(await top('sets', { period: 'week', $size: 1 }))).toEqual([sets.s2]);
    expect(idsOf(await top('sets'))).toEqual([sets.s2, sets.s1, sets.s3]);
    const yearly = await top('sets', { period: 'rolling12m' });
    expect(yearly.map((entry) => entry.stats.count)).toEqual([28, 9, 7]);
  });

  it('ranks lifetime and the current day too', async () => {
    expect(idsOf(await top('sets', { period: 'lifetime' }))).toEqual([sets.s2, sets.s1, sets.s3]);
    expect((await top('sets', { period: 'lifetime' })).map((entry) => entry.stats.count)).toEqual([28, 9, 7]);
    expect((await top('sets', { period: 'day' })).map((entry) => entry.stats.count)).toEqual([18, 9, 7]);
  });

  it('refuses a contentSetId and unknown periods', async () => {
    for (const query of [{ contentSetId: sets.s1 }, { period: 'decade' }, { size: 3 }]) {
      const answer = await api.call('sets/top', [query], { key: owner.viewer });
      expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
    }
  });
});

describe('rankings by quality ($sort best, worst)', () => {
  const keysOf = (entries: any[]) => itemKeys(idsOf(entries));
  async function refused(resource: 'sets' | 'contents', query: Record<string, unknown>, path: string) {
    const answer = await api.call(`${resource}/top`, [query], { key: owner.viewer });
    expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
    expect(answer.body.data.fields.map((field: { path: string }) => field.path)).toEqual([path]);
  }

  it('orders by the bounds of the 95% interval, with each score, among those with at least $minCount responses', async () => {
    // Yes-no in the last 7 days: a 4 of 5 yes, b 0 of 3, c 1 of 1.
    const best = await top('contents', { contentSetId: sets.s1, $sort: 'best', $minCount: 1 });
    expect(keysOf(best)).toEqual(['a', 'c', 'b']);
    for (const entry of best) expect(entry.score).toEqual({ value: expect.any(Number), low: expect.any(Number), high: expect.any(Number), method: 'wilson' });
    // Wilson's interval of 4 of 5 at 95%: 0.3755 to 0.9638 (Newcombe 1998's method 3).
    expect(best[0].score.value).toBe(0.8);
    expect(best[0].score.low).toBeCloseTo(0.3755, 4);
    expect(best[0].score.high).toBeCloseTo(0.9638, 4);
    expect(best.map((entry) => entry.score.low)).toEqual([...best.map((entry) => entry.score.low)].sort((x, y) => y - x));
    expect(keysOf(await top('contents', { contentSetId: sets.s1, $sort: 'worst', $minCount: 1 }))).toEqual(['b', 'a', 'c']);
    expect(keysOf(await top('contents', { contentSetId: sets.s1, $sort: 'best', $minCount: 3 }))).toEqual(['a', 'b']);
    expect(keysOf(await top('contents', { contentSetId: sets.s1, $sort: 'worst', $minCount: 1, $size: 1 }))).toEqual(['b']);
    // The default $minCount is 10: none of them has that many.
    expect(await top('contents', { contentSetId: sets.s1, $sort: 'best' })).toEqual([]);
    // A project's list, of one schema: p1's yes-no items are s1's; the sets likewise.
    expect(keysOf(await top('contents', { projectId: p1, schema: 'yes-no', $sort: 'worst', $minCount: 1 }))).toEqual(['b', 'a', 'c']);
    // A mean: the reaction set's f (5 happy, 2 sad), by Student's t; h's response was removed.
    const [f, ...rest] = await top('contents', { schema: 'reaction', $sort: 'best', $minCount: 1 });
    expect([f.key, f.score.method, rest]).toEqual(['f', 't', []]);
    const [s1] = await top('sets', { schema: 'yes-no', $sort: 'best', $minCount: 9 });
    expect([s1.id, s1.stats.count, s1.score.method]).toEqual([sets.s1, 9, 'wilson']);
    expect(await top('sets', { schema: 'yes-no', $sort: 'best', $minCount: 10 })).toEqual([]);
    // Sorted by count, the schema filter keeps the sets of that schema; no score is given.
    const pulse = await top('contents', { schema: 'pulse', $size: 100 });
    expect(keysOf(pulse).slice(0, 2)).toEqual(['d', 'e']);
    expect(new Set(pulse.map((entry) => entry.contentSetId))).toEqual(new Set([sets.s2]));
    expect(pulse[0].score).toBeUndefined();
  });

  it('refuses best and worst for a schema without a score, across sets without a schema filter, and a $minCount below 1', async () => {
    await refused('contents', { contentSetId: sets.s2, $sort: 'best' }, 'args.0.$sort');
    await refused('sets', { schema: 'pulse', $sort: 'worst' }, 'args.0.$sort');
    await refused('contents', { projectId: p1, $sort: 'worst' }, 'args.0.schema');
    await refused('sets', { $sort: 'best' }, 'args.0.schema');
    await refused('contents', { contentSetId: sets.s1, $sort: 'best', $minCount: 0 }, 'args.0.$minCount');
    await refused('contents', { $sort: 'most' }, 'args.0.$sort');
  });
});

describe('isolation between accounts', () => {
  it("never ranks another account's sets or items", async () => {
    const theirs = await top('contents', {}, stranger.viewer);
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({ key: 'x', accountId: stranger.accountId, stats: { count: 9 } });
    expect(idsOf(await top('sets', {}, stranger.viewer))).toEqual([strangerSet]);
    for (const entry of [...(await top('contents', { $size: 100 })), ...(await top('sets', { $size: 100 }))]) {
      expect(entry.accountId).toBe(owner.accountId);
      expect(entry.stats.accountId).toBe(owner.accountId);
    }
  });

  it("reports another account's project or set as not-found", async () => {
    for (const [resource, query] of [
      ['contents', { projectId: strangerProject }],
      ['contents', { contentSetId: strangerSet }],
      ['sets', { projectId: strangerProject }],
      ['contents', { projectId: 'A'.repeat(22) }],
      ['contents', { contentSetId: 'A'.repeat(22) }],
    ] as const) {
      const answer = await api.call(`${resource}/top`, [query], { key: owner.viewer });
      expect([answer.status, answer.body.error]).toEqual([404, 'not-found']);
    }
  });

  it('needs an API key', async () => {
    for (const resource of ['sets', 'contents']) {
      const answer = await api.call(`${resource}/top`, []);
      expect([answer.status, answer.body.error]).toEqual([401, 'unauthorized']);
    }
  });
});
