import { createAccount, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';

let api: TestApi;
let owner: AccountKeys;
let projectId: string;

async function createSet(schema: string, extra: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) {
  const { status, body } = await api.call(
    'sets/create',
    [{ projectId, key: `${schema}-${Math.random().toString(36).slice(2, 8)}`, schema, metadata: { name: schema, ...metadata }, ...extra }],
    { key: owner.admin },
  );
  expect(status).toBe(200);
  return body as { id: string };
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('responses');
  projectId = (await api.call('projects/create', [{ name: 'Site' }], { key: owner.admin })).body.id;
});
afterAll(() => api.close());

describe('responses/create', () => {
  it('creates the content item on first use and returns a revoke token when asked', async () => {
    const set = await createSet('yes-no');
    const key = 'https://example.com/docs?page=1&lang=en';
    const { status, body } = await api.call('responses/create', [{ contentSetId: set.id, key, value: '+1', revokable: true }]);
    expect(status).toBe(200);
    expect(body).toEqual({
      responseId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      feelbackId: body.responseId,
      revokable: { token: expect.any(String), expireAt: expect.stringMatching(/Z$/) },
    });
    const lookup = await api.call('contents/lookup', ['https://example.com/docs'], { key: owner.viewer });
    expect(lookup.body).toEqual([expect.objectContaining({ key, metadata: { url: key } })]);
    const stored = await api.call('responses/get', [body.responseId], { key: owner.viewer });
    expect(stored.body).toMatchObject({ state: 'active', value: 'y', contentSetId: set.id, contentItemId: lookup.body[0].id });
    expect(JSON.stringify(stored.body)).not.toContain(body.revokable.token);
  });

  it('accepts the seven positional arguments', async () => {
    const set = await createSet('rating');
    const { status, body } = await api.call('responses/create', [set.id, 'page-1', 4, { $user: 'a@b.c' }, null, false, { os: 'Plan 9' }]);
    expect(status).toBe(200);
    expect(body.revokable).toBeUndefined();
    const stored = await api.call('responses/get', [body.responseId], { key: owner.viewer });
    expect(stored.body).toMatchObject({ value: 4, context: { $user: 'a@b.c' }, profiling: { os: 'Plan 9', userId: 'a@b.c' } });
  });

  it('refuses a bad value and writes nothing', async () => {
    const set = await createSet('reaction');
    const before = await tableSnapshot();
    const { status, body } = await api.call('responses/create', [{ contentSetId: set.id, key: 'k', value: 'thumbs' }]);
    expect([status, body.error, body.data.fields[0].path]).toEqual([400, 'bad-request', 'args.0.value']);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('makes exactly one content item for fifty concurrent first responses', async () => {
    const set = await createSet('pulse');
    const results = await Promise.all(
      Array.from({ length: 50 }, () => api.call('responses/create', [{ contentSetId: set.id, key: 'hot-page', value: '+' }])),
    );
    expect(results.map((result) => result.status)).toEqual(Array(50).fill(200));
    const items = await api.call('contents/lookup', ['hot-page', { contentSetId: set.id }], { key: owner.viewer });
    expect(items.body).toHaveLength(1);
    const list = await api.call('responses/list', [{ contentId: items.body[0].id, $size: 100 }], { key: owner.viewer });
    expect(list.body.items).toHaveLength(50);
    expect(list.body.hasMore).toBe(false);
  });
});

describe('responses/edit and responses/remove', () => {
  it('edits within the window, then removes, then refuses a second removal', async () => {
    const set = await createSet('reaction');
    const created = (await api.call('feelbacks/create', [{ contentSetId: set.id, key: 'p', value: 'heart', revokable: true }])).body;
    const edited = await api.call('feelbacks/edit', [{ feelbackId: created.feelbackId, revokeToken: created.revokable.token, value: 'rocket' }]);
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ responseId: created.responseId, feelbackId: created.responseId, revokable: created.revokable });
    expect((await api.call('responses/get', [created.responseId], { key: owner.viewer })).body.value).toBe('rocket');

    const wrong = await api.call('responses/remove', [{ responseId: created.responseId, revokeToken: 'nope' }]);
    expect([wrong.status, wrong.body.error]).toEqual([403, 'forbidden']);
    const removed = await api.call('feelbacks/remove', [{ feelbackId: created.responseId, revokeToken: created.revokable.token }]);
    expect([removed.status, removed.body]).toEqual([204, undefined]);
    expect((await api.call('responses/get', [created.responseId], { key: owner.viewer })).body.state).toBe('revoked');
    const again = await api.call('responses/remove', [{ responseId: created.responseId, revokeToken: created.revokable.token }]);
    expect([again.status, again.body.error]).toEqual([409, 'conflict']);
  });
});
