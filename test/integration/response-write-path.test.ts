/**
 * The widgets' write path (operations/response-collection.ts, response-revocation.ts):
 * its DynamoDB round trips counted exactly, warm and cold, and the staleness bound of the
 * states it remembers (target-cache.ts TARGET_MAX_AGE_MS): an archive refuses responses
 * within 10 s, driven here with a controllable clock.
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
import { editResponse } from '../../functions/operations/response-revocation';
import { clearTargetCache, TARGET_MAX_AGE_MS } from '../../functions/operations/target-cache';
import { forgetVisitorSalt } from '../../functions/operations/visitor-identity';
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
/** A reaction set; without onePerVisitor (every call here comes from one visitor), unless `metadata` says otherwise. */
const newSet = async (metadata: Record<string, unknown> = {}, project = projectId) =>
  (
    await ok(
      'sets/create',
      [{ projectId: project, key: `s-${unique()}`, schema: 'reaction', metadata: { name: 'Set', onePerVisitor: false, ...metadata } }],
      owner.admin,
    )
  ).id as string;

beforeAll(async () => {
  const { client, rawClient, settings } = defaultStore();
  await ensureTable(client, settings.tableName);
  meter = meterClient(client, rawClient);
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
  test('existing item by contentSetId + key: 3 cold (set and key, then project and item, then PutItem), then 1 warm, with or without a revoke token', async () => {
    const contentSetId = await newSet();
    await ok('responses/create', [{ contentSetId, key: 'page', value: 'heart' }]);
    clearTargetCache();
    const cold = await counted('responses/create', [{ contentSetId, key: 'page', value: 'heart' }]);
    expect(cold.answer.status).toBe(200);
    expect(cold.commands).toEqual({ BatchGetItemCommand: 2, PutItemCommand: 1 });
    for (const revokable of [undefined, true]) {
      const warm = await counted('responses/create', [{ contentSetId, key: 'page', value: 'rocket', revokable }]);
      expect(warm.answer.status).toBe(200);
      expect(warm.commands).toEqual({ PutItemCommand: 1 });
    }
    // The SPEC's positional form and the widgets' alias path take the same path.
    const positional = await counted('feelbacks/create', [contentSetId, 'page', 'eyes', null, null, true, null]);
    expect([positional.answer.status, positional.commands]).toEqual([200, { PutItemCommand: 1 }]);
  });

  test('a new key: 3 cold, 2 warm (the key item, then one transaction writing key, item and response)', async () => {
    const contentSetId = await newSet();
    clearTargetCache();
    const cold = await counted('responses/create', [{ contentSetId, key: 'first', value: 'heart' }]);
    expect([cold.answer.status, cold.commands]).toEqual([200, { BatchGetItemCommand: 2, TransactWriteItemsCommand: 1 }]);
    const warm = await counted('responses/create', [{ contentSetId, key: 'second', value: 'heart' }]);
    expect([warm.answer.status, warm.commands]).toEqual([200, { BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 }]);
    // Then that key is known: 1.
    const again = await counted('responses/create', [{ contentSetId, key: 'second', value: 'heart' }]);
    expect([again.answer.status, again.commands]).toEqual([200, { PutItemCommand: 1 }]);
  });

  test('by contentId: 3 cold (the item and, named by its id, its set; then its project; the PutItem), then 1 warm, with or without a revoke token', async () => {
    const contentSetId = await newSet();
    const item = await ok('contents/create', [{ contentSetId, key: 'by-id' }], owner.admin);
    expect(item.id).toMatch(new RegExp(`^${contentSetId}[A-Za-z0-9_-]{22}$`));
    for (const revokable of [undefined, true]) {
      clearTargetCache();
      const cold = await counted('responses/create', [{ contentId: item.id, value: 'heart', revokable }]);
      expect([cold.answer.status, cold.requests, cold.commands]).toEqual([200, 3, { BatchGetItemCommand: 2, PutItemCommand: 1 }]);
      expect(cold.answer.body.revokable !== undefined).toBe(revokable === true);
      const warm = await counted('responses/create', [{ contentId: item.id, value: 'heart', revokable }]);
      expect([warm.answer.status, warm.commands]).toEqual([200, { PutItemCommand: 1 }]);
    }
  });

  test('by a 22-character contentId (items created before ids carried their set): 3 cold (item, set and project, PutItem), 1 warm', async () => {
    const contentSetId = await newSet();
    const { store } = defaultStore();
    const set = await ok('sets/get', [contentSetId], owner.viewer);
    const legacy = { ...newContentItem(set, 'legacy', {}, new Date()), id: newId() };
    expect((await insertContentItem(store, legacy)).inserted).toBe(true);
    clearTargetCache();
    const cold = await counted('responses/create', [{ contentId: legacy.id, value: 'heart' }]);
    expect([cold.answer.status, cold.requests, cold.commands]).toEqual([200, 3, { BatchGetItemCommand: 2, PutItemCommand: 1 }]);
    const warm = await counted('responses/create', [{ contentId: legacy.id, value: 'heart' }]);
    expect([warm.answer.status, warm.commands]).toEqual([200, { PutItemCommand: 1 }]);
    expect((await ok('responses/get', [warm.answer.body.responseId], owner.viewer)).contentItemId).toBe(legacy.id);
  });

  test("a contentId made of a real set's id and no item: 404 after one read, nothing written", async () => {
    const contentSetId = await newSet();
    clearTargetCache();
    const made = await counted('responses/create', [{ contentId: `${contentSetId}${newId()}`, value: 'heart' }]);
    expect([made.answer.status, made.answer.body.error, made.commands]).toEqual([404, 'not-found', { BatchGetItemCommand: 1 }]);
  });

  test('what is remembered 10 s or longer is read again, all of it in one BatchGetItem, once', async () => {
    const contentSetId = await newSet();
    const { store } = defaultStore();
    const input = { contentSetId, key: 'later', value: 'heart', revokable: true };
    const start = Date.now();
    await createResponse(store, ANONYMOUS, input, { headers: {} }, new Date(start));
    const later = new Date(start + TARGET_MAX_AGE_MS);
    for (const expected of [{ BatchGetItemCommand: 1, PutItemCommand: 1 }, { PutItemCommand: 1 }]) {
      const before = meter.snapshot();
      const written = await createResponse(store, ANONYMOUS, input, { headers: {} }, later);
      expect(written.revokable).toBeDefined();
      expect(meter.since(before).commands).toEqual(expected);
    }
  });

  test("onePerVisitor: a visitor's first vote 1 PutItem, a later one 1 PutItem on the instance that wrote it and 2 on another (the creation refused), at most 5 WRU; the day's salt read once per instance", async () => {
    const contentSetId = await newSet({ onePerVisitor: true });
    // The page exists (a keyed caller's response is no visitor's vote).
    await ok('responses/create', [{ contentSetId, key: 'voted', value: 'heart' }], owner.admin);
    forgetVisitorSalt();
    const firstVote = await counted('responses/create', [{ contentSetId, key: 'voted', value: 'heart' }]);
    expect([firstVote.answer.status, firstVote.commands]).toEqual([200, { GetItemCommand: 1, PutItemCommand: 1 }]);
    // Another instance (it forgets the salt and what it wrote) takes the visitor's next vote.
    forgetVisitorSalt();
    const firstOfInstance = await counted('responses/create', [{ contentSetId, key: 'voted', value: 'rocket' }]);
    expect([firstOfInstance.answer.status, firstOfInstance.commands]).toEqual([200, { GetItemCommand: 1, PutItemCommand: 2 }]);
    for (const [value, revokable] of [
      ['heart', undefined],
      ['eyes', true],
    ] as const) {
      const before = meter.snapshot();
      const warm = await call('responses/create', [{ contentSetId, key: 'voted', value, revokable }]);
      const spent = meter.since(before);
      // The instance remembers the response it wrote for this visitor today: replacing it is one conditional PutItem (docs/architecture.md).
      expect([warm.status, warm.body.responseId, spent.commands]).toEqual([200, firstOfInstance.answer.body.responseId, { PutItemCommand: 1 }]);
      expect(spent.estimated.write).toBeLessThanOrEqual(5);
    }
  });

  test('a keyed call adds the GetItem of its key', async () => {
    const contentSetId = await newSet();
    await ok('responses/create', [{ contentSetId, key: 'keyed', value: 'heart' }]);
    const keyed = await counted('responses/create', [{ contentSetId, key: 'keyed', value: 'heart' }], owner.admin);
    expect([keyed.answer.status, keyed.commands]).toEqual([200, { GetItemCommand: 1, PutItemCommand: 1 }]);
  });
});

