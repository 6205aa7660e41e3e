/**
 * One vote per visitor, per item, per UTC day (`onePerVisitor`), and public counts that
 * reveal no one (`publicMinCount`): over real HTTP from two client addresses (127.0.0.1
 * and 127.0.0.2, both loopback), and, for the next UTC day, the domain function with an
 * injected clock. Ends with a read of the whole table: no address or user agent is
 * stored, and no salt older than yesterday's remains.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { request as httpRequest } from 'node:http';
import { createResponse } from '../../functions/operations/response-collection';
import { forgetVisitorResponse } from '../../functions/operations/visitor-identity';
import { keys } from '../../functions/store/items';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, createContentSet, type AccountKeys, startTestApi, type TestApi } from '../support/api';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0 visitor-votes-test';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 Version/18.5 Mobile/15E148 Safari/604.1 visitor-votes-test';
const OTHER_ADDRESS = '127.0.0.2';

let api: TestApi;
let owner: AccountKeys;
let projectId: string;

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('visitor-votes');
  projectId = (await api.call('projects/create', [{ name: 'Votes' }], { key: owner.admin })).body.id;
});
afterAll(() => api.close());

/** An anonymous call from a chosen client address and user agent (node:http: fetch cannot pick its source address). */
function anonymousCall(path: string, args: unknown[], from: { address?: string; userAgent: string }): Promise<{ status: number; body: any }> {
  const url = new URL(`${api.baseUrl}/${path}`);
  const body = JSON.stringify(args);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from.address ?? '127.0.0.1',
        headers: { 'content-type': 'application/json', 'user-agent': from.userAgent, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) }));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

async function vote(contentSetId: string, key: string, value: unknown, from: { address?: string; userAgent: string }) {
  const answer = await anonymousCall('responses/create', [{ contentSetId, key, value, revokable: true }], from);
  expect(answer.status).toBe(200);
  return answer.body as { responseId: string; feelbackId: string; revokable: { token: string; expireAt: string } };
}

async function activeResponses(contentSetId: string) {
  const { body } = await api.call('responses/list', [{ contentSetId, state: 'active', $size: 100 }], { key: owner.viewer });
  return body.items as { id: string; value: unknown; createdAt: string; updatedAt: string }[];
}

async function keyedCounts(target: { contentSetId: string; key: string }, period = 'lifetime') {
  return (await api.call('responses/getAggregates', [target, period], { key: owner.viewer })).body as number[];
}

test('the settings take the schema defaults, shown in metadata, and are saved like the other flags', async () => {
  const defaults: Record<string, boolean> = { pulse: true, 'yes-no': true, reaction: true, rating: true, message: false, 'tagged-message': false };
  for (const [schema, onePerVisitor] of Object.entries(defaults)) {
    const { body } = await api.call('sets/get', [await createContentSet(api, owner.admin, projectId, schema)], { key: owner.viewer });
    expect([schema, body.metadata.onePerVisitor, body.metadata.publicMinCount]).toEqual([schema, onePerVisitor, 0]);
  }
  const contentSetId = await createContentSet(api, owner.admin, projectId, 'message', { metadata: { onePerVisitor: true, publicMinCount: 3 } });
  expect((await api.call('sets/get', [contentSetId], { key: owner.viewer })).body.metadata).toMatchObject({ onePerVisitor: true, publicMinCount: 3 });
  const saved = await api.call('sets/save', [contentSetId, { onePerVisitor: false, publicMinCount: 0 }], { key: owner.admin });
  expect(saved.body.metadata).toMatchObject({ onePerVisitor: false, publicMinCount: 0 });
  const refused = await api.call('sets/save', [contentSetId, { publicMinCount: -1 }], { key: owner.admin });
  expect([refused.status, refused.body.error]).toEqual([400, 'bad-request']);
});

