import { ANONYMOUS } from '../../functions/api/auth';
import { createResponse } from '../../functions/operations/response-collection';
import { listResponses } from '../../functions/operations/response-queries';
import { removeResponse } from '../../functions/operations/response-revocation';
import type { ResponseQueryModel } from '../../functions/api/response-models';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';

/**
 * responses/list over the HTTP API. Responses are written with the domain's createResponse
 * and a chosen `now`, so that createdAt values are distinct and known.
 */
let api: TestApi;
let owner: AccountKeys;
let other: AccountKeys;
let projectId: string;
let contentSetId: string;

const BASE = Date.UTC(2025, 0, 1, 0, 0, 0);
const minute = (index: number) => new Date(BASE + index * 60_000);
const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

interface Seeded {
  id: string;
  createdAt: string;
  token: string;
}

async function newItem(setId: string = contentSetId) {
  const { status, body } = await api.call('contents/create', [{ contentSetId: setId, key: `item-${Math.random().toString(36).slice(2)}` }], {
    key: owner.admin,
  });
  expect(status).toBe(200);
  return body.id as string;
}

/** One response per given time on the item, written directly (the order of writes is the order given). */
async function seed(contentId: string, times: Date[]): Promise<Seeded[]> {
  const { store } = defaultStore();
  const seeded: Seeded[] = [];
  for (const now of times) {
    const result = await createResponse(store, ANONYMOUS, { contentId, value: '+', revokable: true }, { headers: {} }, now);
    seeded.push({ id: result.responseId, createdAt: now.toISOString(), token: result.revokable!.token });
  }
  return seeded;
}

/** Many responses at once, one minute apart from `start`. */
async function seedMany(contentId: string, count: number, start: number): Promise<Seeded[]> {
  const { store } = defaultStore();
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const now = minute(start + index);
      const result = await createResponse(store, ANONYMOUS, { contentId, value: '+', revokable: true }, { headers: {} }, now);
      return { id: result.responseId, createdAt: now.toISOString(), token: result.revokable!.token };
    }),
  );
}

async function revoke(responses: Seeded[]) {
  const { store } = defaultStore();
  await Promise.all(
    responses.map((response) => removeResponse(store, ANONYMOUS, { responseId: response.id, revokeToken: response.token }, new Date(response.createdAt))),
  );
}

/** The expected list order: newest first; equal createdAt values in the index's order (`<createdAt>#<id>`, descending). */
const newestFirst = (responses: Seeded[]) =>
  responses
    .map((response) => ({ id: response.id, sortKey: `${response.createdAt}#${response.id}` }))
    .sort((a, b) => (a.sortKey < b.sortKey ? 1 : a.sortKey > b.sortKey ? -1 : 0))
    .map((response) => response.id);

async function list(query: Record<string, unknown>, key: string = owner.viewer) {
  const answer = await api.call('responses/list', [query], { key });
  expect([answer.status, answer.body?.error]).toEqual([200, undefined]);
  return answer.body as { items: { id: string; createdAt: string; state: string; contentItemId: string }[]; page: number; size: number; hasMore: boolean };
}

async function pageIds(query: Record<string, unknown>) {
  return (await list(query)).items.map((item) => item.id);
}

beforeAll(async () => {
  api = await startTestApi({ stream: false });
  owner = await createAccount('responses-list');
  other = await createAccount('responses-list-other');
  projectId = (await api.call('projects/create', [{ name: 'Listed' }], { key: owner.admin })).body.id;
  contentSetId = (await api.call('sets/create', [{ projectId, key: 'pulse', schema: 'pulse', metadata: { name: 'Pulse' } }], { key: owner.admin })).body.id;
});
afterAll(() => api.close());

