import { createAccount, expectError, revokedAdminKey, fieldPaths, pause, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let api: TestApi;
let owner: AccountKeys;
let other: AccountKeys;
let revokedKey: string;
/** Owner's project and sets; other's project and set. */
let projectId: string;
let setId: string;
let secondSetId: string;
let otherSetId: string;

async function createSet(key: string, account: AccountKeys, project: string): Promise<string> {
  const answer = await api.call('sets/create', [{ projectId: project, key, schema: 'pulse', metadata: { name: key } }], { key: account.admin });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

async function createContent(contentSetId: string, key: string, account: AccountKeys = owner, metadata?: object) {
  const answer = await api.call('contents/create', [{ contentSetId, key, ...(metadata ? { metadata } : {}) }], { key: account.admin });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function exists(contentSetId: string, key: string, account: AccountKeys = owner): Promise<boolean> {
  const answer = await api.call('contents/exists', [{ contentSetId, key }], { key: account.viewer });
  expect(answer.status).toBe(200);
  return answer.body;
}

beforeAll(async () => {
  api = await startTestApi({ stream: false });
  owner = await createAccount('owner');
  other = await createAccount('other');
  revokedKey = await revokedAdminKey(owner.accountId);
  projectId = (await api.call('projects/create', [{ name: 'Contents' }], { key: owner.admin })).body.id;
  setId = await createSet('pages', owner, projectId);
  secondSetId = await createSet('posts', owner, projectId);
  const otherProject = (await api.call('projects/create', [{ name: 'Theirs' }], { key: other.admin })).body.id;
  otherSetId = await createSet('pages', other, otherProject);
});
afterAll(() => api.close());

describe('contents/create', () => {
  it('creates an active item with the full ContentItem shape', async () => {
    const { status, body } = await api.call(
      'contents/create',
      [{ contentSetId: setId, key: '/docs/intro', metadata: { title: 'Intro', description: 'First page', url: 'https://example.com/docs/intro' } }],
      { key: owner.admin },
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      // The set's id, then 128 random bits (docs/api.md, Ids).
      id: expect.stringMatching(new RegExp(`^${setId}[A-Za-z0-9_-]{22}$`)),
      key: '/docs/intro',
      accountId: owner.accountId,
      projectId,
      contentSetId: setId,
      createdAt: expect.stringMatching(ISO),
      updatedAt: body.createdAt,
      state: 'active',
      metadata: { title: 'Intro', description: 'First page', url: 'https://example.com/docs/intro' },
    });
    const read = await api.call('contents/get', [body.id], { key: owner.viewer });
    expect([read.status, read.body]).toEqual([200, body]);
  });

  it('creates an item without metadata', async () => {
    const body = await createContent(setId, 'no-metadata');
    expect(body.metadata).toEqual({});
    expect(Object.keys(body).sort()).toEqual(['accountId', 'contentSetId', 'createdAt', 'id', 'key', 'metadata', 'projectId', 'state', 'updatedAt']);
  });

  it('accepts keys of 1 and 1024 characters', async () => {
    for (const key of ['k', 'a'.repeat(1024)]) {
      const body = await createContent(setId, key);
      expect(body.key).toBe(key);
      expect(await exists(setId, key)).toBe(true);
    }
  });

  it.each([
    ['emoji', '😀'.repeat(1024)],
    ['CJK', '漢'.repeat(1024)],
    ['mixed emoji, CJK and combining marks', Array.from({ length: 1024 }, (_, index) => ['🚀', '字', 'é', 'Ω'][index % 4]).join('')],
  ])('round-trips a 1024-character key of %s exactly (create, get, exists, lookup)', async (_case, key) => {
    expect(Array.from(key)).toHaveLength(1024);
    expect(Buffer.byteLength(key, 'utf8')).toBeGreaterThan(1024);
    const created = await createContent(secondSetId, key, owner, { title: `t-${_case}` });
    expect(created.key).toBe(key);
    const read = await api.call('contents/get', [created.id], { key: owner.viewer });
    expect(read.body.key).toBe(key);
    expect(await exists(secondSetId, key)).toBe(true);
    // A different key sharing the first 1023 characters is another key.
    expect(await exists(secondSetId, Array.from(key).slice(0, 1023).join(''))).toBe(false);
    const full = await api.call('contents/lookup', [key, { contentSetId: secondSetId }], { key: owner.viewer });
    expect(full.status).toBe(200);
    expect(full.body).toEqual([{ id: created.id, key, projectId, contentSetId: secondSetId, metadata: { title: `t-${_case}` } }]);
    const prefix = await api.call('contents/lookup', [Array.from(key).slice(0, 300).join(''), { contentSetId: secondSetId }], { key: owner.viewer });
    expect(prefix.body.map((entry: { id: string }) => entry.id)).toContain(created.id);
    const duplicate = await api.call('contents/create', [{ contentSetId: secondSetId, key }], { key: owner.admin });
    expectError(duplicate, 409, 'conflict');
  });

  it.each([
    ['an empty key', ''],
    ['a key of 1025 characters', 'a'.repeat(1025)],
    ['a key of 1025 emoji', '😀'.repeat(1025)],
    ['a key of 1025 CJK characters', '漢'.repeat(1025)],
    ['a key with a lone high surrogate', 'lone-\ud800'],
    ['a key with a lone low surrogate', '\udc00-lone'],
  ])('refuses %s with bad-request on args.0.key and writes nothing', async (_case, key) => {
    const before = await tableSnapshot();
    const answer = await api.call('contents/create', [{ contentSetId: setId, key }], { key: owner.admin });
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer)).toContain('args.0.key');
    expect(await tableSnapshot()).toEqual(before);
  });

  it('keeps keys distinct that only a lossy UTF-8 conversion would merge', async () => {
    // "x\ud800" would be stored and hashed as "x\ufffd": it is refused, so "x\ufffd" stays free.
    const lone = await api.call('contents/create', [{ contentSetId: setId, key: 'x\ud800' }], { key: owner.admin });
    expectError(lone, 400, 'bad-request');
    expect(await exists(setId, 'x\ufffd')).toBe(false);
    expect((await createContent(setId, 'x\ufffd')).key).toBe('x\ufffd');
    const probe = await api.call('contents/exists', [{ contentSetId: setId, key: 'x\ud800' }], { key: owner.viewer });
    expectError(probe, 400, 'bad-request');
    expect(fieldPaths(probe)).toEqual(['args.0.key']);
  });

  it.each([
    ['description of 256 characters', { description: 'd'.repeat(256) }, 'args.0.metadata.description'],
    ['unknown metadata field', { colour: 'red' }, 'args.0.metadata'],
    ['title that is not a string', { title: 5 }, 'args.0.metadata.title'],
  ])('refuses a %s and writes nothing', async (_case, metadata, path) => {
    const before = await tableSnapshot();
    const answer = await api.call('contents/create', [{ contentSetId: setId, key: 'meta', metadata }], { key: owner.admin });
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer)).toContain(path);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('accepts a description of exactly 255 characters', async () => {
    const body = await createContent(setId, 'long-description', owner, { description: 'd'.repeat(255) });
    expect(body.metadata.description).toHaveLength(255);
  });

  it('refuses a missing contentSetId or key', async () => {
    const answer = await api.call('contents/create', [{}], { key: owner.admin });
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer)).toEqual(expect.arrayContaining(['args.0.contentSetId', 'args.0.key']));
  });

  it('answers conflict for a key taken in the same set and writes nothing', async () => {
    await createContent(setId, 'taken');
    const before = await tableSnapshot();
    const answer = await api.call('contents/create', [{ contentSetId: setId, key: 'taken', metadata: { title: 'again' } }], { key: owner.admin });
    expectError(answer, 409, 'conflict');
    expect(await tableSnapshot()).toEqual(before);
  });

  it('allows the same key in another set and keys that differ only in case', async () => {
    await createContent(setId, 'shared');
    expect((await createContent(secondSetId, 'shared')).contentSetId).toBe(secondSetId);
    expect((await createContent(setId, 'SHARED')).key).toBe('SHARED');
    expect(await exists(setId, 'Shared')).toBe(false);
  });

  it("answers not-found for an unknown set and for another account's set, writing nothing", async () => {
    const before = await tableSnapshot();
    expectError(await api.call('contents/create', [{ contentSetId: 'A'.repeat(22), key: 'x' }], { key: owner.admin }), 404, 'not-found');
    expectError(await api.call('contents/create', [{ contentSetId: otherSetId, key: 'x' }], { key: owner.admin }), 404, 'not-found');
    expect(await tableSnapshot()).toEqual(before);
  });

  it('needs an admin key of a live key and writes nothing otherwise', async () => {
    const args = [{ contentSetId: setId, key: 'guarded' }];
    const before = await tableSnapshot();
    expectError(await api.call('contents/create', args), 401, 'unauthorized');
    expectError(await api.call('contents/create', args, { key: owner.viewer }), 403, 'forbidden');
    expectError(await api.call('contents/create', args, { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('contents/create', args, { key: 'fbk_unknown' }), 401, 'unauthorized');
    expectError(await api.call('contents/create', args, { headers: { authorization: `Bearer ${owner.admin}` } }), 401, 'unauthorized');
    expect(await tableSnapshot()).toEqual(before);
    expect(await exists(setId, 'guarded')).toBe(false);
  });
});

