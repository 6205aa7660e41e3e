import { createAccount, expectError, revokedAdminKey, fieldPaths, pause, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let api: TestApi;
let owner: AccountKeys;
let other: AccountKeys;
let revokedKey: string;

async function createProject(name: string, account: AccountKeys = owner, description?: string) {
  const answer = await api.call('projects/create', [{ name, ...(description === undefined ? {} : { description }) }], { key: account.admin });
  expect(answer.status).toBe(200);
  return answer.body;
}

beforeAll(async () => {
  api = await startTestApi({ stream: false });
  owner = await createAccount('owner');
  other = await createAccount('other');
  revokedKey = await revokedAdminKey(owner.accountId);
});
afterAll(() => api.close());

describe('projects/create', () => {
  it('creates an active project with ISO dates and an unguessable id', async () => {
    const { status, body } = await api.call('projects/create', [{ name: 'Docs', description: 'Our docs' }], { key: owner.admin });
    expect(status).toBe(200);
    expect(body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      name: 'Docs',
      accountId: owner.accountId,
      state: 'active',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: body.createdAt,
      metadata: { description: 'Our docs' },
    });
  });

  it.each([
    ['empty name', [{ name: '' }], 'args.0.name'],
    ['name of 51 characters', [{ name: 'x'.repeat(51) }], 'args.0.name'],
    ['description of 256 characters', [{ name: 'ok', description: 'd'.repeat(256) }], 'args.0.description'],
    ['unknown field', [{ name: 'ok', colour: 'red' }], 'args.0'],
    ['no arguments', [], 'args'],
    ['two arguments', [{ name: 'ok' }, {}], 'args'],
  ])('refuses %s with bad-request and writes nothing', async (_case, args, path) => {
    const before = await tableSnapshot();
    const { status, body } = await api.call('projects/create', args, { key: owner.admin });
    expect(status).toBe(400);
    expect(body.error).toBe('bad-request');
    expect(body.data.fields.map((field: { path: string }) => field.path)).toContain(path);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('accepts a name of exactly 50 and a description of exactly 255 characters', async () => {
    const { status } = await api.call('projects/create', [{ name: 'x'.repeat(50), description: 'd'.repeat(255) }], { key: owner.admin });
    expect(status).toBe(200);
  });

  it('needs an admin key', async () => {
    expect((await api.call('projects/create', [{ name: 'A' }])).body.error).toBe('unauthorized');
    const viewer = await api.call('projects/create', [{ name: 'A' }], { key: owner.viewer });
    expect([viewer.status, viewer.body.error]).toEqual([403, 'forbidden']);
    const unknown = await api.call('projects/create', [{ name: 'A' }], { key: 'fbk_unknown' });
    expect([unknown.status, unknown.body.error]).toEqual([401, 'unauthorized']);
  });
});

describe('projects/get and projects/save', () => {
  it('keeps createdAt, moves updatedAt and applies only the given fields', async () => {
    const created = (await api.call('projects/create', [{ name: 'Blog', description: 'posts' }], { key: owner.admin })).body;
    await new Promise((wait) => setTimeout(wait, 5));
    const saved = await api.call('projects/save', [created.id, { state: 'archived' }], { key: owner.admin });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ name: 'Blog', state: 'archived', metadata: { description: 'posts' }, createdAt: created.createdAt });
    expect(saved.body.updatedAt > created.updatedAt).toBe(true);
    const read = await api.call('projects/get', [created.id], { key: owner.viewer });
    expect(read.body).toEqual(saved.body);
  });

  it('answers not-found for another account and writes nothing', async () => {
    const created = (await api.call('projects/create', [{ name: 'Private' }], { key: owner.admin })).body;
    expect((await api.call('projects/get', [created.id], { key: other.viewer })).status).toBe(404);
    const before = await tableSnapshot();
    const save = await api.call('projects/save', [created.id, { name: 'Stolen' }], { key: other.admin });
    expect([save.status, save.body.error]).toEqual([404, 'not-found']);
    expect(await tableSnapshot()).toEqual(before);
  });
});

describe('projects/lookup', () => {
  it('matches a case-insensitive name prefix, defaults to active and filters on state', async () => {
    const account = await createAccount('lookup');
    const names = ['Alpha', 'alphabet', 'Beta'];
    const ids: Record<string, string> = {};
    for (const name of names) ids[name] = (await api.call('projects/create', [{ name }], { key: account.admin })).body.id;
    await api.call('projects/save', [ids.alphabet, { state: 'archived' }], { key: account.admin });

    const active = await api.call('projects/lookup', ['ALP'], { key: account.viewer });
    expect(active.body.map((project: { name: string }) => project.name)).toEqual(['Alpha']);
    const all = await api.call('projects/lookup', ['alp', { state: 'all' }], { key: account.viewer });
    expect(all.body.map((project: { name: string }) => project.name)).toEqual(['Alpha', 'alphabet']);
    const byId = await api.call('projects/lookup', [ids.Beta], { key: account.viewer });
    expect(byId.body.map((project: { name: string }) => project.name)).toEqual(['Beta']);
    const viaGet = await api.call('projects/lookup', ['be', { state: 'active' }], { key: account.viewer, method: 'GET' });
    expect(viaGet.body.map((project: { name: string }) => project.name)).toEqual(['Beta']);
  });
});

