import { parse } from 'csv-parse/sync';
import { ANONYMOUS } from '../../functions/api/auth';
import type { ResponseCreateModel } from '../../functions/api/response-models';
import { CSV_COLUMNS } from '../../functions/domain/export-format';
import { PROFILING_FIELDS } from '../../functions/domain/profiling';
import { createResponse } from '../../functions/operations/response-collection';
import { removeResponse } from '../../functions/operations/response-revocation';
import { exportResponses } from '../../functions/operations/response-export';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, expectError, fieldPaths, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';
import { spreadsheetCell } from '../support/csv';

/**
 * responses/export over HTTP: 600 responses of every schema, with Unicode and
 * formula-like text everywhere a caller can put text, exported as CSV (parsed back with
 * csv-parse) and NDJSON and compared with the stored responses field by field.
 */
// More than one internal read (500 rows) and than each chunk limit below; each response
// is a transaction on DynamoDB Local (~100-300 ms), so not more.
const COUNT = 600;
const REVOKED = 25;
const BASE = Date.UTC(2025, 5, 1);

let api: TestApi;
let owner: AccountKeys;
let other: AccountKeys;
let projectId: string;
const sets: { id: string; key: string; schema: string }[] = [];
const items = new Map<string, { key: string; title?: string }>();

const MESSAGES = [
  'Très bien 👍🏽 — 很好',
  '=HYPERLINK("http://evil.example")',
  'line one\r\nline "two", three',
  '+cmd',
  '-2+3',
  '@SUM(1)',
  '\tindented',
  'مرحبا بالعالم',
  'e\u0301t\u00e9',
];
const VALUES: Record<string, unknown[]> = {
  pulse: ['+'],
  'yes-no': ['y', 'no', true, -1],
  reaction: ['+1', '-1', 'heart', 'rocket'],
  rating: [1, 3, 5],
  message: MESSAGES,
  'tagged-message': [{ tag: 'idea' }, ...MESSAGES.map((message, index) => ({ tag: ['idea', 'error', 'other'][index % 3], message }))],
};

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('export-owner');
  other = await createAccount('export-other');
  projectId = (await api.call('projects/create', [{ name: 'Export' }], { key: owner.admin })).body.id;
  for (const [schema, key] of [
    ['pulse', '+pulse'],
    ['yes-no', 'oui-non'],
    ['reaction', 'réactions 🎉'],
    ['rating', '=rating'],
    ['message', 'msg,quoted"'],
    ['tagged-message', '@tagged'],
  ]) {
    const { body } = await api.call('sets/create', [{ projectId, key, schema, metadata: { name: schema, revokeWindow: 3600 } }], { key: owner.admin });
    sets.push({ id: body.id, key, schema });
    for (let index = 0; index < 3; index++) {
      const itemKey = `https://site.example/${schema}/page-${index}?q=a,b&é=${index}`;
      const title = index === 0 ? undefined : index === 1 ? `Ünïcödé title 日本 ${schema}` : `=cmd|' /C calc'!A0 ${schema}`;
      const created = await api.call('contents/create', [{ contentSetId: body.id, key: itemKey, metadata: title ? { title } : {} }], { key: owner.admin });
      items.set(created.body.id, { key: itemKey, title });
    }
  }
  const { store } = defaultStore();
  const itemIds = [...items.keys()];
  const tokens: { id: string; token: string; at: Date }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < COUNT) {
        const index = next++;
        const set = sets[index % sets.length];
        const contentId = itemIds[(index % sets.length) * 3 + (Math.floor(index / sets.length) % 3)];
        const values = VALUES[set.schema];
        const at = new Date(BASE + index * 1000);
        const input: ResponseCreateModel = {
          contentId,
          value: values[index % values.length] as ResponseCreateModel['value'],
          revokable: index % 10 === 0,
          context: index % 3 === 0 ? { $user: `user-${index % 40}`, plan: index % 2 ? '=pro' : 'basic ✓', n: index } : undefined,
          profiling: index % 4 === 0 ? { sessionId: `-session-${index}`, city: 'Zürich', country: 'CH', language: 'de-CH' } : undefined,
        };
        const result = await createResponse(
          store,
          ANONYMOUS,
          input,
          { headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0.0.0 Safari/537.36' } },
          at,
        );
        if (result.revokable) tokens.push({ id: result.responseId, token: result.revokable.token, at });
      }
    }),
  );
  for (const { id, token, at } of tokens.slice(0, REVOKED)) await removeResponse(store, ANONYMOUS, { responseId: id, revokeToken: token }, at);
  await api.drainStream();
}, 300_000);
afterAll(() => api.close());