describe('order and paging', () => {
  it('lists newest first whatever the order of writing, with page 1 and size 10 by default', async () => {
    const contentId = await newItem();
    const seeded = await seed(contentId, [minute(3), minute(0), minute(4), minute(1), minute(2)]);
    const body = await list({ contentId });
    expect(body).toEqual({ items: expect.any(Array), page: 1, size: 10, hasMore: false });
    expect(body.items.map((item) => item.id)).toEqual(newestFirst(seeded));
    expect(body.items.map((item) => item.createdAt)).toEqual([4, 3, 2, 1, 0].map((index) => minute(index).toISOString()));
    expect(body.items[0]).toEqual({
      id: seeded[2].id,
      accountId: owner.accountId,
      projectId,
      contentSetId,
      contentItemId: contentId,
      createdAt: minute(4).toISOString(),
      updatedAt: minute(4).toISOString(),
      state: 'active',
      value: '+',
    });
  });

  it('has no more after exactly 10 items, and puts the 11th on page 2', async () => {
    const ten = await newItem();
    const tenSeeded = await seedMany(ten, 10, 100);
    const first = await list({ contentId: ten });
    expect([first.items.length, first.hasMore, first.page, first.size]).toEqual([10, false, 1, 10]);
    expect(first.items.map((item) => item.id)).toEqual(newestFirst(tenSeeded));
    const beyond = await list({ contentId: ten, $page: 2 });
    expect([beyond.items, beyond.hasMore, beyond.page]).toEqual([[], false, 2]);

    const eleven = await newItem();
    const elevenSeeded = await seedMany(eleven, 11, 200);
    const page1 = await list({ contentId: eleven, $page: 1 });
    expect([page1.items.length, page1.hasMore]).toEqual([10, true]);
    const page2 = await list({ contentId: eleven, $page: 2 });
    expect([page2.items.map((item) => item.id), page2.hasMore, page2.page]).toEqual([[elevenSeeded[0].id], false, 2]);
    expect([...page1.items, ...page2.items].map((item) => item.id)).toEqual(newestFirst(elevenSeeded));
  });

  it('splits pages of a custom size without gaps or repeats', async () => {
    const contentId = await newItem();
    const seeded = await seedMany(contentId, 11, 300);
    const pages = await Promise.all([1, 2, 3, 4].map((page) => list({ contentId, $page: page, $size: 3 })));
    expect(pages.map((page) => [page.items.length, page.hasMore, page.size])).toEqual([
      [3, true, 3],
      [3, true, 3],
      [3, true, 3],
      [2, false, 3],
    ]);
    expect(pages.flatMap((page) => page.items.map((item) => item.id))).toEqual(newestFirst(seeded));
  });

  it('pages past the 100 items of one index query, with and without a state filter', async () => {
    const contentId = await newItem();
    const seeded = await seedMany(contentId, 130, 1000);
    const revoked = seeded.filter((_, index) => index % 4 === 0);
    await revoke(revoked);
    const active = seeded.filter((_, index) => index % 4 !== 0);
    expect([revoked.length, active.length]).toEqual([33, 97]);

    const all1 = await list({ contentId, state: 'all', $size: 100 });
    const all2 = await list({ contentId, state: 'all', $size: 100, $page: 2 });
    expect([all1.items.length, all1.hasMore, all2.items.length, all2.hasMore]).toEqual([100, true, 30, false]);
    expect([...all1.items, ...all2.items].map((item) => item.id)).toEqual(newestFirst(seeded));

    const active1 = await list({ contentId, $size: 50 });
    const active2 = await list({ contentId, $size: 50, $page: 2 });
    expect([active1.items.length, active1.hasMore, active2.items.length, active2.hasMore]).toEqual([50, true, 47, false]);
    expect([...active1.items, ...active2.items].map((item) => item.id)).toEqual(newestFirst(active));

    const revokedPage = await list({ contentId, state: 'revoked', $size: 100 });
    expect([revokedPage.items.map((item) => item.id), revokedPage.hasMore]).toEqual([newestFirst(revoked), false]);
    expect(revokedPage.items.every((item) => item.state === 'revoked')).toBe(true);
  });

  it('bounds $size (1..100), $page (1-based) and $page * $size (10000)', async () => {
    const contentId = await newItem();
    for (const query of [{ $size: 100 }, { $size: 1 }, { $size: 100, $page: 100 }, { $page: 1000 }]) {
      const answer = await api.call('responses/list', [{ contentId, ...query }], { key: owner.viewer });
      expect({ query, status: answer.status }).toEqual({ query, status: 200 });
    }
    const refused: [Record<string, unknown>, string][] = [
      [{ $size: 101 }, 'args.0.$size'],
      [{ $size: 0 }, 'args.0.$size'],
      [{ $size: -1 }, 'args.0.$size'],
      [{ $size: 2.5 }, 'args.0.$size'],
      [{ $size: '10' }, 'args.0.$size'],
      [{ $page: 0 }, 'args.0.$page'],
      [{ $page: -1 }, 'args.0.$page'],
      [{ $page: 1.5 }, 'args.0.$page'],
      [{ $page: 101, $size: 100 }, 'args.0.$page'],
      [{ $page: 1001 }, 'args.0.$page'],
      [{ $page: 5001, $size: 2 }, 'args.0.$page'],
    ];
    for (const [query, path] of refused) {
      const answer = await api.call('responses/list', [{ contentId, ...query }], { key: owner.viewer });
      expect({ query, status: answer.status, error: answer.body.error, paths: answer.body.data.fields.map((field: { path: string }) => field.path) }).toEqual({
        query,
        status: 400,
        error: 'bad-request',
        paths: [path],
      });
    }
  });
});

