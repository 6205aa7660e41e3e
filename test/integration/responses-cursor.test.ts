import { ANONYMOUS } from '../../functions/api/auth';
import { sealCursor, scopeFingerprint, cursorKey } from '../../functions/domain/cursor';
import { createResponse } from '../../functions/operations/response-collection';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, createContentSet, expectError, fieldPaths, pool, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';

/**
 * responses/list paged by cursor: the same responses as the offset walk, cursors bound to
 * their account and list, and a person's responses across the account (userId index).
 */
let api: TestApi;
let owner: AccountKeys;
let other: AccountKeys;
let projectId: string;
let setA: string;
let setB: string;
let otherProject: string;

const BASE = Date.UTC(2025, 2, 1);
const at = (minute: number) => new Date(BASE + minute * 60_000);

async function respond(contentSetId: string, key: string, minute: number, profiling?: Record<string, string>, context?: Record<string, string>) {
  const { store } = defaultStore();
  const result = await createResponse(store, ANONYMOUS, { contentSetId, key, value: '+', profiling, context }, { headers: {} }, at(minute));
  return result.responseId;
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('cursor-owner');
  other = await createAccount('cursor-other');
  projectId = (await api.call('projects/create', [{ name: 'Cursors' }], { key: owner.admin })).body.id;
  setA = await createContentSet(api, owner.admin, projectId, 'pulse');
  setB = await createContentSet(api, owner.admin, projectId, 'pulse');
  otherProject = (await api.call('projects/create', [{ name: 'Theirs' }], { key: other.admin })).body.id;
  // 130 responses over two sets and five items, some at the same minute.
  const write = (index: number) =>
    respond(index % 2 ? setA : setB, `page-${index % 5}`, Math.floor(index / 3), index % 7 === 0 ? { userId: 'ann' } : undefined);
  const indexes = Array.from({ length: 130 }, (_, index) => index);
  // The first ten, one by one, create the ten items (each set's five pages); the rest only add responses to them, a few at a time.
  for (const index of indexes.slice(0, 10)) await write(index);
  await pool(indexes.slice(10), 8, write);
  await api.drainStream();
}, 120_000);
afterAll(() => api.close());

async function list(query: Record<string, unknown>, key = owner.viewer) {
  const answer = await api.call('responses/list', [query], { key });
  expect(answer.status).toBe(200);
  return answer.body as { items: { id: string; createdAt: string }[]; page?: number; size: number; hasMore: boolean; cursor?: string };
}

async function cursorWalk(query: Record<string, unknown>, $size: number) {
  const ids: string[] = [];
  let cursor: string | undefined;
  let calls = 0;
  do {
    const page = await list({ ...query, $size, ...(cursor ? { cursor } : {}) });
    ids.push(...page.items.map((item) => item.id));
    expect(page.hasMore).toBe(page.cursor !== undefined);
    if (cursor) expect(page.page).toBeUndefined();
    cursor = page.cursor;
    calls++;
  } while (cursor && calls < 200);
  return { ids, calls };
}

async function offsetWalk(query: Record<string, unknown>, $size: number) {
  const ids: string[] = [];
  for (let $page = 1; ; $page++) {
    const page = await list({ ...query, $size, $page });
    ids.push(...page.items.map((item) => item.id));
    if (!page.hasMore) return ids;
  }
}

describe('cursor walk', () => {
  // Queries are built when the test runs: the ids exist only after beforeAll.
  it.each([
    ['project', 7, () => ({ projectId })],
    ['project', 100, () => ({ projectId })],
    ['set', 10, () => ({ contentSetId: setA })],
    ['project, all states', 13, () => ({ projectId, state: 'all' })],
    ['project, from/to', 4, () => ({ projectId, from: at(5).toISOString(), to: at(30).toISOString() })],
  ])('returns the same responses as the offset walk: %s, $size %i', async (_name, size, build) => {
    const query = build();
    const offset = await offsetWalk(query, size);
    const { ids, calls } = await cursorWalk(query, size);
    expect(ids).toEqual(offset);
    expect(new Set(ids).size).toBe(ids.length);
    expect(calls).toBe(Math.max(1, Math.ceil(ids.length / size)));
  });

  it('gives a cursor with an offset page too, which continues right after it', async () => {
    const page2 = await list({ projectId, $size: 10, $page: 2 });
    expect(page2.page).toBe(2);
    const next = await list({ projectId, $size: 10, cursor: page2.cursor });
    const page3 = await list({ projectId, $size: 10, $page: 3 });
    expect(next.items.map((item) => item.id)).toEqual(page3.items.map((item) => item.id));
  });

  it('has no cursor on the last page, also when it is exactly full', async () => {
    const all = await offsetWalk({ contentSetId: setB }, 100);
    expect(all).toHaveLength(65);
    const exact = await list({ contentSetId: setB, $size: 65 });
    expect([exact.items.length, exact.hasMore, exact.cursor]).toEqual([65, false, undefined]);
  });
});

