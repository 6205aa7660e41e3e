import { ANONYMOUS } from '../../functions/api/auth';
import { rebuildProject } from '../../functions/jobs/rebuild';
import { createResponse } from '../../functions/operations/response-collection';
import { removeResponse } from '../../functions/operations/response-revocation';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, createContentSet, expectError, fieldPaths, startTestApi, succeeded, type AccountKeys, type TestApi } from '../support/api';

/**
 * responses/import over HTTP: rows counted in their createdAt's periods (stats, top lists,
 * rolling windows) exactly as a recount from the responses gives, also beside live
 * responses on the same items and days and after an erasure; each (set, importId)
 * once, also when two calls carry the same rows at once; refusals per row; no webhooks;
 * one audit entry per call with its counts.
 */
const DAY = 24 * 3600 * 1000;
let api: TestApi;
let owner: AccountKeys;
let projectId: string;
let setId: string;
let webhookId: string;

interface Row {
  key?: string;
  contentId?: string;
  value: unknown;
  createdAt: string;
  importId: string;
  userId?: string;
  context?: Record<string, unknown>;
}

const importRows = (rows: Row[], set = setId, key = owner.admin) => api.call('responses/import', [set, rows], { key });
const stats = (id: string, period: string) => succeeded(api, 'sets/getStats', [id, { period }], owner.viewer);

beforeAll(async () => {
  // Webhook deliveries fail at once on port 9 (discard) and stay on this machine.
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
  api = await startTestApi();
  owner = await createAccount('import');
  projectId = (await succeeded(api, 'projects/create', [{ name: 'Import' }], owner.admin)).id;
  setId = await createContentSet(api, owner.admin, projectId, 'yes-no');
  webhookId = (await succeeded(api, 'webhooks/create', [{ url: 'http://127.0.0.1:9/import', events: ['response.created'], projectId }], owner.admin)).id;
}, 30_000);
afterAll(() => api.close());