interface StoredResponse {
  id: string;
  createdAt: string;
  updatedAt: string;
  state: string;
  projectId: string;
  contentSetId: string;
  contentItemId: string;
  value: unknown;
  context?: Record<string, unknown>;
  profiling?: Record<string, string>;
}

async function stored(query: Record<string, unknown>): Promise<StoredResponse[]> {
  const all: StoredResponse[] = [];
  let cursor: string | undefined;
  do {
    const { body } = await api.call('responses/list', [{ ...query, $size: 100, ...(cursor ? { cursor } : {}) }], { key: owner.viewer });
    all.push(...body.items);
    cursor = body.cursor;
  } while (cursor);
  return all;
}

async function exportAll(query: Record<string, unknown>, key = owner.viewer) {
  const chunks: { data: string; rows: number; cursor?: string; format: string }[] = [];
  let cursor: string | undefined;
  do {
    const answer = await api.call('responses/export', [{ ...query, ...(cursor ? { cursor } : {}) }], { key });
    expect(answer.status).toBe(200);
    chunks.push(answer.body);
    cursor = answer.body.cursor;
  } while (cursor);
  return chunks;
}

function expectedRow(response: StoredResponse): Record<string, string> {
  const set = sets.find((candidate) => candidate.id === response.contentSetId)!;
  const item = items.get(response.contentItemId)!;
  let value = '';
  let tag = '';
  let message = '';
  if (set.schema === 'yes-no') value = response.value === 'y' ? 'yes' : 'no';
  else if (set.schema === 'message') message = response.value as string;
  else if (set.schema === 'tagged-message') ({ tag, message = '' } = response.value as { tag: string; message?: string });
  else value = String(response.value);
  const row: Record<string, string> = {
    responseId: response.id,
    createdAt: response.createdAt,
    updatedAt: response.updatedAt,
    state: response.state,
    projectId: response.projectId,
    contentSetId: response.contentSetId,
    contentSetKey: set.key,
    contentItemId: response.contentItemId,
    contentKey: item.key,
    contentTitle: item.title ?? '',
    schema: set.schema,
    value,
    tag,
    message,
    context: response.context ? JSON.stringify(response.context) : '',
  };
  for (const field of PROFILING_FIELDS) row[field] = response.profiling?.[field] ?? '';
  // Ids are the API's exactly (they never begin with a formula character); text is guarded.
  return Object.fromEntries(Object.entries(row).map(([column, cell]) => [column, ID_COLUMNS.includes(column) ? cell : spreadsheetCell(cell)]));
}

const ID_COLUMNS = ['responseId', 'projectId', 'contentSetId', 'contentItemId'];