test("a visitor's second vote replaces the first: same id, a working token, counts moved; other visitors count", async () => {
  const contentSetId = await createContentSet(api, owner.admin, projectId, 'reaction', { metadata: { publicAggregates: true } });
  const target = { contentSetId, key: 'https://blog.example.com/one-vote' };
  const reader = { userAgent: FIREFOX };

  const first = await vote(contentSetId, target.key, 'heart', reader);
  await api.drainStream({ rank: false });
  const [stored] = await activeResponses(contentSetId);
  const second = await vote(contentSetId, target.key, 'rocket', reader);
  expect(second.responseId).toBe(first.responseId);
  expect(second.feelbackId).toBe(first.responseId);
  expect(second.revokable.token).not.toBe(first.revokable.token);
  await api.drainStream({ rank: false });
  const afterSecond = await activeResponses(contentSetId);
  expect(afterSecond).toEqual([expect.objectContaining({ id: first.responseId, value: 'rocket', createdAt: stored.createdAt })]);
  const { options } = (await api.call('sets/get', [contentSetId], { key: owner.viewer })).body.schemaConfig as { options: { value: string }[] };
  const [heart, rocket] = ['heart', 'rocket'].map((value) => options.findIndex((option) => option.value === value));
  const counts = await keyedCounts(target);
  expect([counts[heart], counts[rocket]]).toEqual([0, 1]);
  for (const period of ['day', 'rolling7d', 'year']) expect((await keyedCounts(target, period)).reduce((a, b) => a + b, 0)).toBe(1);
  const setStats = (await api.call('sets/getStats', [contentSetId, { period: 'lifetime' }], { key: owner.viewer })).body;
  expect(setStats.count).toBe(1);

  // The second answer's token edits and removes that one vote; the first's no longer does.
  const stale = await api.call('responses/edit', [{ responseId: first.responseId, revokeToken: first.revokable.token, value: 'heart' }]);
  expect([stale.status, stale.body.error]).toEqual([403, 'forbidden']);
  const removed = await api.call('responses/remove', [{ responseId: second.responseId, revokeToken: second.revokable.token }]);
  expect(removed.status).toBe(204);
  await api.drainStream({ rank: false });
  expect((await keyedCounts(target)).reduce((a, b) => a + b, 0)).toBe(0);
  // Voting again after removing counts again: the revoked vote comes back with the new value.
  await vote(contentSetId, target.key, 'heart', reader);
  await api.drainStream({ rank: false });
  expect((await keyedCounts(target))[heart]).toBe(1);

  // Another browser at the same address, the same browser elsewhere, and another visitor altogether: three more votes.
  await vote(contentSetId, target.key, 'heart', { userAgent: SAFARI });
  await vote(contentSetId, target.key, 'heart', { userAgent: FIREFOX, address: OTHER_ADDRESS });
  await vote(contentSetId, target.key, 'rocket', { userAgent: SAFARI, address: OTHER_ADDRESS });
  await api.drainStream({ rank: false });
  const all = await activeResponses(contentSetId);
  expect(all).toHaveLength(4);
  expect((await keyedCounts(target))[heart]).toBe(3);

  // The same visitor on another page of the set votes there too.
  const elsewhere = await vote(contentSetId, 'https://blog.example.com/other', 'heart', reader);
  expect(all.map((response) => response.id)).not.toContain(elsewhere.responseId);
});

test('keyed callers and sets with onePerVisitor off record every response', async () => {
  const contentSetId = await createContentSet(api, owner.admin, projectId, 'yes-no');
  const key = 'https://shop.example.com/keyed';
  for (let i = 0; i < 2; i++) {
    const answer = await api.call('responses/create', [{ contentSetId, key, value: 'y' }], { key: owner.admin });
    expect(answer.status).toBe(200);
  }
  const messages = await createContentSet(api, owner.admin, projectId, 'message');
  await vote(messages, key, 'First thought', { userAgent: FIREFOX });
  await vote(messages, key, 'Second thought', { userAgent: FIREFOX });
  await api.drainStream({ rank: false });
  expect(await activeResponses(contentSetId)).toHaveLength(2);
  expect(await activeResponses(messages)).toHaveLength(2);
});

