/**
 * The responses' list indexes are write-sharded (domain/response-shards.ts) and merged on
 * read (operations/response-lists.ts): lists by item, set and project stay newest first
 * across shards, cursors stay stable while responses are written between and during the
 * reads of pages, and responses written before shards (unsharded index keys) are still
 * listed, exported and recounted.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ANONYMOUS } from '../../functions/api/auth';
import { RESPONSE_LIST_SHARDS, responseShard } from '../../functions/domain/response-shards';
import { sealPosition } from '../../functions/operations/paging';
import { createResponse } from '../../functions/operations/response-collection';
import { newId } from '../../functions/domain/text';
import { defaultStore } from '../../functions/store/entity-store';
import { responseItem, responseListPartition, type NewResponse } from '../../functions/store/items';
import { forEachListedResponse } from '../../functions/store/response-lists';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';

let api: TestApi;
let owner: AccountKeys;
let projectId: string;
let contentSetId: string;

const BASE = Date.UTC(2025, 3, 1, 0, 0, 0);
const second = (index: number) => new Date(BASE + index * 1000);

interface Written {
  id: string;
  createdAt: string;
}

const sortKey = (response: Written) => `${response.createdAt}#${response.id}`;
const newestFirst = (responses: Written[]) => [...responses].sort((a, b) => (sortKey(a) < sortKey(b) ? 1 : -1)).map((response) => response.id);

async function newItem(): Promise<string> {
  const answer = await api.call('contents/create', [{ contentSetId, key: `page-${newId()}` }], { key: owner.admin });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

async function write(contentId: string, at: Date): Promise<Written> {
  const { store } = defaultStore();
  const written = await createResponse(store, ANONYMOUS, { contentId, value: '+' }, { headers: {} }, at);
  return { id: written.responseId, createdAt: at.toISOString() };
}

/** A response as the write path stored it before shards: list keys without `#<shard>`, no shard attribute. */
async function writeLegacy(contentId: string, at: Date): Promise<Written> {
  const { store } = defaultStore();
  const id = newId();
  const createdAt = at.toISOString();
  const record: NewResponse = {
    id,
    accountId: owner.accountId,
    projectId,
    contentSetId,
    contentItemId: contentId,
    schema: 'pulse',
    state: 'active',
    value: '+',
    contribution: { sum: 1 },
    createdAt,
    updatedAt: createdAt,
  };
  const { shard: _shard, ...item } = responseItem(record);
  await store.documentClient.send(
    new PutCommand({
      TableName: store.tableName,
      Item: {
        ...item,
        gsi1pk: responseListPartition('gsi1', contentId),
        gsi2pk: responseListPartition('gsi2', contentSetId),
        gsi3pk: responseListPartition('gsi3', projectId),
      },
    }),
  );
  return { id, createdAt };
}

async function list(query: Record<string, unknown>) {
  const answer = await api.call('responses/list', [query], { key: owner.viewer });
  expect([answer.status, answer.body?.error]).toEqual([200, undefined]);
  return answer.body as { items: { id: string }[]; hasMore: boolean; cursor?: string };
}

/** Every page of a list by cursor; `between` runs after each page (writes meanwhile). */
async function walk(query: Record<string, unknown>, between: () => Promise<unknown> = async () => {}) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await list({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    ids.push(...page.items.map((item) => item.id));
    cursor = page.cursor;
    if (cursor === undefined) return ids;
    await between();
  }
  throw new Error('the list did not end');
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('responses-sharded');
  projectId = (await api.call('projects/create', [{ name: 'Sharded' }], { key: owner.admin })).body.id;
  contentSetId = (await api.call('sets/create', [{ projectId, key: 'pulse', schema: 'pulse', metadata: { name: 'Pulse' } }], { key: owner.admin })).body.id;
});
afterAll(() => api.close());