describe('CSV', () => {
  it('equals the stored responses field by field, newest first, with Unicode intact and formula cells prefixed', async () => {
    const chunks = await exportAll({ projectId, state: 'all', format: 'csv' });
    expect(chunks).toHaveLength(1);
    const [chunk] = chunks;
    expect([chunk.format, chunk.rows, chunk.cursor]).toEqual(['csv', COUNT, undefined]);
    expect(chunk.data.startsWith(`${CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    const rows = parse<Record<string, string>>(chunk.data, { columns: true });
    const responses = await stored({ projectId, state: 'all' });
    expect(responses).toHaveLength(COUNT);
    expect(rows).toHaveLength(COUNT);
    const mismatches = rows.flatMap((row, index) => {
      const expected = expectedRow(responses[index]);
      return Object.keys(expected)
        .filter((column) => row[column] !== expected[column])
        .map((column) => ({ index, column, row: row[column], expected: expected[column] }));
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(rows).toEqual(responses.map(expectedRow));
    // The workload did reach the interesting cases.
    expect(rows.some((row) => row.message === '\'=HYPERLINK("http://evil.example")')).toBe(true);
    expect(rows.some((row) => row.message === 'line one\r\nline "two", three')).toBe(true);
    expect(rows.some((row) => row.value === "'+1")).toBe(true);
    expect(rows.some((row) => row.contentSetKey === 'réactions 🎉')).toBe(true);
    expect(rows.some((row) => row.contentTitle.startsWith("'=cmd"))).toBe(true);
    expect(rows.some((row) => row.sessionId.startsWith("'-session-"))).toBe(true);
    expect(rows.some((row) => row.userId === 'user-3' && row.os === 'Windows')).toBe(true);
    expect(rows.filter((row) => row.state === 'revoked')).toHaveLength(REVOKED);
    // Every id cell is the API's id, character for character (600 responses: about 9 would
    // have begun with "-" before ids avoided it).
    const apiIds = new Set(responses.flatMap((response) => [response.id, response.projectId, response.contentSetId, response.contentItemId]));
    for (const row of rows) for (const column of ID_COLUMNS) expect(apiIds.has(row[column])).toBe(true);
  });

  it('exports a set, an item, a person and a time range as their lists do', async () => {
    const cases: Record<string, unknown>[] = [
      { contentSetId: sets[4].id },
      { contentId: [...items.keys()][7] },
      { userId: 'user-3' },
      { projectId, from: new Date(BASE + 100_000).toISOString(), to: new Date(BASE + 700_000).toISOString() },
      { projectId, state: 'revoked' },
    ];
    for (const query of cases) {
      const [chunk] = await exportAll({ ...query, format: 'csv' });
      const rows = parse<Record<string, string>>(chunk.data, { columns: true });
      const responses = await stored(query);
      expect({ query, ids: rows.map((row) => row.responseId) }).toEqual({ query, ids: responses.map((response) => response.id) });
      expect(rows).toEqual(responses.map(expectedRow));
      expect(responses.length).toBeGreaterThan(0);
    }
  });

  it('chunks by rows and by bytes: the header once, rows in order, a cursor while more remain', async () => {
    const { store } = defaultStore();
    const whole = (await exportResponses(store, owner.accountId, { projectId, state: 'all', format: 'csv' })).data;
    for (const limits of [{ maxRows: 250 }, { maxBytes: 15_000 }, { maxRows: 97 }]) {
      const parts: string[] = [];
      let cursor: string | undefined;
      let calls = 0;
      do {
        const chunk = await exportResponses(store, owner.accountId, { projectId, state: 'all', format: 'csv', cursor }, limits);
        if (limits.maxRows) expect(chunk.rows).toBeLessThanOrEqual(limits.maxRows);
        if ('maxBytes' in limits) expect(Buffer.byteLength(JSON.stringify(chunk.data))).toBeLessThan(15_000 + 2000);
        expect(chunk.rows).toBeGreaterThan(0);
        parts.push(chunk.data);
        cursor = chunk.cursor;
        calls++;
      } while (cursor && calls < 100);
      expect({ limits, same: parts.join('') === whole }).toEqual({ limits, same: true });
      expect(parts.slice(1).every((part) => !part.startsWith('responseId,'))).toBe(true);
      if (limits.maxRows === 250) expect(calls).toBe(Math.ceil(COUNT / 250));
    }
  }, 120_000);

  it('stops on its time budget after at least one row', async () => {
    const { store } = defaultStore();
    let now = 0;
    const chunk = await exportResponses(
      store,
      owner.accountId,
      { projectId, state: 'active', format: 'ndjson' },
      { timeBudgetMs: 10, clock: () => (now += 4) },
    );
    expect(chunk.rows).toBeGreaterThanOrEqual(1);
    expect(chunk.rows).toBeLessThan(5);
    expect(chunk.cursor).toBeDefined();
  });
});

describe('NDJSON', () => {
  it('has one Response per line, as responses/get returns it', async () => {
    const [chunk] = await exportAll({ contentSetId: sets[5].id, state: 'all', format: 'ndjson' });
    const lines = chunk.data.split('\n');
    expect(lines.pop()).toBe('');
    const responses = await stored({ contentSetId: sets[5].id, state: 'all' });
    expect(lines.map((line) => JSON.parse(line))).toEqual(responses);
    expect(chunk.rows).toBe(responses.length);
    const one = await api.call('responses/get', [responses[0].id], { key: owner.viewer });
    expect(JSON.parse(lines[0])).toEqual(one.body);
  });

  it('exports nothing (and no header) for an empty selection', async () => {
    const [csv] = await exportAll({ projectId, from: '2000-01-01T00:00:00Z', to: '2000-01-02T00:00:00Z', format: 'csv' });
    expect([csv.rows, csv.data, csv.cursor]).toEqual([0, `${CSV_COLUMNS.join(',')}\r\n`, undefined]);
    const [ndjson] = await exportAll({ userId: 'nobody', format: 'ndjson' });
    expect([ndjson.rows, ndjson.data]).toEqual([0, '']);
  });
});

describe('refusals', () => {
  it('refuses other accounts, anonymous callers, malformed input and foreign cursors, changing nothing', async () => {
    const before = await tableSnapshot();
    for (const query of [{ projectId }, { contentSetId: sets[0].id }, { contentId: [...items.keys()][0] }]) {
      expectError(await api.call('responses/export', [{ ...query, format: 'csv' }], { key: other.viewer }), 404, 'not-found');
    }
    const theirs = await api.call('responses/export', [{ userId: 'user-3', format: 'ndjson' }], { key: other.viewer });
    expect([theirs.status, theirs.body.rows]).toEqual([200, 0]);
    expectError(await api.call('responses/export', [{ projectId, format: 'csv' }]), 401, 'unauthorized');
    const malformed: [unknown[], string[]][] = [
      [[{ projectId }], ['args.0.format']],
      [[{ projectId, format: 'xlsx' }], ['args.0.format']],
      [[{ format: 'csv' }], ['args.0.projectId']],
      [[{ projectId, userId: 'x', format: 'csv' }], ['args.0.userId']],
      [[{ projectId, format: 'csv', $size: 10 }], ['args.0']],
      [[{ projectId, format: 'csv', cursor: 'forged' }], ['args.0.cursor']],
      [[{ projectId, format: 'csv', from: 'yesterday' }], ['args.0.from']],
    ];
    for (const [args, paths] of malformed) {
      const answer = await api.call('responses/export', args, { key: owner.viewer });
      expectError(answer, 400, 'bad-request');
      expect({ args, paths: fieldPaths(answer) }).toEqual({ args, paths });
    }
    // A list cursor is not an export cursor, nor a CSV cursor an NDJSON one.
    const { body: listPage } = await api.call('responses/list', [{ projectId, $size: 5 }], { key: owner.viewer });
    expectError(await api.call('responses/export', [{ projectId, format: 'csv', cursor: listPage.cursor }], { key: owner.viewer }), 400, 'bad-request');
    const { store } = defaultStore();
    const csvChunk = await exportResponses(store, owner.accountId, { projectId, state: 'active', format: 'csv' }, { maxRows: 2 });
    expectError(await api.call('responses/export', [{ projectId, format: 'ndjson', cursor: csvChunk.cursor }], { key: owner.viewer }), 400, 'bad-request');
    const continued = await api.call('responses/export', [{ projectId, format: 'csv', cursor: csvChunk.cursor }], { key: owner.viewer });
    expect(continued.status).toBe(200);
    expect(continued.body.data.startsWith('responseId,')).toBe(false);
    expectError(await api.call('responses/export', [{ projectId, format: 'csv', cursor: csvChunk.cursor }], { key: other.viewer }), 404, 'not-found');
    expect(await tableSnapshot()).toEqual(before);
  });
});
