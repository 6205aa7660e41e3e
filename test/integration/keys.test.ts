import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashSecret } from '../../functions/api/auth';
import { defaultStore } from '../../functions/store/entity-store';
import { keyOf } from '../../functions/store/batch';
import { createAccount, expectError, fieldPaths, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';

/** keys/list, keys/create, keys/revoke: an account's API keys over the API, for admins. */
let api: TestApi;
let owner: AccountKeys;
let other: AccountKeys;

beforeAll(async () => {
  api = await startTestApi({ stream: false });
  owner = await createAccount('keys-owner');
  other = await createAccount('keys-other');
});
afterAll(() => api.close());

async function listAll(key: string, $size?: number) {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const answer = await api.call(
      'keys/list',
      [$size || cursor ? { ...($size ? { $size } : {}), ...(cursor ? { cursor } : {}) } : undefined].filter((arg) => arg !== undefined),
      { key },
    );
    expect(answer.status).toBe(200);
    items.push(...answer.body.items);
    cursor = answer.body.cursor;
  } while (cursor);
  return items;
}

async function rawKey(key: string) {
  const { store } = defaultStore();
  return (await store.entities.ApiKey.get({ keyHash: hashSecret(key) }).go({ consistent: true })).data!;
}

/** The public id of a key, as members/me names it. */
async function idOf(key: string): Promise<string> {
  return (await api.call('members/me', [], { key })).body.key.id;
}

describe('keys/create and keys/list', () => {
  it('issues a key shown once, which works at its level, and lists keys without secrets', async () => {
    const created = await api.call('keys/create', [{ level: 'viewer', label: '  dashboard  ' }], { key: owner.admin });
    expect(created.status).toBe(200);
    const creator = { type: 'key', keyId: await idOf(owner.admin) };
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{12}$/),
      key: expect.stringMatching(/^fbk_/),
      level: 'viewer',
      label: 'dashboard',
      createdAt: expect.any(String),
      createdBy: creator,
    });
    const projects = await api.call('projects/lookup', [''], { key: created.body.key });
    expect(projects.status).toBe(200);
    expectError(await api.call('projects/create', [{ name: 'No' }], { key: created.body.key }), 403, 'forbidden');
    const admin = await api.call('keys/create', [{ level: 'admin' }], { key: owner.admin });
    expect(admin.body).not.toHaveProperty('label');

    const listed = await listAll(owner.admin);
    expect(listed).toHaveLength(4);
    expect(listed[0]).toEqual({ id: admin.body.id, level: 'admin', createdAt: admin.body.createdAt, createdBy: creator });
    expect(listed.find((entry) => entry.id === created.body.id)).toMatchObject({
      id: created.body.id,
      level: 'viewer',
      label: 'dashboard',
      createdBy: creator,
    });
    // Keys issued outside the API without a maker (before makers were recorded) show none.
    expect(listed.filter((entry) => entry.createdBy === undefined)).toHaveLength(2);
    const text = JSON.stringify(listed);
    expect(text).not.toContain('fbk_');
    expect(text).not.toContain(hashSecret(created.body.key));
    expect(text).not.toContain('keyHash');
    expect(listed.map((entry) => entry.createdAt)).toEqual([...listed.map((entry) => entry.createdAt as string)].sort().reverse());
    expect(await listAll(owner.admin, 1)).toEqual(listed);
    expect((await listAll(other.admin)).map((entry) => entry.id)).not.toContain(created.body.id);
    expect(await listAll(other.admin)).toHaveLength(2);
  });
});

describe('lastUsedAt', () => {
  it('is set on first use and refreshed at most once a minute', async () => {
    const { body } = await api.call('keys/create', [{ level: 'viewer' }], { key: owner.admin });
    const entry = async () => (await listAll(owner.admin)).find((key) => key.id === body.id)!;
    expect(await entry()).not.toHaveProperty('lastUsedAt');
    await api.call('projects/lookup', [''], { key: body.key });
    const first = (await rawKey(body.key)).lastUsedAt!;
    expect((await entry()).lastUsedAt).toBe(first);
    await api.call('projects/lookup', [''], { key: body.key });
    await api.call('projects/lookup', [''], { key: body.key, method: 'GET' });
    expect((await rawKey(body.key)).lastUsedAt).toBe(first);
    // Two minutes pass (the stored time is moved back): the next request refreshes it, once.
    const { store } = defaultStore();
    const old = new Date(Date.now() - 120_000).toISOString();
    await store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keyOf(store.entities.ApiKey.get({ keyHash: hashSecret(body.key) })),
        UpdateExpression: 'SET lastUsedAt = :old',
        ExpressionAttributeValues: { ':old': old },
      }),
    );
    await Promise.all(Array.from({ length: 5 }, () => api.call('projects/lookup', [''], { key: body.key })));
    const refreshed = (await rawKey(body.key)).lastUsedAt!;
    expect(refreshed > old).toBe(true);
    expect(Date.now() - Date.parse(refreshed)).toBeLessThan(60_000);
  });
});