test('publicMinCount: anonymous callers see zeros below it, keyed callers the counts', async () => {
  const contentSetId = await createContentSet(api, owner.admin, projectId, 'pulse', { metadata: { publicAggregates: true, publicMinCount: 2 } });
  const target = { contentSetId, key: 'https://small.example.com/page' };
  await vote(contentSetId, target.key, '+', { userAgent: FIREFOX });
  await api.drainStream({ rank: false });
  expect((await api.call('responses/getAggregates', [target, 'lifetime'])).body).toEqual([0]);
  expect(await keyedCounts(target)).toEqual([1]);
  await vote(contentSetId, target.key, '+', { userAgent: SAFARI });
  await api.drainStream({ rank: false });
  expect((await api.call('responses/getAggregates', [target, 'lifetime'])).body).toEqual([2]);
  // The threshold applies to the period asked: another period's one response is hidden again.
  await api.call('sets/save', [contentSetId, { publicMinCount: 3 }], { key: owner.admin });
  expect((await api.call('responses/getAggregates', [target, 'lifetime'])).body).toEqual([0]);
});

test('a second vote replaces the first with a PutItem, on the instance that wrote it or (its creation refused) another; erased, it is created anew; held, it stays; released, it keeps its hold record', async () => {
  const contentSetId = await createContentSet(api, owner.admin, projectId, 'reaction');
  const caller = { kind: 'anonymous', level: 'anonymous' } as const;
  const table = defaultStore().store;
  const now = new Date();
  const stored = async (id: string) => {
    const { Item } = await table.documentClient.send(new GetCommand({ TableName: table.tableName, Key: keys.response(id), ConsistentRead: true }));
    return Item;
  };
  // The page exists; two visitors vote on it, each twice (the second with other context and no token).
  await api.call('responses/create', [{ contentSetId, key: 'https://replace.example.com/page', value: 'heart' }]);
  const visitors = ['198.51.100.21', '198.51.100.22'].map((sourceIp) => ({ headers: { 'user-agent': FIREFOX }, sourceIp }));
  const first = { contentSetId, key: 'https://replace.example.com/page', value: 'heart', revokable: true, context: { plan: 'pro' } };
  const later = { contentSetId, key: 'https://replace.example.com/page', value: 'rocket', profiling: { userId: 'u-7' } };
  const ids: string[] = [];
  for (const request of visitors) ids.push((await createResponse(table, caller, first, request, now)).responseId);
  // The first visitor's second vote replaces what this instance wrote; the second's reaches an
  // instance that does not know it: its creation is refused, and the stored item is replaced.
  forgetVisitorResponse(ids[1]);
  // A mark on both items tells how each was replaced: a PutItem drops what it does not carry, an UpdateItem would keep it.
  for (const id of ids) {
    await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.response(id),
        UpdateExpression: 'SET #mark = :mark',
        ExpressionAttributeNames: { '#mark': 'mark' },
        ExpressionAttributeValues: { ':mark': 1 },
      }),
    );
  }
  for (const request of visitors) await createResponse(table, caller, later, request, new Date(now.getTime() + 1000));
  const [replaced, updated] = (await Promise.all(ids.map(stored))) as Record<string, unknown>[];
  expect({ remembered: replaced.mark, refusedFirst: updated.mark }).toEqual({ remembered: undefined, refusedFirst: undefined });
  // Two visitors' ids: their own shards (derived from the id) and address hashes aside.
  const comparable = (item: Record<string, unknown> | undefined, id: string) =>
    JSON.parse(
      JSON.stringify({ ...item, shard: '<shard>', address: '<address>' })
        .replaceAll(id, '<id>')
        .replace(/#responses#\d/g, '#responses#<shard>'),
    );
  expect(comparable(replaced, ids[0])).toEqual(comparable(updated, ids[1]));
  expect(replaced).toMatchObject({ value: 'rocket', userId: 'u-7', createdAt: now.toISOString() });
  expect(replaced).not.toHaveProperty('context');
  expect(replaced).not.toHaveProperty('revokeTokenHash');

  // Erased since: the next vote creates it anew.
  await table.documentClient.send(new DeleteCommand({ TableName: table.tableName, Key: keys.response(ids[0]) }));
  await createResponse(table, caller, first, visitors[0], now);
  expect(await stored(ids[0])).toMatchObject({ value: 'heart', state: 'active' });
  // Held: it stays held, and the visitor is told nothing.
  await table.documentClient.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: keys.response(ids[0]),
      // As the screening holds one (stream/screening.ts): its record, and its contribution uncounted.
      UpdateExpression: 'SET #state = :held, #quarantine = :record, #uncounted = #contribution',
      ExpressionAttributeNames: { '#state': 'state', '#quarantine': 'quarantine', '#uncounted': 'uncounted', '#contribution': 'contribution' },
      ExpressionAttributeValues: { ':held': 'quarantined', ':record': { reason: 'visitor-burst', at: now.toISOString() } },
    }),
  );
  expect((await createResponse(table, caller, later, visitors[0], now)).responseId).toBe(ids[0]);
  expect(await stored(ids[0])).toMatchObject({ value: 'heart', state: 'quarantined' });
  // Released: the next vote replaces its value, and the hold's record stays (a put would drop it).
  await table.documentClient.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: keys.response(ids[0]),
      UpdateExpression: 'SET #state = :active',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':active': 'active' },
    }),
  );
  await createResponse(table, caller, later, visitors[0], now);
  const released = await stored(ids[0]);
  expect(released).toMatchObject({ value: 'rocket', state: 'active', quarantine: { reason: 'visitor-burst' } });
  expect(released).toHaveProperty('uncounted');
  await api.drainStream({ rank: false });
});

