import { ANONYMOUS } from '../../functions/api/auth';
import { createResponse } from '../../functions/operations/response-collection';
import { eraseResponses } from '../../functions/operations/response-erasure';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, createContentSet, expectError, fieldPaths, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';

/**
 * responses/erase: responses deleted for good, by ids or by person; the counters of every
 * period, the rankings and the widget counts follow through the stream.
 */
let api: TestApi;
let owner: AccountKeys;
let other: AccountKeys;
let projectId: string;
let setId: string;
let otherSetId: string;

async function respond(key: string, value: string, profiling?: Record<string, string>, context?: Record<string, string>, setKey = setId) {
  const { store } = defaultStore();
  return (await createResponse(store, ANONYMOUS, { contentSetId: setKey, key, value, profiling, context }, { headers: {} }, new Date())).responseId;
}

async function itemOf(responseId: string): Promise<string> {
  return (await api.call('responses/get', [responseId], { key: owner.viewer })).body.contentItemId;
}

async function counts(itemId: string) {
  const [stats, aggregates, top] = await Promise.all([
    api.call('contents/getStats', [itemId], { key: owner.viewer }),
    api.call('responses/getAggregates', [itemId], { key: owner.viewer }),
    api.call('contents/top', [{ contentSetId: setId, period: 'week' }], { key: owner.viewer }),
  ]);
  const ranked = (top.body as { id: string; stats: { count: number } }[]).find((entry) => entry.id === itemId);
  return { count: stats.body.count, values: aggregates.body, ranked: ranked?.stats.count ?? 0 };
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('erase-owner');
  other = await createAccount('erase-other');
  projectId = (await api.call('projects/create', [{ name: 'Erase' }], { key: owner.admin })).body.id;
  setId = await createContentSet(api, owner.admin, projectId, 'yes-no');
  const otherProject = (await api.call('projects/create', [{ name: 'Other' }], { key: other.admin })).body.id;
  otherSetId = await createContentSet(api, other.admin, otherProject, 'yes-no');
});
afterAll(() => api.close());

describe('by ids', () => {
  it('deletes the items for good and corrects every count; a repeat erases 0', async () => {
    const ids = [await respond('page-a', 'y'), await respond('page-a', 'y'), await respond('page-a', 'n'), await respond('page-a', 'n')];
    const itemId = await itemOf(ids[0]);
    await api.drainStream();
    expect(await counts(itemId)).toEqual({ count: 4, values: [2, 2], ranked: 4 });

    const answer = await api.call('responses/erase', [{ responseIds: [ids[0], ids[2], ids[0]] }], { key: owner.admin });
    expect([answer.status, answer.body]).toEqual([200, { erased: 2 }]);
    expectError(await api.call('responses/get', [ids[0]], { key: owner.viewer }), 404, 'not-found');
    const snapshot = await tableSnapshot();
    expect(snapshot.some((item) => item.includes(ids[0]) || item.includes(ids[2]))).toBe(false);
    await api.drainStream();
    expect(await counts(itemId)).toEqual({ count: 2, values: [1, 1], ranked: 2 });

    const again = await api.call('responses/erase', [{ responseIds: [ids[0], ids[2]] }], { key: owner.admin });
    expect(again.body).toEqual({ erased: 0 });
    await api.drainStream();
    expect(await counts(itemId)).toEqual({ count: 2, values: [1, 1], ranked: 2 });
  });

  it('erases a revoked response without counting it out twice', async () => {
    const { store } = defaultStore();
    const created = await createResponse(store, ANONYMOUS, { contentSetId: setId, key: 'page-r', value: 'y', revokable: true }, { headers: {} }, new Date());
    const kept = await respond('page-r', 'y');
    await api.call('responses/remove', [{ responseId: created.responseId, revokeToken: created.revokable!.token }]);
    const itemId = await itemOf(kept);
    await api.drainStream();
    expect((await counts(itemId)).count).toBe(1);
    expect((await api.call('responses/erase', [{ responseIds: [created.responseId] }], { key: owner.admin })).body).toEqual({ erased: 1 });
    await api.drainStream();
    expect(await counts(itemId)).toEqual({ count: 1, values: [1, 0], ranked: 1 });
  });

  it("counts another account's and unknown ids as 0, revealing and changing nothing", async () => {
    const theirs = await respond('their-page', 'y', undefined, undefined, otherSetId);
    await api.drainStream();
    const before = await tableSnapshot();
    const answer = await api.call('responses/erase', [{ responseIds: [theirs, 'AAAAAAAAAAAAAAAAAAAAAA'] }], { key: owner.admin });
    expect([answer.status, answer.body]).toEqual([200, { erased: 0 }]);
    expect(await tableSnapshot()).toEqual(before);
    expect((await api.call('responses/get', [theirs], { key: other.viewer })).status).toBe(200);
  });
});