describe('scope', () => {
  let scopeProject: string;
  let setA: string;
  let setB: string;
  let itemA1: string;
  let responses: { a1: Seeded[]; a2: Seeded[]; b1: Seeded[] };

  beforeAll(async () => {
    scopeProject = (await api.call('projects/create', [{ name: 'Scoped' }], { key: owner.admin })).body.id;
    const makeSet = async (key: string) =>
      (await api.call('sets/create', [{ projectId: scopeProject, key, schema: 'pulse', metadata: { name: key } }], { key: owner.admin })).body.id as string;
    setA = await makeSet('a');
    setB = await makeSet('b');
    itemA1 = await newItem(setA);
    const itemA2 = await newItem(setA);
    const itemB1 = await newItem(setB);
    responses = {
      a1: await seed(itemA1, [minute(10), minute(13), minute(16)]),
      a2: await seed(itemA2, [minute(11), minute(14)]),
      b1: await seed(itemB1, [minute(12), minute(15)]),
    };
  });

  it('lists a project, a content set or a content item', async () => {
    const { a1, a2, b1 } = responses;
    expect(await pageIds({ projectId: scopeProject })).toEqual(newestFirst([...a1, ...a2, ...b1]));
    expect(await pageIds({ contentSetId: setA })).toEqual(newestFirst([...a1, ...a2]));
    expect(await pageIds({ contentSetId: setB })).toEqual(newestFirst(b1));
    expect(await pageIds({ contentId: itemA1 })).toEqual(newestFirst(a1));
    expect(await pageIds({ contentId: itemA1, contentSetId: setA, projectId: scopeProject })).toEqual(newestFirst(a1));
    expect(await pageIds({ contentSetId: setA, projectId: scopeProject })).toEqual(newestFirst([...a1, ...a2]));
    expect((await list({ projectId: scopeProject }, owner.admin)).items).toHaveLength(7);
  });

  it('lists nothing when the scopes given do not overlap', async () => {
    expect(await list({ contentId: itemA1, contentSetId: setB })).toEqual({ items: [], page: 1, size: 10, hasMore: false });
    expect(await pageIds({ contentId: itemA1, projectId })).toEqual([]);
    expect(await pageIds({ contentSetId: setA, projectId })).toEqual([]);
  });

  it('needs a scope, a known one of the caller account, and a key', async () => {
    const noScope = await api.call('responses/list', [{}], { key: owner.viewer });
    expect([noScope.status, noScope.body.error, noScope.body.data.fields.map((field: { path: string }) => field.path)]).toEqual([
      400,
      'bad-request',
      ['args.0.projectId'],
    ]);
    const noArgs = await api.call('responses/list', [], { key: owner.viewer });
    expect([noArgs.status, noArgs.body.error]).toEqual([400, 'bad-request']);
    const unknownField = await api.call('responses/list', [{ projectId: scopeProject, schema: 'pulse' }], { key: owner.viewer });
    expect([unknownField.status, unknownField.body.error]).toEqual([400, 'bad-request']);
    for (const scope of [{ projectId: UNKNOWN_ID }, { contentSetId: UNKNOWN_ID }, { contentId: UNKNOWN_ID }]) {
      const answer = await api.call('responses/list', [scope], { key: owner.viewer });
      expect({ scope, status: answer.status, error: answer.body.error }).toEqual({ scope, status: 404, error: 'not-found' });
    }
    for (const scope of [{ projectId: scopeProject }, { contentSetId: setA }, { contentId: itemA1 }]) {
      const answer = await api.call('responses/list', [scope], { key: other.admin });
      expect({ scope, status: answer.status, error: answer.body.error }).toEqual({ scope, status: 404, error: 'not-found' });
    }
    const anonymous = await api.call('responses/list', [{ projectId: scopeProject }]);
    expect([anonymous.status, anonymous.body.error]).toEqual([401, 'unauthorized']);
  });
});