describe('responses/import', () => {
  it('counts rows in the periods of their createdAt, as a recount does, in top lists and rolling windows, without webhooks', async () => {
    const now = Date.now();
    // 90 rows over 3 pages, on 30 days of the last 400 (few distinct days: each is counter writes); page-0 only yes.
    const rows: Row[] = Array.from({ length: 90 }, (_, index) => ({
      key: `https://docs.example/page-${index % 3}`,
      value: index % 3 === 0 || index % 2 === 0 ? 'yes' : 'no',
      createdAt: new Date(now - (index % 30) * 13.5 * DAY - (index % 7) * 3600_000).toISOString(),
      importId: `history-${index}`,
      ...(index % 10 === 0 ? { userId: `user-${index % 4}`, context: { plan: 'pro' } } : {}),
    }));
    const { status, body } = await importRows(rows);
    expect(status).toBe(200);
    expect(body.rows.map((row: { status: string }) => row.status)).toEqual(rows.map(() => 'imported'));
    expect(body.rows.map((row: { index: number }) => row.index)).toEqual(rows.map((_, index) => index));
    await api.drainStream();

    const inLast = (days: number) => rows.filter((row) => Date.parse(row.createdAt) > now - days * DAY).length;
    expect((await stats(setId, 'lifetime')).count).toBe(90);
    // rolling7d: the 7 days ending today, by calendar day.
    const todayStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
    const since = (from: number) => rows.filter((row) => Date.parse(row.createdAt) >= from).length;
    expect((await stats(setId, 'rolling7d')).count).toBe(since(todayStart - 6 * DAY));
    expect((await stats(setId, 'rolling28d')).count).toBe(since(todayStart - 27 * DAY));
    const lastYear = String(new Date(now).getUTCFullYear() - 1);
    const yearBefore = await succeeded(api, 'sets/getStats', [setId, { period: 'year', reference: `${lastYear}-06-01T00:00:00Z` }], owner.viewer);
    expect(yearBefore.count).toBe(rows.filter((row) => row.createdAt.startsWith(lastYear)).length);
    expect(inLast(400)).toBe(90);

    // The counters are what a recount of the responses gives: nothing to rewrite.
    const rebuilt = await rebuildProject(defaultStore().store, projectId, new Date(), { dryRun: true });
    expect(rebuilt.responses.active).toBe(90);
    expect(rebuilt.items.rewritten).toBe(0);

    // Top lists rank the imported history like live responses.
    const top = await succeeded(api, 'contents/top', [{ contentSetId: setId, period: 'rolling12m' }], owner.viewer);
    expect(top).toHaveLength(3);
    const inTwelveMonths = since(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() - 11, 1));
    expect(top.reduce((sum: number, entry: { stats: { count: number } }) => sum + entry.stats.count, 0)).toBe(inTwelveMonths);

    // The webhook of response.created got nothing from the import; a live response reaches it.
    expect((await succeeded(api, 'webhooks/deliveries', [{ webhookId }], owner.admin)).items).toEqual([]);
    await succeeded(api, 'responses/create', [{ contentSetId: setId, key: 'https://docs.example/page-0', value: 'yes' }]);
    await api.drainStream({ rank: false });
    expect((await succeeded(api, 'webhooks/deliveries', [{ webhookId }], owner.admin)).items).toHaveLength(1);
  }, 60_000);

  it('imports each (set, importId) once: retries and two calls at once with the same rows count once', async () => {
    const concurrentSet = await createContentSet(api, owner.admin, projectId, 'rating');
    const createdAt = new Date(Date.now() - 3 * DAY).toISOString();
    // New keys, so the two calls also race to create the same items.
    const rows: Row[] = Array.from({ length: 60 }, (_, index) => ({ key: `race-${index % 10}`, value: (index % 5) + 1, createdAt, importId: `r${index}` }));
    const [first, second] = await Promise.all([importRows(rows, concurrentSet), importRows(rows, concurrentSet)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    for (const [index, row] of first.body.rows.entries()) {
      const other = second.body.rows[index];
      expect([row.status, other.status].sort()).toEqual(['duplicate', 'imported']);
      expect(other.responseId).toBe(row.responseId);
    }
    const retry = await importRows(rows, concurrentSet);
    expect(retry.body.rows.every((row: { status: string }) => row.status === 'duplicate')).toBe(true);
    // The same importId twice in one call: the second is a duplicate of the first.
    const twice = await importRows(
      [
        { key: 'race-0', value: 2, createdAt, importId: 'twice' },
        { key: 'race-1', value: 3, createdAt, importId: 'twice' },
      ],
      concurrentSet,
    );
    expect(twice.body.rows.map((row: { status: string }) => row.status)).toEqual(['imported', 'duplicate']);
    await api.drainStream({ rank: false });
    const counted = await stats(concurrentSet, 'lifetime');
    expect(counted.count).toBe(61);
    expect((await succeeded(api, 'contents/lookup', ['race-', { contentSetId: concurrentSet }], owner.viewer)).length).toBe(10);
    const rebuilt = await rebuildProject(defaultStore().store, projectId, new Date(), { dryRun: true });
    expect(rebuilt.items.rewritten).toBe(0);

    // One audit entry per call, with its counts.
    const entries = (await succeeded(api, 'audit/list', [{ operation: 'responses/import', targetId: concurrentSet }], owner.admin)).items;
    expect(entries).toHaveLength(4);
    expect(entries.map((entry: { counts: unknown }) => entry.counts)).toEqual(
      expect.arrayContaining([
        { imported: 1, duplicate: 1, refused: 0 },
        { imported: 0, duplicate: 60, refused: 0 },
      ]),
    );
    expect(entries.reduce((sum: number, entry: { counts: { imported: number } }) => sum + entry.counts.imported, 0)).toBe(61);
  }, 60_000);

  it('counts exactly beside live responses on the same items and days, across overlapping calls, an erasure and a retry; a rebuild agrees', async () => {
    const { store } = defaultStore();
    const mixedSet = await createContentSet(api, owner.admin, projectId, 'yes-no');
    const now = Date.now();
    const keys = ['a', 'b', 'c'].map((name) => `https://docs.example/mixed-${name}`);
    // Today (before now) and the 3 days before, on the pages the live responses land on; in no time order.
    const rows: Row[] = Array.from({ length: 60 }, (_, index) => ({
      key: keys[index % 3],
      value: index % 4 === 0 ? 'no' : 'yes',
      createdAt: new Date(now - (index % 4) * DAY - 60_000 - index * 1000).toISOString(),
      importId: `mixed-${index}`,
    }));
    // Live responses (no visitor: nothing for the flood rules to hold) written while two calls
    // import overlapping rows (20 in both: a call retried while the first is still running).
    const [first, second, ...live] = await Promise.all([
      importRows(rows.slice(0, 40), mixedSet),
      importRows(rows.slice(20), mixedSet),
      ...Array.from({ length: 12 }, (_, index) =>
        createResponse(
          store,
          ANONYMOUS,
          { contentSetId: mixedSet, key: keys[index % 3], value: index % 3 === 0 ? 'no' : 'yes', revokable: true },
          { headers: {} },
          new Date(),
        ),
      ),
    ]);
    const statuses = new Map<string, string[]>();
    for (const [call, offset] of [
      [first, 0],
      [second, 20],
    ] as const) {
      for (const row of call.body.rows)
        statuses.set(rows[offset + row.index].importId, [...(statuses.get(rows[offset + row.index].importId) ?? []), row.status]);
    }
    expect(statuses.size).toBe(60);
    for (const [importId, seen] of statuses) {
      const index = Number(importId.slice('mixed-'.length));
      expect(seen.sort()).toEqual(index >= 20 && index < 40 ? ['duplicate', 'imported'] : ['imported']);
    }

    // Two live responses removed, one imported response erased, the first call sent again.
    for (const created of live.slice(0, 2))
      await removeResponse(store, ANONYMOUS, { responseId: created.responseId, revokeToken: created.revokable!.token }, new Date());
    const erased = first.body.rows[0].responseId;
    expect((await succeeded(api, 'responses/erase', [{ responseIds: [erased] }], owner.admin)).erased).toBe(1);
    const again = await importRows(rows.slice(1, 40), mixedSet);
    expect(again.body.rows.every((row: { status: string }) => row.status === 'duplicate')).toBe(true);
    await api.drainStream({ rank: false });

    const kept = rows.slice(1);
    const today = new Date().toISOString().slice(0, 10);
    const counted = kept.length + live.length - 2;
    const lifetime = await stats(mixedSet, 'lifetime');
    expect(lifetime.count).toBe(counted);
    expect((await stats(mixedSet, 'day')).count).toBe(kept.filter((row) => row.createdAt.startsWith(today)).length + live.length - 2);
    const noes = kept.filter((row) => row.value === 'no').length + live.filter((_, index) => index >= 2 && index % 3 === 0).length;
    // yes-no's summary: yes counts +1, no -1, over the responses (stored to 6 decimals).
    expect(lifetime.data.summary).toBeCloseTo((counted - 2 * noes) / counted, 6);
    // Every counter of the project (items, sets, the project; days and years) is what a recount gives.
    const rebuilt = await rebuildProject(store, projectId, new Date(), { dryRun: true });
    expect(rebuilt.items.rewritten).toBe(0);
  }, 60_000);

  it('refuses a row on its own with an ApiError body, and the rest go on', async () => {
    const closedSet = await createContentSet(api, owner.admin, projectId, 'yes-no', { metadata: { disallowAutoContentCreation: true } });
    const openItem = await succeeded(api, 'contents/create', [{ contentSetId: closedSet, key: 'known' }], owner.admin);
    const archived = await succeeded(api, 'contents/create', [{ contentSetId: closedSet, key: 'archived' }], owner.admin);
    await succeeded(api, 'contents/save', [archived.id, { state: 'archived' }], owner.admin);
    const elsewhere = await succeeded(api, 'contents/create', [{ contentSetId: setId, key: 'elsewhere' }], owner.admin);
    const at = '2024-03-01T12:00:00Z';
    const { status, body } = await importRows(
      [
        { key: 'known', value: 'maybe', createdAt: at, importId: 'bad-value' },
        { key: 'known', value: 'y', createdAt: new Date(Date.now() + DAY).toISOString(), importId: 'future' },
        { key: 'known', value: 'y', createdAt: '1999-12-31T23:59:59Z', importId: 'too-old' },
        { key: 'unknown', value: 'y', createdAt: at, importId: 'no-item' },
        { contentId: elsewhere.id, value: 'y', createdAt: at, importId: 'other-set' },
        { contentId: archived.id, value: 'y', createdAt: at, importId: 'archived' },
        { contentId: 'AAAAAAAAAAAAAAAAAAAAAA', value: 'y', createdAt: at, importId: 'missing' },
        { contentId: openItem.id, key: 'archived', value: 'y', createdAt: at, importId: 'contradicting' },
        { key: 'known', value: 'n', createdAt: '2000-01-01T00:00:00Z', importId: 'ok-1' },
        { contentId: openItem.id, value: 'yes', createdAt: at, importId: 'ok-2' },
      ],
      closedSet,
    );
    expect(status).toBe(200);
    const errors = body.rows.map((row: { status: string; error?: { error: string; data?: { fields?: { path: string }[] } } }) => [
      row.status,
      row.error?.error,
      row.error?.data?.fields?.map((field) => field.path)[0],
    ]);
    expect(errors).toEqual([
      ['refused', 'bad-request', 'args.1.0.value'],
      ['refused', 'bad-request', 'args.1.1.createdAt'],
      ['refused', 'bad-request', 'args.1.2.createdAt'],
      ['refused', 'not-found', undefined],
      ['refused', 'bad-request', 'args.1.4.contentId'],
      ['refused', 'conflict', undefined],
      ['refused', 'not-found', undefined],
      ['refused', 'bad-request', 'args.1.7.contentId'],
      ['imported', undefined, undefined],
      ['imported', undefined, undefined],
    ]);
    for (const row of body.rows.filter((row: { status: string }) => row.status === 'refused')) {
      expect(Object.keys(row.error).every((name) => ['error', 'message', 'data'].includes(name))).toBe(true);
      expect(typeof row.error.message).toBe('string');
    }
  });

  it('takes ratings by the same rule as responses/create: a step within 1e-9 is the step, off the scale is refused', async () => {
    const ratingSet = await createContentSet(api, owner.admin, projectId, 'rating');
    const at = '2024-03-01T12:00:00Z';
    const { status, body } = await importRows(
      [
        { key: 'page', value: 4.0000000009, createdAt: at, importId: 'near-4' },
        { key: 'page', value: 5.0000000009, createdAt: at, importId: 'above-5' },
        { key: 'page', value: '0.9999999991', createdAt: at, importId: 'below-1' },
        { key: 'page', value: 2.5, createdAt: at, importId: 'between' },
      ],
      ratingSet,
    );
    expect(status).toBe(200);
    expect(
      body.rows.map((row: { status: string; error?: { data: { fields: { path: string; message: string }[] } } }) => [row.status, row.error?.data.fields[0]]),
    ).toEqual([
      ['imported', undefined],
      ['refused', { path: 'args.1.1.value', message: "5.0000000009 is not on this set's scale: a rating is from 1 to 5 in steps of 1" }],
      ['refused', { path: 'args.1.2.value', message: `"0.9999999991" is not on this set's scale: a rating is from 1 to 5 in steps of 1` }],
      ['refused', { path: 'args.1.3.value', message: "2.5 is not on this set's scale: a rating is from 1 to 5 in steps of 1" }],
    ]);
    await api.drainStream();
    const listed = await succeeded(api, 'responses/list', [{ contentSetId: ratingSet }], owner.viewer);
    expect(listed.items.map((response: { value: unknown }) => response.value)).toEqual([4]);
    expect((await stats(ratingSet, 'lifetime')).data.summary).toBe(4);
  });

  it('is for admins only, POST only, and refuses malformed calls whole', async () => {
    const row = { key: 'k', value: 'y', createdAt: '2024-01-01T00:00:00Z', importId: 'x' };
    expectError(await importRows([row], setId, owner.viewer), 403, 'forbidden');
    expectError(await api.call('responses/import', [setId, [row]], { method: 'GET', key: owner.admin }), 405, 'method-not-allowed');
    expectError(await importRows([row], 'AAAAAAAAAAAAAAAAAAAAAA'), 404, 'not-found');
    const other = await createAccount('import-other');
    expectError(await importRows([row], setId, other.admin), 404, 'not-found');
    const tooMany = await importRows(Array.from({ length: 1001 }, (_, index) => ({ ...row, importId: `${index}` })));
    expectError(tooMany, 400, 'bad-request');
    const noImportId = await importRows([{ key: 'k', value: 'y', createdAt: '2024-01-01T00:00:00Z' } as Row]);
    expectError(noImportId, 400, 'bad-request');
    expect(fieldPaths(noImportId)).toEqual(['args.1.0.importId']);
    // Rows with context beyond the common 64 KiB body limit, within this operation's.
    const big = Array.from({ length: 300 }, (_, index) => ({ ...row, importId: `big-${index}`, context: { note: 'x'.repeat(250) } }));
    expect(JSON.stringify([setId, big]).length).toBeGreaterThan(64 * 1024);
    const answer = await importRows(big);
    expect(answer.status).toBe(200);
    expect(answer.body.rows.filter((entry: { status: string }) => entry.status === 'imported')).toHaveLength(300);
  }, 60_000);
});