describe('sharded list indexes', () => {
  test('one page’s responses spread over the shards; lists by item, set and project are newest first across them, by offset and by cursor', async () => {
    const contentId = await newItem();
    // Several per second, in an order that is not the time order: sort keys decide.
    const at = (index: number) => second(1000 + ((index * 7) % 16));
    const written = await Promise.all(Array.from({ length: 48 }, (_, index) => write(contentId, at(index))));
    // Ids are random: 48 of them miss a shard about once in 75 runs, so write more until every shard holds one.
    const shards = new Set(written.map((response) => responseShard(response.id)));
    while (shards.size < RESPONSE_LIST_SHARDS && written.length < 100) {
      const more = await write(contentId, at(written.length));
      written.push(more);
      shards.add(responseShard(more.id));
    }
    expect(shards.size).toBe(RESPONSE_LIST_SHARDS);
    const expected = newestFirst(written);
    for (const scope of [{ contentId }, { contentSetId }, { projectId }]) {
      const everything = (await list({ ...scope, $size: 100 })).items.map((item) => item.id);
      expect(everything.filter((id) => expected.includes(id))).toEqual(expected);
    }
    expect((await list({ contentId, $size: 100 })).items.map((item) => item.id)).toEqual(expected);
    expect(await walk({ contentId, $size: 7 })).toEqual(expected);
    const offset: string[] = [];
    for (let page = 1; page <= Math.ceil(written.length / 7); page++)
      offset.push(...(await list({ contentId, $size: 7, $page: page })).items.map((item) => item.id));
    expect(offset).toEqual(expected);
    // from (inclusive) and to (exclusive) bound the merge too.
    const bounded = (await list({ contentId, from: second(1004).toISOString(), to: second(1010).toISOString(), $size: 100 })).items.map((item) => item.id);
    expect(bounded).toEqual(
      expected.filter((id) => {
        const at = written.find((response) => response.id === id)!.createdAt;
        return at >= second(1004).toISOString() && at < second(1010).toISOString();
      }),
    );
  });

  test('a cursor is stable while responses are written between pages and during reads: every response listed once, in order', async () => {
    const contentId = await newItem();
    const before = await Promise.all(Array.from({ length: 40 }, (_, index) => write(contentId, second(2000 + index))));
    let later = 0;
    // Newer responses land above the cursor: a walk begun before them lists exactly what was there.
    const writeNewer = () => Promise.all(Array.from({ length: 3 }, () => write(contentId, second(3000 + later++))));
    const walked = await walk({ contentId, $size: 6 }, writeNewer);
    expect(walked).toEqual(newestFirst(before));
    // Writes racing the reads of a page: the same.
    const racing = await Promise.all([walk({ contentId, $size: 6 }), writeNewer(), writeNewer()]);
    const everything = (await list({ contentId, $size: 100 })).items.map((item) => item.id);
    expect(racing[0].slice(-40)).toEqual(newestFirst(before));
    expect(new Set(racing[0]).size).toBe(racing[0].length);
    expect(everything.slice(-40)).toEqual(newestFirst(before));
  });

  test('responses written before shards are listed with the new ones, newest first, and recounted', async () => {
    const contentId = await newItem();
    const legacy = await Promise.all(Array.from({ length: 12 }, (_, index) => writeLegacy(contentId, second(4000 + 2 * index))));
    const sharded = await Promise.all(Array.from({ length: 12 }, (_, index) => write(contentId, second(4001 + 2 * index))));
    const expected = newestFirst([...legacy, ...sharded]);
    expect((await list({ contentId, $size: 100 })).items.map((item) => item.id)).toEqual(expected);
    expect(await walk({ contentId, $size: 5 })).toEqual(expected);
    const bySet = (await list({ contentSetId, $size: 100 })).items.map((item) => item.id);
    expect(bySet.filter((id) => expected.includes(id))).toEqual(expected);
    const exported = await api.call('responses/export', [{ contentId, format: 'ndjson' }], { key: owner.viewer });
    expect(exported.status).toBe(200);
    const exportedIds = JSON.stringify(exported.body);
    for (const id of expected) expect(exportedIds).toContain(id);
    // The whole-list reader (jobs/rebuild.ts) sees both kinds.
    const { store } = defaultStore();
    const seen: string[] = [];
    await forEachListedResponse(store, 'gsi1', contentId, (page) => {
      seen.push(...page.map((raw) => raw.id as string));
    });
    expect(seen.sort()).toEqual([...expected].sort());
  });

  test('a cursor sealed before shards (an ElectroDB cursor) continues below its sort key', async () => {
    const contentId = await newItem();
    const written = await Promise.all(Array.from({ length: 10 }, (_, index) => write(contentId, second(5000 + index))));
    const expected = newestFirst(written);
    const lastOfFirstPage = written.find((response) => response.id === expected[3])!;
    const electroCursor = Buffer.from(
      JSON.stringify({ pk: `response#${lastOfFirstPage.id}`, sk: 'response', gsi1pk: `content#${contentId}#responses`, gsi1sk: sortKey(lastOfFirstPage) }),
    ).toString('base64url');
    const cursor = await sealPosition(
      {
        accountId: owner.accountId,
        path: 'args.0.cursor',
        scope: { operation: 'responses/list', index: 'byContentItem', partition: contentId, state: 'active' },
      },
      electroCursor,
    );
    expect((await list({ contentId, cursor, $size: 100 })).items.map((item) => item.id)).toEqual(expected.slice(4));
  });
});
