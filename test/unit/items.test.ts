/**
 * functions/store/items.ts writes the hot path's items without ElectroDB. Each one is
 * built here both ways, raw and through the ElectroDB entities of entities.ts, and they
 * must be identical: same keys, attributes, identity and conditions.
 */
import { responseShard } from '../../functions/domain/response-shards';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDocumentClient } from '../../functions/store/dynamodb-clients';
import { createStore } from '../../functions/store/entities';
import {
  aliasMembers,
  aliasMemberUpdate,
  apiKeyOf,
  memberOf,
  contentItemOf,
  contentKeyTarget,
  contentSetOf,
  createContentItem,
  createContentKey,
  createResponse,
  keys,
  responseOf,
  type NewResponse,
  userIndexAttributes,
} from '../../functions/store/items';

const TABLE = 'items_test';
const client = new DynamoDBClient({ region: 'local', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
const store = createStore({ documentClient: createDocumentClient(client), rawClient: client, tableName: TABLE });
const { ApiKey, Member, Project, ContentSet, ContentKey, ContentKeyAlias, ContentItem, Response } = store.entities;

/** What ElectroDB's transaction commits are: TransactWriteItems entries. */
function electroCommits(build: Parameters<typeof store.transaction.write>[0]): unknown[] {
  let commits: unknown[] = [];
  store.transaction
    .write((entities) => {
      const built = build(entities);
      // Without the symbol ElectroDB tags its commits with.
      commits = (built as object[]).map((commit) => Object.fromEntries(Object.entries(commit)));
      return built;
    })
    .params();
  return commits;
}

const response: NewResponse = {
  id: 'R'.repeat(22),
  accountId: 'A'.repeat(22),
  projectId: 'P'.repeat(22),
  contentSetId: 'S'.repeat(22),
  contentItemId: 'C'.repeat(22),
  schema: 'reaction',
  state: 'active',
  value: 'heart',
  contribution: { option: 2, sentiment: 1 },
  context: { $user: 'a@b.c', plan: 'pro' },
  profiling: { os: 'iOS', browser: 'Safari' },
  revokeTokenHash: 'hash',
  revokeExpiresAt: '2026-01-01T01:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const item = {
  id: 'I'.repeat(22),
  accountId: 'A'.repeat(22),
  projectId: 'P'.repeat(22),
  contentSetId: 'S'.repeat(22),
  key: 'https://example.com/Caf%C3%A9?q=1',
  keyPrefixLower: 'https://example.com/caf%c3%a9?q=1',
  title: undefined,
  titlePrefixLower: '',
  description: undefined,
  url: 'https://example.com/Caf%C3%A9?q=1',
  state: 'active' as const,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('raw items are what the ElectroDB entities write', () => {
  test('a response, with and without optional attributes, and naming a person (the sparse byUser index)', () => {
    const namingAPerson = { ...response, ...userIndexAttributes({ ...response, userId: 'person-1' }) };
    for (const record of [
      response,
      namingAPerson,
      { ...response, context: undefined, profiling: undefined, revokeTokenHash: undefined, revokeExpiresAt: undefined },
    ]) {
      expect(createResponse(TABLE, record)).toEqual(electroCommits(({ Response }) => [Response.create(record).commit()])[0]);
    }
    // The list index keys carry the response's write shard (domain/response-shards.ts), so do ElectroDB's puts without one given.
    const shard = responseShard(response.id);
    expect(createResponse(TABLE, response).Put!.Item).toMatchObject({
      shard,
      gsi1pk: `content#${response.contentItemId}#responses#${shard}`,
      gsi2pk: `set#${response.contentSetId}#responses#${shard}`,
      gsi3pk: `project#${response.projectId}#responses#${shard}`,
    });
    expect(Response.put(response).params().Item).toMatchObject({ shard, gsi3pk: `project#${response.projectId}#responses#${shard}` });
  });

  test('a content item and its key item', () => {
    expect(createContentItem(TABLE, item)).toEqual(electroCommits(({ ContentItem }) => [ContentItem.create(item).commit()])[0]);
    const key = { contentSetId: item.contentSetId, keyHash: 'h4sh', contentItemId: item.id, accountId: item.accountId };
    expect(createContentKey(TABLE, key)).toEqual(electroCommits(({ ContentKey }) => [ContentKey.create(key).commit()])[0]);
  });

  test('alias member ADD (bounded) and DELETE', () => {
    const alias = { contentSetId: 'S'.repeat(22), decodedKeyHash: 'd3c0d3d' };
    const [add, remove] = electroCommits(({ ContentKeyAlias }) => [
      ContentKeyAlias.update(alias)
        .add({ members: ['m'] })
        .where(({ members }, { notExists, size, value }) => `${notExists(members)} OR ${size(members)} < ${value(members, 16 as never)}`)
        .commit(),
      ContentKeyAlias.update(alias)
        .delete({ members: ['m'] })
        .commit(),
    ]);
    expect(aliasMemberUpdate(TABLE, alias, 'add', 'm', 16)).toEqual(add);
    expect(aliasMemberUpdate(TABLE, alias, 'delete', 'm', 16)).toEqual(remove);
  });

  test('keys', () => {
    expect(keys.apiKey('h')).toEqual(ApiKey.get({ keyHash: 'h' }).params().Key);
    expect(keys.member('h')).toEqual(Member.get({ personKey: 'h' }).params().Key);
    expect(keys.project('p')).toEqual(Project.get({ id: 'p' }).params().Key);
    expect(keys.contentSet('s')).toEqual(ContentSet.get({ id: 's' }).params().Key);
    expect(keys.contentKey('s', 'h')).toEqual(ContentKey.get({ contentSetId: 's', keyHash: 'h' }).params().Key);
    expect(keys.contentKeyAlias('s', 'd')).toEqual(ContentKeyAlias.get({ contentSetId: 's', decodedKeyHash: 'd' }).params().Key);
    expect(keys.contentItem('i')).toEqual(ContentItem.get({ id: 'i' }).params().Key);
    expect(keys.response('r')).toEqual(Response.get({ id: 'r' }).params().Key);
  });
});

describe('raw reads give what ElectroDB parses', () => {
  test('set, item, response (with its token hash), API key, key item, alias', () => {
    const set = {
      id: 'S'.repeat(22),
      accountId: 'A'.repeat(22),
      projectId: 'P'.repeat(22),
      key: 'Docs',
      keyLower: 'docs',
      name: 'Docs',
      nameLower: 'docs',
      schema: 'reaction' as const,
      schemaConfig: { options: ['heart'] },
      disallowAutoContentCreation: false,
      publicAggregates: true,
      revokeWindowSeconds: 3600,
      state: 'active' as const,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const setItem = ContentSet.create(set).params().Item;
    expect(contentSetOf(setItem)).toEqual(ContentSet.parse({ Item: setItem }).data);

    const stored = createContentItem(TABLE, item).Put!.Item;
    expect(contentItemOf(stored)).toEqual(ContentItem.parse({ Item: stored }).data);

    const storedResponse = createResponse(TABLE, response).Put!.Item;
    expect(responseOf(storedResponse)).toEqual({ ...Response.parse({ Item: storedResponse }).data, revokeTokenHash: 'hash' });

    const apiKey = { keyHash: 'h', id: 'K'.repeat(22), accountId: 'A'.repeat(22), level: 'admin' as const, createdAt: 't', updatedAt: 't' };
    const apiKeyItem = ApiKey.create(apiKey).params().Item;
    expect(apiKeyOf(apiKeyItem)).toEqual({ id: apiKey.id, accountId: apiKey.accountId, level: 'admin', revokedAt: undefined });

    const member = {
      personKey: 'h',
      id: 'M'.repeat(22),
      accountId: 'A'.repeat(22),
      issuer: 'https://id.example',
      subject: 's',
      role: 'owner' as const,
      email: 'a@example.com',
      createdAt: 't',
      updatedAt: 't',
    };
    const memberItem = Member.create(member).params().Item;
    // With the email and name recorded at joining: whom the audit log names.
    expect(memberOf(memberItem)).toEqual({ id: member.id, accountId: member.accountId, role: 'owner', email: 'a@example.com' });
    expect(memberOf(Member.create({ ...member, name: 'Ada' }).params().Item)).toMatchObject({ email: 'a@example.com', name: 'Ada' });
    expect(memberOf(apiKeyItem)).toBeUndefined();

    expect(contentKeyTarget(createContentKey(TABLE, { contentSetId: 's', keyHash: 'h', contentItemId: 'c', accountId: 'a' }).Put!.Item)).toBe('c');
    const alias = { contentSetId: 's', decodedKeyHash: 'd', members: ['b', 'a'], __edb_e__: 'contentkeyalias', __edb_v__: '1' };
    expect(aliasMembers({ ...alias, members: new Set(['b', 'a']) }).sort()).toEqual(['a', 'b']);
    // Another entity's item is not read as this one.
    expect(contentSetOf(stored)).toBeUndefined();
    expect(apiKeyOf(setItem)).toBeUndefined();
  });
});