describe('a refused cursor', () => {
  it('refuses forged, altered, foreign and other-list cursors, reaching no data', async () => {
    const before = await tableSnapshot();
    const { cursor } = await list({ projectId, $size: 5 });
    const { cursor: setCursor } = await list({ contentSetId: setA, $size: 5 });
    const { cursor: activeCursor } = await list({ projectId, $size: 5, state: 'all' });
    const foreign = (await api.call('responses/list', [{ projectId: otherProject }], { key: other.viewer })).body;
    expect(foreign.items).toEqual([]);
    const bytes = Buffer.from(cursor!, 'base64url');
    bytes[bytes.length - 3] ^= 0x10;
    const electroStyle = Buffer.from(JSON.stringify({ pk: 'response#x', sk: 'response', gsi3pk: `project#${projectId}#responses`, gsi3sk: '9' })).toString(
      'base64url',
    );
    const ownKeyForgery = sealCursor(cursorKey('guessed secret of at least thirty-two chars'), {
      accountId: owner.accountId,
      scope: scopeFingerprint({ operation: 'responses/list', index: 'byProject', partition: projectId, state: 'active' }),
      position: electroStyle,
    });
    const refused: [Record<string, unknown>, string][] = [
      [{ projectId, cursor: bytes.toString('base64url') }, 'altered'],
      [{ projectId, cursor: electroStyle }, 'forged plain key'],
      [{ projectId, cursor: ownKeyForgery }, 'sealed with another secret'],
      [{ projectId, cursor: 'x' }, 'garbage'],
      [{ contentSetId: setB, cursor: setCursor }, 'another set'],
      [{ projectId, cursor: setCursor }, 'another scope'],
      [{ projectId, cursor: activeCursor }, 'another state'],
      [{ projectId, from: at(1).toISOString(), cursor }, 'other bounds'],
    ];
    for (const [query, why] of refused) {
      const answer = await api.call('responses/list', [query], { key: owner.viewer });
      expect({ why, status: answer.status, error: answer.body.error, paths: fieldPaths(answer) }).toEqual({
        why,
        status: 400,
        error: 'bad-request',
        paths: ['args.0.cursor'],
      });
    }
    // Another account's cursor, on its own project of the same shape: refused.
    const theirs = await api.call('responses/list', [{ projectId: otherProject, cursor }], { key: other.viewer });
    expectError(theirs, 400, 'bad-request');
    // The owner's cursor with another account's key on the owner's project: that project is not theirs.
    expectError(await api.call('responses/list', [{ projectId, cursor }], { key: other.viewer }), 404, 'not-found');
    expect(await tableSnapshot()).toEqual(before);
  });

  it('refuses $page together with a cursor, and cursors that are not strings', async () => {
    const { cursor } = await list({ projectId, $size: 5 });
    for (const [query, path] of [
      [{ projectId, $page: 2, cursor }, 'args.0.cursor'],
      [{ projectId, cursor: 12 }, 'args.0.cursor'],
      [{ projectId, cursor: '' }, 'args.0.cursor'],
      [{ projectId, cursor: 'a'.repeat(5000) }, 'args.0.cursor'],
    ] as const) {
      const answer = await api.call('responses/list', [query], { key: owner.viewer });
      expectError(answer, 400, 'bad-request');
      expect(fieldPaths(answer)).toEqual([path]);
    }
  });
});

describe('a person across the account', () => {
  it('lists responses by userId (profiling.userId or context.$user), newest first, by cursor', async () => {
    const otherSet = await createContentSet(api, owner.admin, projectId, 'pulse');
    const viaContext = await respond(otherSet, 'contact', 500, undefined, { $user: 'ann' });
    const explicit = await respond(otherSet, 'contact', 501, { userId: 'ann' }, { $user: 'someone-else' });
    await respond(otherSet, 'contact', 502, { userId: 'Ann' });
    await respond(otherSet, 'contact', 503, { userId: 'bob' });
    const all = await cursorWalk({ userId: 'ann' }, 4);
    const seeded = Math.ceil(130 / 7);
    expect(all.ids).toHaveLength(seeded + 2);
    expect(all.ids.slice(0, 2)).toEqual([explicit, viaContext]);
    const items = (await list({ userId: 'ann', $size: 100 })).items as unknown as { createdAt: string; profiling: { userId: string } }[];
    expect(items.every((item) => item.profiling.userId === 'ann')).toBe(true);
    expect(items.map((item) => item.createdAt)).toEqual([...items.map((item) => item.createdAt)].sort().reverse());
    expect((await list({ userId: 'bob' })).items).toHaveLength(1);
    expect((await list({ userId: 'nobody' })).items).toEqual([]);
    expect(await offsetWalk({ userId: 'ann' }, 3)).toEqual(all.ids);
  });

  it("never lists another account's person, and refuses userId combined with a scope", async () => {
    expect((await list({ userId: 'ann' }, other.viewer)).items).toEqual([]);
    const combined = await api.call('responses/list', [{ userId: 'ann', projectId }], { key: owner.viewer });
    expectError(combined, 400, 'bad-request');
    expect(fieldPaths(combined)).toEqual(['args.0.userId']);
    for (const userId of ['', 'x'.repeat(257), 12]) {
      expectError(await api.call('responses/list', [{ userId }], { key: owner.viewer }), 400, 'bad-request');
    }
  });
});
