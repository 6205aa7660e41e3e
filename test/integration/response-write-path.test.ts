/**
 * The widgets' write path (operations/response-collection.ts, response-revocation.ts):
 * its DynamoDB round trips counted exactly, warm and cold, and the states checked inside
 * the write's own transaction (an archive between two creates refuses the second, with
 * nothing written).
 *
 * The server runs here without the stream consumers, so the only DynamoDB requests on the
 * client are the operations' own; a middleware added to that client (the benchmarks'
 * meter) records them.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { ANONYMOUS } from '../../functions/api/auth';
import { BASE_PATH, createApiServer } from '../../local/server';
import { insertContentItem, newContentItem } from '../../functions/operations/contents';
import { newId } from '../../functions/domain/text';
import { createResponse } from '../../functions/operations/response-collection';
import { clearTargetCache, SETTINGS_MAX_AGE_MS } from '../../functions/operations/target-cache';
import { defaultStore } from '../../functions/store/entity-store';
import { ensureTable } from '../../functions/store/setup';
import { meterClient, type DynamoMeter } from '../../scripts/dynamo-meter';
import { createAccount, tableSnapshot, type AccountKeys } from '../support/api';

let server: Server;
let baseUrl: string;
let meter: DynamoMeter;
let owner: AccountKeys;
let projectId: string;

interface Answer {
  status: number;
  body: any;
}

async function call(path: string, args: unknown[], key?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `API-KEY ${key}`;
  const response = await fetch(`${baseUrl}/${path}`, { method: 'POST', headers, body: JSON.stringify(args) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** The call's answer and the DynamoDB requests it made, by command, in a stable form. */
async function counted(path: string, args: unknown[], key?: string) {
  const before = meter.snapshot();
  const answer = await call(path, args, key);
  const spent = meter.since(before);
  return { answer, requests: spent.requests, commands: spent.commands };
}

async function ok(path: string, args: unknown[], key?: string) {
  const answer = await call(path, args, key);
  expect([path, answer.status, answer.body?.error]).toEqual([path, answer.status < 300 ? answer.status : 200, undefined]);
  return answer.body;
}

const unique = () => Math.random().toString(36).slice(2, 8);
const newSet = async (metadata: Record<string, unknown> = {}, project = projectId) =>
  (await ok('sets/create', [{ projectId: project, key: `s-${unique()}`, schema: 'reaction', metadata: { name: 'Set', ...metadata } }], owner.admin))
    .id as string;