describe('round trips of responses/edit and responses/remove', () => {
  test('edit: 3 cold (response and its set, then item and project, then UpdateItem), 2 warm; remove: 2', async () => {
    const contentSetId = await newSet();
    const created = await ok('responses/create', [{ contentSetId, key: 'p', value: 'heart', revokable: true }]);
    const reference = { responseId: created.responseId, revokeToken: created.revokable.token };
    clearTargetCache();
    const cold = await counted('responses/edit', [{ ...reference, value: 'rocket' }]);
    expect([cold.answer.status, cold.commands]).toEqual([200, { BatchGetItemCommand: 2, UpdateItemCommand: 1 }]);
    const warm = await counted('feelbacks/edit', [{ ...reference, value: 'eyes' }]);
    expect([warm.answer.status, warm.commands]).toEqual([200, { BatchGetItemCommand: 1, UpdateItemCommand: 1 }]);
    const removed = await counted('responses/remove', [reference]);
    expect([removed.answer.status, removed.commands]).toEqual([204, { BatchGetItemCommand: 1, UpdateItemCommand: 1 }]);
  });
});

describe('states are remembered for at most 10 s (TARGET_MAX_AGE_MS)', () => {
  const { store } = defaultStore();
  const at = (start: number, offset: number) => new Date(start + offset);

  test('an archive: a create 5 s later on a warm instance is taken, one at 10 s is refused (409 naming the entity) and writes nothing', async () => {
    expect(TARGET_MAX_AGE_MS).toBe(10_000);
    const cases: { archive: (ids: { set: string; project: string; item: string }) => Promise<unknown>; entity: string; state: string }[] = [
      { archive: ({ set }) => ok('sets/save', [set, { state: 'archived' }], owner.admin), entity: 'contentSet', state: 'archived' },
      { archive: ({ set }) => ok('sets/save', [set, { state: 'inactive' }], owner.admin), entity: 'contentSet', state: 'inactive' },
      { archive: ({ project }) => ok('projects/save', [project, { state: 'archived' }], owner.admin), entity: 'project', state: 'archived' },
      { archive: ({ item }) => ok('contents/save', [item, { state: 'archived' }], owner.admin), entity: 'contentItem', state: 'archived' },
    ];
    for (const { archive, entity, state } of cases) {
      const project = (await ok('projects/create', [{ name: `Archived ${entity}` }], owner.admin)).id;
      const set = await newSet({}, project);
      const input = { contentSetId: set, key: 'page', value: 'heart' };
      const start = Date.now();
      const first = await createResponse(store, ANONYMOUS, { ...input, revokable: true }, { headers: {} }, at(start, 0));
      const item = (await ok('responses/get', [first.responseId], owner.viewer)).contentItemId;
      await archive({ set, project, item });

      // Within the bound, on this warm instance: taken, with no read.
      const before5 = meter.snapshot();
      const within = await createResponse(store, ANONYMOUS, input, { headers: {} }, at(start, 5_000));
      expect(meter.since(before5).commands).toEqual({ PutItemCommand: 1 });
      expect((await ok('responses/get', [within.responseId], owner.viewer)).contentItemId).toBe(item);

      // At the bound: read again, refused with the documented conflict, nothing written.
      const before = await tableSnapshot();
      const refusal = (promise: Promise<unknown>) =>
        promise.then(
          () => ({ error: 'none' }),
          (error: { code?: string; data?: unknown }) => ({ error: error.code, data: error.data }),
        );
      expect(await refusal(createResponse(store, ANONYMOUS, input, { headers: {} }, at(start, TARGET_MAX_AGE_MS)))).toEqual({
        error: 'conflict',
        data: expect.objectContaining({ entity, state }),
      });
      const edit = { responseId: first.responseId, revokeToken: first.revokable!.token, value: 'rocket' };
      expect(await refusal(editResponse(store, ANONYMOUS, edit, at(start, TARGET_MAX_AGE_MS)))).toEqual({
        error: 'conflict',
        data: expect.objectContaining({ entity, state }),
      });
      // Over HTTP too, the same error body.
      const refused = await call('responses/create', [input]);
      expect([refused.status, refused.body.error, refused.body.data]).toEqual([409, 'conflict', expect.objectContaining({ entity, state })]);
      // A new key of the set: refused too, unless only that one item was archived.
      const newKey = await refusal(createResponse(store, ANONYMOUS, { ...input, key: 'another-page' }, { headers: {} }, at(start, TARGET_MAX_AGE_MS)));
      if (entity === 'contentItem') {
        expect(newKey).toEqual({ error: 'none' });
      } else {
        expect(newKey).toEqual({ error: 'conflict', data: expect.objectContaining({ entity, state }) });
        expect(await tableSnapshot()).toEqual(before);
      }
    }
  });

  test('a key moved by contents/save: creates on the old key reach the moved item for at most 10 s, then a new item', async () => {
    const contentSetId = await newSet();
    const input = { contentSetId, key: 'old', value: 'heart' };
    const start = Date.now();
    const first = await createResponse(store, ANONYMOUS, input, { headers: {} }, at(start, 0));
    const moved = (await ok('responses/get', [first.responseId], owner.viewer)).contentItemId;
    await ok('contents/save', [moved, { key: 'new' }], owner.admin);
    const within = await createResponse(store, ANONYMOUS, input, { headers: {} }, at(start, 5_000));
    expect((await ok('responses/get', [within.responseId], owner.viewer)).contentItemId).toBe(moved);
    const next = await createResponse(store, ANONYMOUS, input, { headers: {} }, at(start, TARGET_MAX_AGE_MS));
    const landed = (await ok('responses/get', [next.responseId], owner.viewer)).contentItemId;
    expect(landed).not.toBe(moved);
    expect((await ok('contents/get', [landed], owner.viewer)).key).toBe('old');
    const onNew = await ok('responses/create', [{ contentSetId, key: 'new', value: 'heart' }]);
    expect((await ok('responses/get', [onNew.responseId], owner.viewer)).contentItemId).toBe(moved);
  });
});