describe('by person', () => {
  it("erases every response naming the user (profiling.userId or context.$user), only the caller account's", async () => {
    const mine = [
      await respond('page-u1', 'y', { userId: 'ann@example.com' }),
      await respond('page-u1', 'n', undefined, { $user: 'ann@example.com' }),
      await respond('page-u2', 'y', { userId: 'ann@example.com', sessionId: 's1' }),
    ];
    const others = [await respond('page-u1', 'y', { userId: 'bob@example.com' }), await respond('page-u1', 'n')];
    const theirs = await respond('their-page', 'n', { userId: 'ann@example.com' }, undefined, otherSetId);
    const item1 = await itemOf(mine[0]);
    const item2 = await itemOf(mine[2]);
    await api.drainStream();
    expect(await counts(item1)).toEqual({ count: 4, values: [2, 2], ranked: 4 });

    const answer = await api.call('responses/erase', [{ userId: 'ann@example.com' }], { key: owner.admin });
    expect([answer.status, answer.body]).toEqual([200, { erased: 3, more: false }]);
    for (const id of mine) expectError(await api.call('responses/get', [id], { key: owner.viewer }), 404, 'not-found');
    for (const id of others) expect((await api.call('responses/get', [id], { key: owner.viewer })).status).toBe(200);
    expect((await api.call('responses/get', [theirs], { key: other.viewer })).status).toBe(200);
    expect((await api.call('responses/list', [{ userId: 'ann@example.com' }], { key: owner.viewer })).body.items).toEqual([]);
    await api.drainStream();
    expect(await counts(item1)).toEqual({ count: 2, values: [1, 1], ranked: 2 });
    expect(await counts(item2)).toEqual({ count: 0, values: [0, 0], ranked: 0 });
    const project = await api.call('projects/getStats', [projectId], { key: owner.viewer });
    const listed = await api.call('responses/list', [{ projectId, $size: 100 }], { key: owner.viewer });
    expect(project.body.count).toBe(listed.body.items.length);

    expect((await api.call('responses/erase', [{ userId: 'ann@example.com' }], { key: owner.admin })).body).toEqual({ erased: 0, more: false });
  });

  it('erases a person with more responses than one call takes over several calls (more: true until done)', async () => {
    const { store } = defaultStore();
    await Promise.all(Array.from({ length: 30 }, (_, index) => respond(`bulk-${index % 3}`, index % 2 ? 'y' : 'n', { userId: 'carol' })));
    await api.drainStream();
    let clock = 0;
    // A time budget spent after the first chunk: one chunk (at most 100) per call.
    const first = await eraseResponses(store, owner.accountId, { userId: 'carol' }, () => (clock += 10_000));
    expect(first.erased).toBeGreaterThan(0);
    const rest = await api.call('responses/erase', [{ userId: 'carol' }], { key: owner.admin });
    expect(first.erased + rest.body.erased).toBe(30);
    expect(rest.body.more).toBe(false);
    await api.drainStream();
    const project = await api.call('projects/getStats', [projectId], { key: owner.viewer });
    const listed = await api.call('responses/list', [{ projectId, $size: 100 }], { key: owner.viewer });
    expect(project.body.count).toBe(listed.body.items.length);
  });
});

describe('refusals', () => {
  it('needs an admin key of the account and well-formed input; refused calls change nothing', async () => {
    const id = await respond('page-x', 'y', { userId: 'dan' });
    await api.drainStream();
    const before = await tableSnapshot();
    expectError(await api.call('responses/erase', [{ responseIds: [id] }], { key: owner.viewer }), 403, 'forbidden');
    expectError(await api.call('responses/erase', [{ userId: 'dan' }]), 401, 'unauthorized');
    const malformed: [unknown[], string[]][] = [
      [[], ['args']],
      [[{}], ['args.0.userId']],
      [[{ userId: 'dan', responseIds: [id] }], ['args.0.userId']],
      [[{ responseIds: [] }], ['args.0.responseIds']],
      [[{ responseIds: Array.from({ length: 101 }, () => id) }], ['args.0.responseIds']],
      [[{ responseIds: [id, 12] }], ['args.0.responseIds.1']],
      [[{ userId: '' }], ['args.0.userId']],
      [[{ userId: 'dan', extra: true }], ['args.0']],
      [[{ userId: 'dan' }, 'more'], ['args']],
    ];
    for (const [args, paths] of malformed) {
      const answer = await api.call('responses/erase', args, { key: owner.admin });
      expectError(answer, 400, 'bad-request');
      expect({ args, paths: fieldPaths(answer) }).toEqual({ args, paths });
    }
    expectError(await api.call('responses/erase', [{ userId: 'dan' }], { key: owner.admin, method: 'GET' }), 405, 'method-not-allowed');
    expect(await tableSnapshot()).toEqual(before);
  });
});