describe('state filter', () => {
  it('lists active responses by default, and revoked or all on request', async () => {
    const contentId = await newItem();
    const seeded = await seed(contentId, [minute(20), minute(21), minute(22), minute(23)]);
    await revoke([seeded[1], seeded[3]]);
    expect(await pageIds({ contentId })).toEqual([seeded[2].id, seeded[0].id]);
    expect(await pageIds({ contentId, state: 'active' })).toEqual([seeded[2].id, seeded[0].id]);
    expect(await pageIds({ contentId, state: 'revoked' })).toEqual([seeded[3].id, seeded[1].id]);
    expect(await pageIds({ contentId, state: 'all' })).toEqual(newestFirst(seeded));
    const revokedItems = (await list({ contentId, state: 'revoked' })).items;
    expect(revokedItems.map((item) => item.state)).toEqual(['revoked', 'revoked']);
    for (const state of ['archived', 'ACTIVE', '', null]) {
      const answer = await api.call('responses/list', [{ contentId, state }], { key: owner.viewer });
      expect({ state, status: answer.status, error: answer.body.error }).toEqual({ state, status: 400, error: 'bad-request' });
    }
  });
});

describe('a sparse state filter', () => {
  /** responses/list as the handler calls it, with the items one read may examine lowered from 5,000 to `budget`. */
  const listWithBudget = (query: Record<string, unknown>, budget: number) =>
    listResponses(defaultStore().store, owner.accountId, { $size: 10, state: 'active', ...query } as ResponseQueryModel, budget);

  it('answers a short page with a cursor once a read has examined its budget, and paging on finds every match in order', async () => {
    const contentId = await newItem();
    const seeded = await seedMany(contentId, 60, 5000);
    // Two revoked among 60, far apart: the newest and one in the middle.
    const ordered = newestFirst(seeded).map((id) => seeded.find((response) => response.id === id)!);
    await revoke([ordered[0], ordered[35]]);

    const budget = 20;
    const first = await listWithBudget({ contentId, state: 'revoked' }, budget);
    // The first read examines 20 responses (newest first) and finds one: the page stops there.
    expect([first.items.map((item) => item.id), first.hasMore, typeof first.cursor]).toEqual([[ordered[0].id], true, 'string']);
    const found = [...first.items];
    let cursor = first.cursor;
    let calls = 1;
    while (cursor !== undefined && calls < 10) {
      const page = await listWithBudget({ contentId, state: 'revoked', cursor }, budget);
      expect(page.hasMore).toBe(page.cursor !== undefined);
      found.push(...page.items);
      cursor = page.cursor;
      calls++;
    }
    expect(found.map((item) => item.id)).toEqual([ordered[0].id, ordered[35].id]);
    expect(cursor).toBeUndefined();
    expect(calls).toBeGreaterThan(2);
    // With the default budget the same list is one page.
    expect(await pageIds({ contentId, state: 'revoked' })).toEqual([ordered[0].id, ordered[35].id]);
  });

  it('refuses an offset page whose skipped matches cannot be counted off within one request, naming $page and the cursor', async () => {
    const contentId = await newItem();
    const seeded = await seedMany(contentId, 30, 6000);
    await revoke(seeded.slice(0, 3));
    const refused = listWithBudget({ contentId, state: 'revoked', $size: 1, $page: 3 }, 10);
    await expect(refused).rejects.toMatchObject({
      code: 'bad-request',
      message: expect.stringContaining('cursor'),
      data: { fields: [{ path: 'args.0.$page', message: expect.any(String) }] },
    });
    // Unfiltered, the same depth is no problem: every response examined is one that counts.
    expect((await listWithBudget({ contentId, state: 'all', $size: 1, $page: 3 }, 10)).items).toHaveLength(1);
  });
});