describe('projects/create, more', () => {
  it('answers an empty metadata object without a description', async () => {
    const body = await createProject('Bare');
    expect(body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      name: 'Bare',
      accountId: owner.accountId,
      state: 'active',
      createdAt: expect.stringMatching(ISO),
      updatedAt: body.createdAt,
      metadata: {},
    });
  });

  it('accepts a name of 1 character and 50 multi-byte characters', async () => {
    expect((await createProject('x')).name).toBe('x');
    expect((await createProject('😀'.repeat(50))).name).toBe('😀'.repeat(50));
    const tooLong = await api.call('projects/create', [{ name: '😀'.repeat(51) }], { key: owner.admin });
    expectError(tooLong, 400, 'bad-request');
    expect(fieldPaths(tooLong)).toContain('args.0.name');
  });

  it.each([
    ['a blank name', [{ name: '   ' }], 'args.0.name'],
    ['a missing name', [{ description: 'd' }], 'args.0.name'],
    ['a state on create', [{ name: 'x', state: 'archived' }], 'args.0'],
  ])('refuses %s and writes nothing', async (_case, args, path) => {
    const before = await tableSnapshot();
    const answer = await api.call('projects/create', args, { key: owner.admin });
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer)).toContain(path);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('refuses revoked keys and malformed Authorization headers, writing nothing', async () => {
    const before = await tableSnapshot();
    expectError(await api.call('projects/create', [{ name: 'A' }], { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('projects/create', [{ name: 'A' }], { headers: { authorization: `Bearer ${owner.admin}` } }), 401, 'unauthorized');
    expectError(await api.call('projects/create', [{ name: 'A' }], { headers: { authorization: 'API-KEY' } }), 401, 'unauthorized');
    expect(await tableSnapshot()).toEqual(before);
  });
});

describe('projects/get, more', () => {
  it('is readable by viewers and admins of the account only', async () => {
    const created = await createProject('Readable', owner, 'desc');
    for (const key of [owner.viewer, owner.admin]) {
      const read = await api.call('projects/get', [created.id], { key });
      expect([read.status, read.body]).toEqual([200, created]);
    }
    expectError(await api.call('projects/get', [created.id]), 401, 'unauthorized');
    expectError(await api.call('projects/get', [created.id], { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('projects/get', [created.id], { headers: { authorization: 'API-KEY a b' } }), 401, 'unauthorized');
    expectError(await api.call('projects/get', [created.id], { key: other.viewer }), 404, 'not-found');
    expectError(await api.call('projects/get', [created.id], { key: other.admin }), 404, 'not-found');
    expectError(await api.call('projects/get', ['A'.repeat(22)], { key: owner.viewer }), 404, 'not-found');
  });
});

describe('projects/save, more', () => {
  it('applies each field alone, trims the name and keeps createdAt', async () => {
    const created = await createProject('Original', owner, 'first');
    await pause();
    const renamed = await api.call('projects/save', [created.id, { name: '  Renamed  ' }], { key: owner.admin });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...created, name: 'Renamed', updatedAt: expect.stringMatching(ISO) });
    expect(renamed.body.updatedAt > created.updatedAt).toBe(true);
    await pause();
    const described = await api.call('projects/save', [created.id, { description: 'second' }], { key: owner.admin });
    expect(described.body).toEqual({ ...created, name: 'Renamed', metadata: { description: 'second' }, updatedAt: expect.stringMatching(ISO) });
    expect(described.body.updatedAt > renamed.body.updatedAt).toBe(true);
    const nothing = await api.call('projects/save', [created.id, {}], { key: owner.admin });
    expect(nothing.body).toEqual({ ...described.body, updatedAt: expect.stringMatching(ISO) });
    expect((await api.call('projects/get', [created.id], { key: owner.viewer })).body).toEqual(nothing.body);
    // The name index follows the rename.
    const byNew = await api.call('projects/lookup', ['renamed'], { key: owner.viewer });
    expect(byNew.body.map((project: { id: string }) => project.id)).toContain(created.id);
    const byOld = await api.call('projects/lookup', ['original'], { key: owner.viewer });
    expect(byOld.body.map((project: { id: string }) => project.id)).not.toContain(created.id);
  });

  it('moves a project between active and archived', async () => {
    const created = await createProject('Stateful');
    expect((await api.call('projects/save', [created.id, { state: 'archived' }], { key: owner.admin })).body.state).toBe('archived');
    const back = await api.call('projects/save', [created.id, { state: 'active' }], { key: owner.admin });
    expect([back.status, back.body.state]).toEqual([200, 'active']);
  });

  it('accepts the limits: name of 1 and 50, description of 0 and 255 characters', async () => {
    const created = await createProject('Limits');
    for (const changes of [{ name: 'n' }, { name: 'n'.repeat(50) }, { description: '' }, { description: 'd'.repeat(255) }]) {
      const saved = await api.call('projects/save', [created.id, changes], { key: owner.admin });
      expect(saved.status).toBe(200);
    }
    expect((await api.call('projects/get', [created.id], { key: owner.viewer })).body).toMatchObject({
      name: 'n'.repeat(50),
      metadata: { description: 'd'.repeat(255) },
    });
  });

  it.each([
    ['state inactive (a content state)', { state: 'inactive' }, 'args.1.state'],
    ['state all (a filter value)', { state: 'all' }, 'args.1.state'],
    ['an empty name', { name: '' }, 'args.1.name'],
    ['a name of 51 characters', { name: 'n'.repeat(51) }, 'args.1.name'],
    ['a description of 256 characters', { description: 'd'.repeat(256) }, 'args.1.description'],
    ['an unknown field', { accountId: 'mine' }, 'args.1'],
    ['a missing changes object', undefined, 'args'],
  ])('refuses %s and changes nothing', async (_case, changes, path) => {
    const created = await createProject(`Refuse ${_case}`.slice(0, 50));
    const before = await tableSnapshot();
    const answer = await api.call('projects/save', changes === undefined ? [created.id] : [created.id, changes], { key: owner.admin });
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer)).toContain(path);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('needs an admin key of the account and writes nothing otherwise', async () => {
    const created = await createProject('Guarded');
    const before = await tableSnapshot();
    expectError(await api.call('projects/save', [created.id, { name: 'x' }]), 401, 'unauthorized');
    expectError(await api.call('projects/save', [created.id, { name: 'x' }], { key: owner.viewer }), 403, 'forbidden');
    expectError(await api.call('projects/save', [created.id, { name: 'x' }], { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('projects/save', [created.id, { name: 'x' }], { headers: { authorization: 'Token abc' } }), 401, 'unauthorized');
    expectError(await api.call('projects/save', [created.id, { state: 'archived' }], { key: other.admin }), 404, 'not-found');
    expectError(await api.call('projects/save', ['A'.repeat(22), { name: 'x' }], { key: owner.admin }), 404, 'not-found');
    expect(await tableSnapshot()).toEqual(before);
  });
});

describe('projects/lookup, more', () => {
  it('returns at most 20 projects, in name order', async () => {
    const many = await createAccount('many');
    for (let index = 23; index >= 1; index--) await createProject(`Many ${String(index).padStart(2, '0')}`, many);
    const answer = await api.call('projects/lookup', ['many'], { key: many.viewer });
    expect(answer.body.map((project: { name: string }) => project.name)).toEqual(
      Array.from({ length: 20 }, (_, index) => `Many ${String(index + 1).padStart(2, '0')}`),
    );
    expect((await api.call('projects/lookup', ['', { state: 'all' }], { key: many.viewer })).body).toHaveLength(20);
  });

  it('answers full Project objects and filters on archived', async () => {
    const account = await createAccount('shapes');
    const active = await createProject('Shape one', account, 'd');
    const archived = (await api.call('projects/save', [(await createProject('Shape two', account)).id, { state: 'archived' }], { key: account.admin })).body;
    expect((await api.call('projects/lookup', ['shape'], { key: account.viewer })).body).toEqual([active]);
    expect((await api.call('projects/lookup', ['shape', { state: 'archived' }], { key: account.viewer })).body).toEqual([archived]);
    expect((await api.call('projects/lookup', ['shape', { state: 'all' }], { key: account.admin })).body).toEqual([active, archived]);
    expect((await api.call('projects/lookup', ['shape', null], { key: account.viewer })).body).toEqual([active]);
  });

  it("never shows another account's projects", async () => {
    const mine = await createProject('Secret plans');
    for (const key of [other.viewer, other.admin]) {
      expect((await api.call('projects/lookup', ['secret', { state: 'all' }], { key })).body).toEqual([]);
      expect((await api.call('projects/lookup', [mine.id, { state: 'all' }], { key })).body).toEqual([]);
    }
    expect((await api.call('projects/lookup', [mine.id], { key: owner.viewer })).body).toEqual([mine]);
  });

  it('checks filters and needs a live key', async () => {
    const badState = await api.call('projects/lookup', ['x', { state: 'inactive' }], { key: owner.viewer });
    expectError(badState, 400, 'bad-request');
    expect(fieldPaths(badState)).toContain('args.1.state');
    expectError(await api.call('projects/lookup', ['x']), 401, 'unauthorized');
    expectError(await api.call('projects/lookup', ['x'], { key: revokedKey }), 401, 'unauthorized');
    expectError(await api.call('projects/lookup', ['x'], { headers: { authorization: 'API-KEY fbk_nope' } }), 401, 'unauthorized');
  });
});