describe('contents/get', () => {
  it('is readable by a viewer of the account only', async () => {
    const created = await createContent(setId, 'get-me');
    const read = await api.call('contents/get', [created.id], { key: owner.viewer });
    expect([read.status, read.body]).toEqual([200, created]);
    expectError(await api.call('contents/get', [created.id]), 401, 'unauthorized');
    expectError(await api.call('contents/get', [created.id], { key: other.viewer }), 404, 'not-found');
    expectError(await api.call('contents/get', [created.id], { key: other.admin }), 404, 'not-found');
    expectError(await api.call('contents/get', [created.id], { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('contents/get', ['A'.repeat(22)], { key: owner.viewer }), 404, 'not-found');
  });
});

describe('contents/save', () => {
  it('applies only the given fields, keeps createdAt and moves updatedAt', async () => {
    const created = await createContent(setId, 'save-me', owner, { title: 'Old', description: 'desc', url: 'https://example.com/a' });
    await pause();
    const saved = await api.call('contents/save', [created.id, { title: 'New' }], { key: owner.admin });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...created, metadata: { ...created.metadata, title: 'New' }, updatedAt: expect.stringMatching(ISO) });
    expect(saved.body.updatedAt > created.updatedAt).toBe(true);
    await pause();
    const again = await api.call('contents/save', [created.id, { url: 'https://example.com/b', description: '' }], { key: owner.admin });
    expect(again.body).toEqual({
      ...created,
      metadata: { title: 'New', description: '', url: 'https://example.com/b' },
      updatedAt: expect.stringMatching(ISO),
    });
    expect(again.body.updatedAt > saved.body.updatedAt).toBe(true);
    const read = await api.call('contents/get', [created.id], { key: owner.viewer });
    expect(read.body).toEqual(again.body);
    // The new title is what lookup finds.
    const lookup = await api.call('contents/lookup', ['new', { contentSetId: setId }], { key: owner.viewer });
    expect(lookup.body.map((entry: { id: string }) => entry.id)).toContain(created.id);
  });

  it.each(['inactive', 'archived', 'active'])('accepts state %s', async (state) => {
    const created = await createContent(setId, `state-${state}`);
    const saved = await api.call('contents/save', [created.id, { state: 'archived' }], { key: owner.admin });
    expect(saved.body.state).toBe('archived');
    const back = await api.call('contents/save', [created.id, { state }], { key: owner.admin });
    expect([back.status, back.body.state]).toEqual([200, state]);
    expect((await api.call('contents/get', [created.id], { key: owner.viewer })).body.state).toBe(state);
  });

  it.each([
    ['an unknown state', { state: 'deleted' }, 'args.1.state'],
    ['the filter value all', { state: 'all' }, 'args.1.state'],
    ['an empty key', { key: '' }, 'args.1.key'],
    ['a key of 1025 characters', { key: 'k'.repeat(1025) }, 'args.1.key'],
    ['a description of 256 characters', { description: 'd'.repeat(256) }, 'args.1.description'],
    ['a field that cannot change', { contentSetId: 'x' }, 'args.1'],
  ])('refuses %s and changes nothing', async (_case, changes, path) => {
    const created = await createContent(setId, `refuse-${_case}`);
    const before = await tableSnapshot();
    const answer = await api.call('contents/save', [created.id, changes], { key: owner.admin });
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer)).toContain(path);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('moves a key: the old one is free again, the new one is taken', async () => {
    const created = await createContent(setId, 'old-key');
    const saved = await api.call('contents/save', [created.id, { key: 'new-key' }], { key: owner.admin });
    expect([saved.status, saved.body.key, saved.body.id]).toEqual([200, 'new-key', created.id]);
    expect((await api.call('contents/get', [created.id], { key: owner.viewer })).body.key).toBe('new-key');
    expect(await exists(setId, 'old-key')).toBe(false);
    expect(await exists(setId, 'new-key')).toBe(true);
    const recreated = await createContent(setId, 'old-key');
    expect(recreated.id).not.toBe(created.id);
    expectError(await api.call('contents/create', [{ contentSetId: setId, key: 'new-key' }], { key: owner.admin }), 409, 'conflict');
  });

  it('moves a key to a 1024-character emoji key', async () => {
    const created = await createContent(setId, 'to-emoji');
    const key = '🎉'.repeat(1024);
    const saved = await api.call('contents/save', [created.id, { key }], { key: owner.admin });
    expect([saved.status, saved.body.key]).toEqual([200, key]);
    expect(await exists(setId, key)).toBe(true);
    expect(await exists(setId, 'to-emoji')).toBe(false);
  });

  it('saving the current key keeps it taken', async () => {
    const created = await createContent(setId, 'same-key');
    const saved = await api.call('contents/save', [created.id, { key: 'same-key', title: 'T' }], { key: owner.admin });
    expect([saved.status, saved.body.key, saved.body.metadata]).toEqual([200, 'same-key', { title: 'T' }]);
    expect(await exists(setId, 'same-key')).toBe(true);
  });

  it('answers conflict when moving onto a taken key and changes nothing', async () => {
    const first = await createContent(setId, 'first');
    await createContent(setId, 'second');
    const before = await tableSnapshot();
    const answer = await api.call('contents/save', [first.id, { key: 'second', title: 'changed' }], { key: owner.admin });
    expectError(answer, 409, 'conflict');
    expect(await tableSnapshot()).toEqual(before);
    expect((await api.call('contents/get', [first.id], { key: owner.viewer })).body).toEqual(first);
    expect(await exists(setId, 'first')).toBe(true);
  });

  it('answers not-found for another account and unknown ids, and needs admin', async () => {
    const created = await createContent(setId, 'protected');
    const before = await tableSnapshot();
    expectError(await api.call('contents/save', [created.id, { title: 'x' }], { key: other.admin }), 404, 'not-found');
    expectError(await api.call('contents/save', [created.id, { key: 'stolen' }], { key: other.admin }), 404, 'not-found');
    expectError(await api.call('contents/save', ['A'.repeat(22), { title: 'x' }], { key: owner.admin }), 404, 'not-found');
    expectError(await api.call('contents/save', [created.id, { title: 'x' }], { key: owner.viewer }), 403, 'forbidden');
    expectError(await api.call('contents/save', [created.id, { title: 'x' }]), 401, 'unauthorized');
    expectError(await api.call('contents/save', [created.id, { title: 'x' }], { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('contents/save', [created.id, { title: 'x' }], { headers: { authorization: 'API-KEY' } }), 401, 'unauthorized');
    expect(await tableSnapshot()).toEqual(before);
  });
});

describe('contents/exists', () => {
  it("is true only for a key of the caller's account", async () => {
    await createContent(setId, 'exists-key');
    expect(await exists(setId, 'exists-key')).toBe(true);
    expect(await exists(setId, 'exists-key-not')).toBe(false);
    expect(await exists(secondSetId, 'exists-key')).toBe(false);
    expect(await exists(setId, 'exists-key', other)).toBe(false);
    const admin = await api.call('contents/exists', [{ contentSetId: setId, key: 'exists-key' }], { key: other.admin });
    expect([admin.status, admin.body]).toEqual([200, false]);
    expect((await api.call('contents/exists', [{ contentSetId: setId, key: 'exists-key' }], { key: owner.admin })).body).toBe(true);
  });

  it('checks its arguments and needs a key', async () => {
    expectError(await api.call('contents/exists', [{ contentSetId: setId, key: 'x' }]), 401, 'unauthorized');
    expectError(await api.call('contents/exists', [{ contentSetId: setId, key: 'x' }], { key: revokedKey }), 401, 'unauthorized');
    const missing = await api.call('contents/exists', [{ contentSetId: setId }], { key: owner.viewer });
    expectError(missing, 400, 'bad-request');
    expect(fieldPaths(missing)).toContain('args.0.key');
    const tooLong = await api.call('contents/exists', [{ contentSetId: setId, key: '😀'.repeat(1025) }], { key: owner.viewer });
    expectError(tooLong, 400, 'bad-request');
    expect(fieldPaths(tooLong)).toContain('args.0.key');
  });
});

describe('contents/lookup', () => {
  let account: AccountKeys;
  let p1: string;
  let p2: string;
  let s1: string;
  let s2: string;
  let s3: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    account = await createAccount('lookup');
    p1 = (await api.call('projects/create', [{ name: 'P1' }], { key: account.admin })).body.id;
    p2 = (await api.call('projects/create', [{ name: 'P2' }], { key: account.admin })).body.id;
    s1 = await createSet('s1', account, p1);
    s2 = await createSet('s2', account, p1);
    s3 = await createSet('s3', account, p2);
    ids.a = (await createContent(s1, 'page-a', account, { title: 'Alpha' })).id;
    ids.b = (await createContent(s1, 'page-b', account)).id;
    ids.c = (await createContent(s2, 'Page-C', account)).id;
    ids.d = (await createContent(s3, 'page-d', account, { url: 'https://example.com/d' })).id;
    await api.call('contents/save', [ids.b, { state: 'archived' }], { key: account.admin });
    await api.call('contents/save', [ids.c, { state: 'inactive' }], { key: account.admin });
  });

  async function keys(text: string, filters?: object, caller = account.viewer): Promise<string[]> {
    const answer = await api.call('contents/lookup', filters === undefined ? [text] : [text, filters], { key: caller });
    expect(answer.status).toBe(200);
    return answer.body.map((entry: { key: string }) => entry.key);
  }

  it('answers ContentItemLookupEntry objects', async () => {
    const answer = await api.call('contents/lookup', ['page-d'], { key: account.viewer });
    expect(answer.body).toEqual([{ id: ids.d, key: 'page-d', projectId: p2, contentSetId: s3, metadata: { url: 'https://example.com/d' } }]);
  });

  it('matches key prefixes case-insensitively and every state by default', async () => {
    expect(await keys('PAGE')).toEqual(['page-a', 'page-b', 'Page-C', 'page-d']);
    expect(await keys('page', null as unknown as object)).toEqual(['page-a', 'page-b', 'Page-C', 'page-d']);
    expect(await keys('page', { state: 'all' })).toEqual(['page-a', 'page-b', 'Page-C', 'page-d']);
  });

  it('matches title prefixes and ids', async () => {
    expect(await keys('alp')).toEqual(['page-a']);
    expect(await keys(ids.c)).toEqual(['Page-C']);
    expect(await keys('nothing-like-this')).toEqual([]);
  });

  it('filters on state, projectId and contentSetId', async () => {
    expect(await keys('page', { state: 'active' })).toEqual(['page-a', 'page-d']);
    expect(await keys('page', { state: 'archived' })).toEqual(['page-b']);
    expect(await keys('page', { state: 'inactive' })).toEqual(['Page-C']);
    expect(await keys('page', { projectId: p2 })).toEqual(['page-d']);
    expect(await keys('page', { projectId: p1 })).toEqual(['page-a', 'page-b', 'Page-C']);
    expect(await keys('page', { contentSetId: s2 })).toEqual(['Page-C']);
    expect(await keys('page', { projectId: p1, state: 'active' })).toEqual(['page-a']);
    expect(await keys('page', { contentSetId: s3, projectId: p1 })).toEqual([]);
  });

  it('refuses unknown filters and states', async () => {
    const badState = await api.call('contents/lookup', ['page', { state: 'deleted' }], { key: account.viewer });
    expectError(badState, 400, 'bad-request');
    expect(fieldPaths(badState)).toContain('args.1.state');
    const unknown = await api.call('contents/lookup', ['page', { schema: 'pulse' }], { key: account.viewer });
    expectError(unknown, 400, 'bad-request');
    expect(fieldPaths(unknown)).toContain('args.1');
  });

  it('returns at most 20 items', async () => {
    const many = await createAccount('many');
    const project = (await api.call('projects/create', [{ name: 'Many' }], { key: many.admin })).body.id;
    const set = await createSet('many', many, project);
    for (let index = 1; index <= 23; index++) await createContent(set, `item-${String(index).padStart(2, '0')}`, many);
    const found = await keys('item-', undefined, many.viewer);
    expect(found).toHaveLength(20);
    expect(found).toEqual(Array.from({ length: 20 }, (_, index) => `item-${String(index + 1).padStart(2, '0')}`));
    expect(await keys('item-2', undefined, many.viewer)).toEqual(['item-20', 'item-21', 'item-22', 'item-23']);
  });

  it("never shows another account's items", async () => {
    expect(await keys('page', undefined, other.viewer)).toEqual([]);
    expect(await keys(ids.a, undefined, other.admin)).toEqual([]);
    expect(await keys('page', { contentSetId: s1 }, other.viewer)).toEqual([]);
  });

  it('needs a live key', async () => {
    expectError(await api.call('contents/lookup', ['page']), 401, 'unauthorized');
    expectError(await api.call('contents/lookup', ['page'], { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('contents/lookup', ['page'], { headers: { authorization: 'Basic abc' } }), 401, 'unauthorized');
  });
});