describe('keys/revoke', () => {
  it('revokes a key of the account from its next request; again changes nothing', async () => {
    const { body } = await api.call('keys/create', [{ level: 'viewer' }], { key: owner.admin });
    const answer = await api.call('keys/revoke', [body.id], { key: owner.admin });
    expect([answer.status, answer.body]).toEqual([204, undefined]);
    expectError(await api.call('projects/lookup', [''], { key: body.key }), 401, 'unauthorized');
    const revokedAt = (await listAll(owner.admin)).find((entry) => entry.id === body.id)!.revokedAt;
    expect(typeof revokedAt).toBe('string');
    expect((await api.call('keys/revoke', [body.id], { key: owner.admin })).status).toBe(204);
    expect((await listAll(owner.admin)).find((entry) => entry.id === body.id)!.revokedAt).toBe(revokedAt);
  });

  it('lets an admin revoke the calling key itself, effective from the next request', async () => {
    const { body } = await api.call('keys/create', [{ level: 'admin' }], { key: owner.admin });
    expect((await api.call('keys/revoke', [body.id], { key: body.key })).status).toBe(204);
    expectError(await api.call('keys/list', [], { key: body.key }), 401, 'unauthorized');
  });

  it('revokes the keys the revoked key created, and theirs in turn, with it; no other key', async () => {
    const create = async (by: string, level: 'viewer' | 'admin', label: string) => {
      const answer = await api.call('keys/create', [{ level, label }], { key: by });
      expect(answer.status).toBe(200);
      return answer.body as { id: string; key: string };
    };
    const parent = await create(owner.admin, 'admin', 'parent');
    const child = await create(parent.key, 'admin', 'child');
    const viewerChild = await create(parent.key, 'viewer', 'viewer child');
    const grandchild = await create(child.key, 'viewer', 'grandchild');
    const sibling = await create(owner.admin, 'admin', 'sibling');
    const siblingsChild = await create(sibling.key, 'viewer', "sibling's child");
    expect((await listAll(owner.admin)).find((entry) => entry.id === grandchild.id)).toMatchObject({
      createdBy: { type: 'key', keyId: child.id, label: 'child' },
    });

    expect((await api.call('keys/revoke', [parent.id], { key: owner.admin })).status).toBe(204);
    for (const fallen of [parent, child, viewerChild, grandchild]) {
      expectError(await api.call('projects/lookup', [''], { key: fallen.key }), 401, 'unauthorized');
    }
    for (const kept of [sibling, siblingsChild]) expect((await api.call('projects/lookup', [''], { key: kept.key })).status).toBe(200);
    expect((await api.call('projects/lookup', [''], { key: owner.admin })).status).toBe(200);
    const listed = await listAll(owner.admin);
    const revokedAt = (id: string) => listed.find((entry) => entry.id === id)!.revokedAt;
    expect([child, viewerChild, grandchild].map((key) => revokedAt(key.id))).toEqual(Array(3).fill(revokedAt(parent.id)));
  });

  it("answers not-found for another account's key and an unknown id, changing nothing", async () => {
    const theirs = await api.call('keys/create', [{ level: 'viewer' }], { key: other.admin });
    const before = await tableSnapshot();
    expectError(await api.call('keys/revoke', [theirs.body.id], { key: owner.admin }), 404, 'not-found');
    expectError(await api.call('keys/revoke', ['unknownkey12'], { key: owner.admin }), 404, 'not-found');
    expect(await tableSnapshot()).toEqual(before);
    expect((await api.call('projects/lookup', [''], { key: theirs.body.key })).status).toBe(200);
  });
});

describe('refusals', () => {
  it('are admin-only, and refuse malformed input and foreign cursors, changing nothing', async () => {
    const before = await tableSnapshot();
    expectError(await api.call('keys/list', [], { key: owner.viewer }), 403, 'forbidden');
    expectError(await api.call('keys/create', [{ level: 'admin' }], { key: owner.viewer }), 403, 'forbidden');
    expectError(await api.call('keys/revoke', ['whatever1234'], { key: owner.viewer }), 403, 'forbidden');
    expectError(await api.call('keys/list', []), 401, 'unauthorized');
    const malformed: [string, unknown[], string[]][] = [
      ['keys/create', [{}], ['args.0.level']],
      ['keys/create', [{ level: 'owner' }], ['args.0.level']],
      ['keys/create', [{ level: 'viewer', label: 'x'.repeat(201) }], ['args.0.label']],
      ['keys/create', [{ level: 'viewer', label: '   ' }], ['args.0.label']],
      ['keys/create', [{ level: 'viewer', accountId: other.accountId }], ['args.0']],
      ['keys/revoke', [], ['args']],
      ['keys/revoke', [''], ['args.0']],
      ['keys/list', [{ $size: 0 }], ['args.0.$size']],
      ['keys/list', [{ cursor: 'forged' }], ['args.0.cursor']],
    ];
    for (const [path, args, paths] of malformed) {
      const answer = await api.call(path, args, { key: owner.admin });
      expectError(answer, 400, 'bad-request');
      expect({ path, args, paths: fieldPaths(answer) }).toEqual({ path, args, paths });
    }
    const { body: page } = await api.call('keys/list', [{ $size: 1 }], { key: owner.admin });
    expect(page.cursor).toBeDefined();
    const foreign = await api.call('keys/list', [{ $size: 1, cursor: page.cursor }], { key: other.admin });
    expectError(foreign, 400, 'bad-request');
    expect(await tableSnapshot()).toEqual(before);
  });
});