describe('from and to', () => {
  let contentId: string;
  let seeded: Seeded[];
  beforeAll(async () => {
    contentId = await newItem();
    // Two responses share minute 32, to check both sides of a bound on equal createdAt values.
    seeded = await seed(contentId, [minute(30), minute(31), minute(32), minute(32), minute(33), minute(34)]);
  });
  const at = (...indexes: number[]) => newestFirst(indexes.map((index) => seeded[index]));

  it('includes from and excludes to', async () => {
    expect(await pageIds({ contentId, from: minute(31).toISOString(), to: minute(33).toISOString() })).toEqual(at(1, 2, 3));
    expect(await pageIds({ contentId, from: minute(32).toISOString(), to: minute(33).toISOString() })).toEqual(at(2, 3));
    expect(await pageIds({ contentId, from: minute(31).toISOString(), to: minute(32).toISOString() })).toEqual(at(1));
    expect(await pageIds({ contentId, from: minute(32).toISOString() })).toEqual(at(2, 3, 4, 5));
    expect(await pageIds({ contentId, to: minute(32).toISOString() })).toEqual(at(0, 1));
    expect(await pageIds({ contentId, to: minute(30).toISOString() })).toEqual([]);
    expect(await pageIds({ contentId, from: new Date(minute(34).getTime() + 1).toISOString() })).toEqual([]);
    expect(await pageIds({ contentId, from: new Date(minute(32).getTime() - 1).toISOString(), to: new Date(minute(32).getTime() + 1).toISOString() })).toEqual(
      at(2, 3),
    );
  });

  it('reads bounds with a time zone offset as the same instant', async () => {
    // 2025-01-01T00:31:00Z is 02:31 at +02:00
    expect(await pageIds({ contentId, from: '2025-01-01T02:31:00+02:00', to: '2025-01-01T02:33:00+02:00' })).toEqual(at(1, 2, 3));
    expect(await pageIds({ contentId, from: '2025-01-01T00:32:00Z' })).toEqual(at(2, 3, 4, 5));
  });

  it('combines with paging and the state filter', async () => {
    const page1 = await list({ contentId, from: minute(31).toISOString(), $size: 2 });
    const page2 = await list({ contentId, from: minute(31).toISOString(), $size: 2, $page: 2 });
    const page3 = await list({ contentId, from: minute(31).toISOString(), $size: 2, $page: 3 });
    expect([page1.hasMore, page2.hasMore, page3.hasMore, page3.items.length]).toEqual([true, true, false, 1]);
    expect([...page1.items, ...page2.items, ...page3.items].map((item) => item.id)).toEqual(at(1, 2, 3, 4, 5));
    expect(await pageIds({ contentId, from: minute(31).toISOString(), to: minute(34).toISOString(), state: 'revoked' })).toEqual([]);
  });

  it('reads a date as its UTC midnight, as every date argument', async () => {
    const day = minute(31).toISOString().slice(0, 10);
    expect(await pageIds({ contentId, to: day })).toEqual(await pageIds({ contentId, to: `${day}T00:00:00Z` }));
    const sinceMidnight = await pageIds({ contentId, from: day });
    expect(sinceMidnight.length).toBeGreaterThan(0);
    expect(sinceMidnight).toEqual(await pageIds({ contentId, from: `${day}T00:00:00.000+00:00` }));
  });

  it('refuses bounds that are not dates or date-times with an offset, and an empty or reversed range', async () => {
    const refused: [Record<string, unknown>, string][] = [
      [{ from: 'yesterday' }, 'args.0.from'],
      [{ from: '2025-01-01T00:00:00' }, 'args.0.from'],
      [{ to: 1735689600000 }, 'args.0.to'],
      [{ from: minute(32).toISOString(), to: minute(32).toISOString() }, 'args.0.to'],
      [{ from: minute(33).toISOString(), to: minute(31).toISOString() }, 'args.0.to'],
    ];
    for (const [bounds, path] of refused) {
      const answer = await api.call('responses/list', [{ contentId, ...bounds }], { key: owner.viewer });
      expect({ bounds, status: answer.status, error: answer.body.error, paths: answer.body.data.fields.map((field: { path: string }) => field.path) }).toEqual({
        bounds,
        status: 400,
        error: 'bad-request',
        paths: [path],
      });
    }
  });
});