test('the next UTC day the same visitor votes again (injected clock), and old salts go', async () => {
  const contentSetId = await createContentSet(api, owner.admin, projectId, 'pulse');
  const key = 'https://daily.example.com/page';
  const request = { headers: { 'user-agent': FIREFOX }, sourceIp: '198.51.100.7' };
  const caller = { kind: 'anonymous', level: 'anonymous' } as const;
  const table = defaultStore().store;
  const today = new Date();
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000);
  const ids: string[] = [];
  for (const when of [day(0), day(0), day(1), day(1), day(3)]) {
    ids.push((await createResponse(table, caller, { contentSetId, key, value: '+' }, request, when)).responseId);
  }
  expect(ids[1]).toBe(ids[0]);
  expect(ids[3]).toBe(ids[2]);
  expect(new Set(ids).size).toBe(3);
  await api.drainStream({ rank: false });
  expect(await keyedCounts({ contentSetId, key })).toEqual([3]);
});

test('the whole table holds no address or user agent, and no salt older than yesterday', async () => {
  const { client, settings } = defaultStore();
  const items: Record<string, unknown>[] = [];
  let start: Record<string, any> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: settings.tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...(page.Items ?? []).map((item) => unmarshall(item)));
    start = page.LastEvaluatedKey;
  } while (start);
  // Audit entries record the keyed callers' address by design (docs/api.md, "Audit log"); no anonymous call is audited.
  const stored = items.filter((item) => !String(item.pk).startsWith('audit#'));
  const text = JSON.stringify(stored);
  for (const secret of [FIREFOX, SAFARI, '127.0.0.1', OTHER_ADDRESS, '198.51.100.7', 'visitor-votes-test']) expect(text).not.toContain(secret);
  const saltDays = stored.filter((item) => item.pk === 'visitorsalt').map((item) => item.sk as string);
  const newest = [...saltDays].sort().at(-1)!;
  const yesterday = new Date(Date.parse(`${newest}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  expect(saltDays.length).toBeGreaterThan(0);
  expect(saltDays.filter((day) => day < yesterday)).toEqual([]);
  for (const salt of stored.filter((item) => item.pk === 'visitorsalt')) {
    expect(Object.keys(salt).sort()).toEqual(['expiresAt', 'pk', 'salt', 'sk']);
    expect(salt.expiresAt).toBeLessThanOrEqual(Date.parse(`${salt.sk}T00:00:00Z`) / 1000 + 48 * 3600);
  }
});
