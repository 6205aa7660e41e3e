import { createAccount, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';

let api: TestApi;
let owner: AccountKeys;
let other: AccountKeys;

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('owner');
  other = await createAccount('other');
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