beforeAll(async () => {
  const { client, settings } = defaultStore();
  await ensureTable(client, settings.tableName);
  meter = meterClient(client);
  server = createApiServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`;
  owner = await createAccount('write-path');
  projectId = (await ok('projects/create', [{ name: 'Write path' }], owner.admin)).id;
});

afterAll(async () => {
  await new Promise<void>((closed) => {
    server.close(() => closed());
    server.closeIdleConnections();
  });
});

describe('round trips of responses/create, counted exactly', () => {
  test('existing item by contentSetId + key: 2 cold (BatchGetItem + TransactWriteItems), then 1 warm, with or without a revoke token', async () => {
    const contentSetId = await newSet();
    await ok('responses/create', [{ contentSetId, key: 'page', value: 'heart' }]);
    clearTargetCache();
    const cold = await counted('responses/create', [{ contentSetId, key: 'page', value: 'heart' }]);
    expect(cold.answer.status).toBe(200);
    expect(cold.commands).toEqual({ BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    for (const revokable of [undefined, true]) {
      const warm = await counted('responses/create', [{ contentSetId, key: 'page', value: 'rocket', revokable }]);
      expect(warm.answer.status).toBe(200);
      expect(warm.commands).toEqual({ TransactWriteItemsCommand: 1 });
    }
    // The SPEC's positional form and the widgets' alias path take the same path.
    const positional = await counted('feelbacks/create', [contentSetId, 'page', 'eyes', null, null, true, null]);
    expect([positional.answer.status, positional.commands]).toEqual([200, { TransactWriteItemsCommand: 1 }]);
  });

  test('a new key: 2, warm or cold (BatchGetItem + one transaction writing key, item and response)', async () => {
    const contentSetId = await newSet();
    clearTargetCache();
    const cold = await counted('responses/create', [{ contentSetId, key: 'first', value: 'heart' }]);
    expect([cold.answer.status, cold.commands]).toEqual([200, { BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 }]);
    const warm = await counted('responses/create', [{ contentSetId, key: 'second', value: 'heart' }]);
    expect([warm.answer.status, warm.commands]).toEqual([200, { BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 }]);
    // Then that key is known: 1.
    const again = await counted('responses/create', [{ contentSetId, key: 'second', value: 'heart' }]);
    expect([again.answer.status, again.commands]).toEqual([200, { TransactWriteItemsCommand: 1 }]);
  });

  test('by contentId: 2 cold (the item and, named by its id, its set in one BatchGetItem; the transaction), then 1 warm, with or without a revoke token', async () => {
    const contentSetId = await newSet();
    const item = await ok('contents/create', [{ contentSetId, key: 'by-id' }], owner.admin);
    expect(item.id).toMatch(new RegExp(`^${contentSetId}[A-Za-z0-9_-]{22}$`));
    for (const revokable of [undefined, true]) {
      clearTargetCache();
      const cold = await counted('responses/create', [{ contentId: item.id, value: 'heart', revokable }]);
      expect([cold.answer.status, cold.requests, cold.commands]).toEqual([200, 2, { BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 }]);
      expect(cold.answer.body.revokable !== undefined).toBe(revokable === true);
      const warm = await counted('responses/create', [{ contentId: item.id, value: 'heart', revokable }]);
      expect([warm.answer.status, warm.commands]).toEqual([200, { TransactWriteItemsCommand: 1 }]);
    }
  });

  test('by a 22-character contentId (items created before ids carried their set): 3 cold (item, set, transaction), 1 warm', async () => {
    const contentSetId = await newSet();
    const { store } = defaultStore();
    const set = await ok('sets/get', [contentSetId], owner.viewer);
    const legacy = { ...newContentItem(set, 'legacy', {}, new Date()), id: newId() };
    expect((await insertContentItem(store, legacy)).inserted).toBe(true);
    clearTargetCache();
    const cold = await counted('responses/create', [{ contentId: legacy.id, value: 'heart' }]);
    expect([cold.answer.status, cold.requests, cold.commands]).toEqual([200, 3, { BatchGetItemCommand: 2, TransactWriteItemsCommand: 1 }]);
    const warm = await counted('responses/create', [{ contentId: legacy.id, value: 'heart' }]);
    expect([warm.answer.status, warm.commands]).toEqual([200, { TransactWriteItemsCommand: 1 }]);
    expect((await ok('responses/get', [warm.answer.body.responseId], owner.viewer)).contentItemId).toBe(legacy.id);
  });

  test("a contentId made of a real set's id and no item: 404 after one read, nothing written", async () => {
    const contentSetId = await newSet();
    clearTargetCache();
    const made = await counted('responses/create', [{ contentId: `${contentSetId}${newId()}`, value: 'heart' }]);
    expect([made.answer.status, made.answer.body.error, made.commands]).toEqual([404, 'not-found', { BatchGetItemCommand: 1 }]);
  });

  test('a revoke token after the set settings are 60 s old: they are read again (2), once', async () => {
    const contentSetId = await newSet();
    const { store } = defaultStore();
    const input = { contentSetId, key: 'later', value: 'heart', revokable: true };
    await createResponse(store, ANONYMOUS, input, { headers: {} }, new Date());
    const later = new Date(Date.now() + SETTINGS_MAX_AGE_MS + 1000);
    for (const expected of [{ BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 }, { TransactWriteItemsCommand: 1 }]) {
      const before = meter.snapshot();
      const written = await createResponse(store, ANONYMOUS, input, { headers: {} }, later);
      expect(written.revokable).toBeDefined();
      expect(meter.since(before).commands).toEqual(expected);
    }
  });

  test('a keyed call adds the GetItem of its key', async () => {
    const contentSetId = await newSet();
    await ok('responses/create', [{ contentSetId, key: 'keyed', value: 'heart' }]);
    const keyed = await counted('responses/create', [{ contentSetId, key: 'keyed', value: 'heart' }], owner.admin);
    expect([keyed.answer.status, keyed.commands]).toEqual([200, { GetItemCommand: 1, TransactWriteItemsCommand: 1 }]);
  });
});

describe('round trips of responses/edit and responses/remove', () => {
  test('edit: 2, cold or warm (response and its set in one BatchGetItem, then the transaction); remove: 2', async () => {
    const contentSetId = await newSet();
    const created = await ok('responses/create', [{ contentSetId, key: 'p', value: 'heart', revokable: true }]);
    const reference = { responseId: created.responseId, revokeToken: created.revokable.token };
    clearTargetCache();
    const cold = await counted('responses/edit', [{ ...reference, value: 'rocket' }]);
    expect([cold.answer.status, cold.commands]).toEqual([200, { BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 }]);
    const warm = await counted('feelbacks/edit', [{ ...reference, value: 'eyes' }]);
    expect([warm.answer.status, warm.commands]).toEqual([200, { BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 }]);
    const removed = await counted('responses/remove', [reference]);
    expect([removed.answer.status, removed.commands]).toEqual([204, { BatchGetItemCommand: 1, UpdateItemCommand: 1 }]);
  });
});

describe('states are checked inside the write', () => {
  test('an archive between two creates refuses the second (409 naming the entity), and nothing is written', async () => {
    const cases: { archive: (ids: { set: string; project: string; item: string }) => Promise<unknown>; entity: string; state: string }[] = [
      { archive: ({ set }) => ok('sets/save', [set, { state: 'archived' }], owner.admin), entity: 'contentSet', state: 'archived' },
      { archive: ({ set }) => ok('sets/save', [set, { state: 'inactive' }], owner.admin), entity: 'contentSet', state: 'inactive' },
      { archive: ({ project }) => ok('projects/save', [project, { state: 'archived' }], owner.admin), entity: 'project', state: 'archived' },
      { archive: ({ item }) => ok('contents/save', [item, { state: 'archived' }], owner.admin), entity: 'contentItem', state: 'archived' },
    ];
    for (const { archive, entity, state } of cases) {
      const project = (await ok('projects/create', [{ name: `Archived ${entity}` }], owner.admin)).id;
      const set = await newSet({}, project);
      const first = await ok('responses/create', [{ contentSetId: set, key: 'page', value: 'heart', revokable: true }]);
      // Warm: the second create knows set and item, and reads nothing before its transaction.
      const warm = await counted('responses/create', [{ contentSetId: set, key: 'page', value: 'heart' }]);
      expect(warm.commands).toEqual({ TransactWriteItemsCommand: 1 });
      const item = (await ok('responses/get', [first.responseId], owner.viewer)).contentItemId;
      await archive({ set, project, item });
      const before = await tableSnapshot();
      const refused = await call('responses/create', [{ contentSetId: set, key: 'page', value: 'heart' }]);
      const refusedEdit = await call('responses/edit', [{ responseId: first.responseId, revokeToken: first.revokable.token, value: 'rocket' }]);
      expect([refused.status, refused.body.error, refused.body.data]).toEqual([409, 'conflict', expect.objectContaining({ entity, state })]);
      expect([refusedEdit.status, refusedEdit.body.error, refusedEdit.body.data]).toEqual([409, 'conflict', expect.objectContaining({ entity, state })]);
      // A new key of the set: refused too, unless only that one item was archived.
      const newKey = await call('responses/create', [{ contentSetId: set, key: 'another-page', value: 'heart' }]);
      if (entity === 'contentItem') {
        expect(newKey.status).toBe(200);
      } else {
        expect([newKey.status, newKey.body.data]).toEqual([409, expect.objectContaining({ entity, state })]);
        expect(await tableSnapshot()).toEqual(before);
      }
    }
  });

  test('a key moved by contents/save: the next create on the old key gets a new item, not the moved one', async () => {
    const contentSetId = await newSet();
    await ok('responses/create', [{ contentSetId, key: 'old', value: 'heart' }]);
    const first = await ok('responses/create', [{ contentSetId, key: 'old', value: 'heart' }]);
    const moved = (await ok('responses/get', [first.responseId], owner.viewer)).contentItemId;
    await ok('contents/save', [moved, { key: 'new' }], owner.admin);
    const next = await ok('responses/create', [{ contentSetId, key: 'old', value: 'heart' }]);
    const landed = (await ok('responses/get', [next.responseId], owner.viewer)).contentItemId;
    expect(landed).not.toBe(moved);
    expect((await ok('contents/get', [landed], owner.viewer)).key).toBe('old');
    const onNew = await ok('responses/create', [{ contentSetId, key: 'new', value: 'heart' }]);
    expect((await ok('responses/get', [onNew.responseId], owner.viewer)).contentItemId).toBe(moved);
  });
});
