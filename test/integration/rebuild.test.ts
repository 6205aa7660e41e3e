import { execFile } from 'node:child_process';
import { BatchWriteCommand, DeleteCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ANONYMOUS } from '../../functions/api/auth';
import { createResponse } from '../../functions/operations/response-collection';
import { editResponse, removeResponse } from '../../functions/operations/response-revocation';
import { emptyCounter, type Counter } from '../../functions/domain/aggregation';
import { isCounterSk, itemCountersOf } from '../../functions/store/counters';
import { defaultStore } from '../../functions/store/entity-store';
import { rebuildProject } from '../../functions/jobs/rebuild';
import { createAccount, pool, startTestApi, type AccountKeys, type TestApi, createContentSet } from '../support/api';
import { normalCounter } from '../support/counters';
import { cliBundle } from '../support/cli-bundle';

/**
 * The rebuild against counters made by the real stream consumer (DynamoDB Local's stream):
 * a healthy project rebuilds to exactly what streaming made (nothing to write), a drifted
 * one is repaired to it, and the read operations answer as before the drift.
 *
 * And the migration: a project whose counters are in the layout before (hour#, day#,
 * week#, month#, year#, lifetime and rolling# items with rank and retire keys, and
 * counted# markers), as a deployed stack holds them, is rebuilt into the day/year layout
 * and answers every read as the stream-made counters do; the old items are deleted.
 *
 * Counter items are compared by their counters (total, hours, months; timestamps, `v` and
 * watermarks left out). Where the rebuild has written, counters that are all zero are left
 * out of the comparison: the rebuild sets a bogus item to zero rather than deleting it,
 * and zero reads as zero everywhere. Where it has not written, the raw items are compared
 * whole.
 */

const DAY_MS = 24 * 3600 * 1000;
const { store, documentClient, settings } = defaultStore();

let api: TestApi;
let owner: AccountKeys;
let projectId: string;
let otherProjectId: string;
let sets: { reactions: string; ratings: string; yesNo: string };

async function createSet(project: string, schema: string) {
  return createContentSet(api, owner.admin, project, schema);
}

/** The partitions of a project's counters: the project, its sets, its content items. */
async function entityPartitions(project: string): Promise<string[]> {
  const pks = [`agg#project#${project}`];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: settings.tableName,
        FilterExpression: '(begins_with(pk, :content) OR begins_with(pk, :set)) AND projectId = :project',
        ExpressionAttributeValues: { ':content': 'content#', ':set': 'set#', ':project': project },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? []) pks.push(`agg#${String(item.pk).startsWith('set#') ? 'contentSet' : 'contentItem'}#${String(item.id)}`);
    start = page.LastEvaluatedKey;
  } while (start);
  return pks;
}

/** Every item of a project's counter partitions, raw, by key; `layout` picks this layout's items or the one before. */
async function counterItems(project: string, layout: 'current' | 'before' = 'current'): Promise<Record<string, Record<string, unknown>>> {
  const items: Record<string, Record<string, unknown>> = {};
  // The partitions a few at a time; the items by key, whatever order the answers come in.
  const pages = await pool(await entityPartitions(project), 8, (pk) =>
    documentClient.send(
      new QueryCommand({ TableName: settings.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }),
    ),
  );
  for (const page of pages) {
    for (const item of page.Items ?? []) {
      if (isCounterSk(String(item.sk)) === (layout === 'current')) items[`${String(item.pk)} ${String(item.sk)}`] = item;
    }
  }
  return items;
}

const isZero = (counter: ReturnType<typeof normalCounter>) =>
  counter.count === 0 &&
  Object.keys(counter.options).length === 0 &&
  [counter.sentimentSum, counter.sentimentCount, counter.intensitySum, counter.intensityCount, counter.ratingSum].every((value) => value === 0);

/** Counters (item totals, hours, months) by item key and part; `withZeros: false` leaves out those that are all zero. */
function countersOf(items: Record<string, Record<string, unknown>>, withZeros = true) {
  const result: Record<string, ReturnType<typeof normalCounter>> = {};
  for (const [key, item] of Object.entries(items)) {
    const { total, parts } = itemCountersOf(item);
    for (const [part, counter] of [['total', total], ...Object.entries(parts)] as const) {
      const normal = normalCounter(counter);
      if (withZeros || !isZero(normal)) result[`${key} ${part}`] = normal;
    }
  }
  return result;
}

const watermarksOf = (items: Record<string, Record<string, unknown>>) =>
  Object.fromEntries(
    Object.entries(items).map(([key, item]) => [key, Object.fromEntries(Object.entries(item).filter(([name]) => /^w[0-9a-f]{8}$/.test(name)))]),
  );

/* The layout before issue 19, written by hand as its consumer left it (for the migration test). */

const LONG_SUMS = { ss: 'sentimentSum', sc: 'sentimentCount', is: 'intensitySum', ic: 'intensityCount', rs: 'ratingSum' } as const;

function oldCounterAttributes(counter: Counter): Record<string, number> {
  const attributes: Record<string, number> = { count: counter.count };
  counter.options.forEach((value, index) => {
    if (value !== 0) attributes[`o${index}`] = value;
  });
  for (const name of Object.values(LONG_SUMS)) if (counter[name] !== 0) attributes[name] = counter[name];
  return attributes;
}

/**
 * What the consumer before issue 19 kept for these counters: hour#, day#, month#, year#
 * items with their static attributes, rank and retire keys, a week#, a lifetime and a
 * rolling7d item per entity (their values need not be exact: the rebuild recomputes
 * everything from the responses).
 */
function layoutBefore(current: Record<string, Record<string, unknown>>, scope: { accountId: string; projectId: string }): Record<string, unknown>[] {
  const byKey = new Map<string, Record<string, unknown>>();
  const items = { push: (item: Record<string, unknown>) => byKey.set(`${String(item.pk)} ${String(item.sk)}`, item) };
  const lifetimes = new Map<string, Counter>();
  for (const item of Object.values(current)) {
    const pk = String(item.pk);
    const [, entity, entityId] = pk.split('#');
    const common = { pk, entity, entityId, ...scope, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', version: 3 };
    const ranked = (suffix: string) =>
      entity === 'project' ? {} : { rank2pk: `project#${scope.projectId}#${entity}#${suffix}`, rank3pk: `account#${scope.accountId}#${entity}#${suffix}` };
    const key = String(item.sk).slice(2);
    const { total, parts } = itemCountersOf(item);
    if (String(item.sk).startsWith('d#')) {
      items.push({ ...common, sk: `day#${key}`, granularity: 'day', bucket: key, retirepk: `retire#day#${key}#0`, ...oldCounterAttributes(total) });
      items.push({ ...common, sk: `week#${key}`, granularity: 'week', bucket: key, ...ranked(`week#${key}`), ...oldCounterAttributes(total) });
      for (const [part, counter] of Object.entries(parts)) {
        items.push({ ...common, sk: `hour#${key}T${part.slice(1)}`, granularity: 'hour', bucket: `${key}T${part.slice(1)}`, ...oldCounterAttributes(counter) });
      }
      items.push({ ...common, sk: 'rolling#rolling7d', granularity: 'rolling7d', ...ranked('rolling7d'), ...oldCounterAttributes(total) });
    } else {
      items.push({ ...common, sk: `year#${key}`, granularity: 'year', bucket: key, ...ranked(`year#${key}`), ...oldCounterAttributes(total) });
      for (const [part, counter] of Object.entries(parts)) {
        items.push({
          ...common,
          sk: `month#${key}-${part.slice(1)}`,
          granularity: 'month',
          bucket: `${key}-${part.slice(1)}`,
          retirepk: `retire#month#${key}-${part.slice(1)}#0`,
          ...oldCounterAttributes(counter),
        });
      }
      const sum = lifetimes.get(pk) ?? emptyCounter(0);
      sum.count += total.count;
      lifetimes.set(pk, sum);
    }
  }
  for (const [pk, counter] of lifetimes) {
    const [, entity, entityId] = pk.split('#');
    items.push({ pk, sk: 'lifetime', entity, entityId, ...scope, granularity: 'lifetime', ...oldCounterAttributes(counter) });
  }
  return [...byKey.values()];
}

async function writeAll(items: Record<string, unknown>[], kind: 'put' | 'delete'): Promise<void> {
  for (let index = 0; index < items.length; index += 25) {
    const requests = items
      .slice(index, index + 25)
      .map((item) => (kind === 'put' ? { PutRequest: { Item: item } } : { DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
    const answer = await documentClient.send(new BatchWriteCommand({ RequestItems: { [settings.tableName]: requests } }));
    expect(answer.UnprocessedItems?.[settings.tableName] ?? []).toEqual([]);
  }
}

/** What the read operations answer for the project, its sets and items, over every period (timestamps left out). */
async function readSide(itemIds: string[]) {
  const periods = ['day', 'week', 'month', 'year', 'lifetime', 'rolling7d', 'rolling28d', 'rolling12m'];
  const answers: Record<string, unknown> = {};
  const strip = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(strip)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([name]) => name !== 'createdAt' && name !== 'updatedAt')
              .map(([name, inner]) => [name, strip(inner)]),
          )
        : value;
  // Entries of equal count may come back in either order (the rank index does not order ties).
  const byRank = (entries: { id: string; stats: { count: number } }[]) => [...entries].sort((a, b) => b.stats.count - a.stats.count || (a.id < b.id ? -1 : 1));
  const ask = async ([operation, args]: [string, unknown[]]) => {
    const { status, body } = await api.call(operation, args, { key: owner.viewer });
    expect(status).toBe(200);
    answers[`${operation} ${JSON.stringify(args)}`] = strip(operation.endsWith('/top') ? byRank(body) : body);
  };
  const questions: [string, unknown[]][] = [];
  for (const period of periods) {
    questions.push(['projects/getStats', [projectId, { period }]]);
    for (const id of Object.values(sets)) questions.push(['sets/getStats', [id, { period }]]);
    for (const id of itemIds) questions.push(['contents/getStats', [id, { period }]]);
  }
  for (const period of ['week', 'month', 'year', 'rolling7d', 'rolling28d', 'rolling12m']) {
    questions.push(['contents/top', [{ projectId, period, $size: 50 }]]);
    questions.push(['sets/top', [{ projectId, period, $size: 50 }]]);
  }
  // Reads only, independent of each other: a few at a time.
  await pool(questions, 8, ask);
  return answers;
}

let itemIds: string[] = [];
/** When the stream had counted everything: the tests rebuild as of this instant. */
let countedAt: Date;
/** The counters the stream made, before anything is rebuilt. */
let streamed: Record<string, Record<string, unknown>>;

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('rebuild');
  projectId = (await api.call('projects/create', [{ name: 'Rebuild' }], { key: owner.admin })).body.id;
  otherProjectId = (await api.call('projects/create', [{ name: 'Left alone' }], { key: owner.admin })).body.id;
  sets = { reactions: await createSet(projectId, 'reaction'), ratings: await createSet(projectId, 'rating'), yesNo: await createSet(projectId, 'yes-no') };
  const otherSet = await createSet(otherProjectId, 'pulse');

  const now = Date.now();
  const reactions = ['+1', '-1', 'laugh', 'heart', 'rocket'];
  let n = 0;
  for (const days of [0, 0, 1, 5, 6, 8, 27, 29, 60, 200, 380, 800]) {
    const when = new Date(now - days * DAY_MS - (n % 5) * 3600 * 1000);
    for (const key of ['home', 'docs/a', 'docs/b']) {
      n++;
      const created = await createResponse(
        store,
        ANONYMOUS,
        { contentSetId: sets.reactions, key, value: reactions[n % 5], revokable: true },
        { headers: {} },
        when,
      );
      if (n % 4 === 0)
        await editResponse(
          store,
          ANONYMOUS,
          { responseId: created.responseId, revokeToken: created.revokable!.token, value: 'hooray' },
          new Date(when.getTime() + 1000),
        );
      if (n % 7 === 0)
        await removeResponse(store, ANONYMOUS, { responseId: created.responseId, revokeToken: created.revokable!.token }, new Date(when.getTime() + 2000));
    }
    await createResponse(store, ANONYMOUS, { contentSetId: sets.ratings, key: 'docs/a', value: 1 + (n % 5) }, { headers: {} }, when);
    await createResponse(store, ANONYMOUS, { contentSetId: sets.yesNo, key: 'home', value: n % 3 === 0 ? 'no' : 'yes' }, { headers: {} }, when);
  }
  // A bucket whose only response is revoked: streaming leaves zero items behind.
  const gone = await createResponse(
    store,
    ANONYMOUS,
    { contentSetId: sets.ratings, key: 'gone', value: 4, revokable: true },
    { headers: {} },
    new Date(now - 40 * DAY_MS),
  );
  // Counted before it is revoked (in one consumer batch the two would cancel out and write nothing).
  await api.drainStream();
  await removeResponse(store, ANONYMOUS, { responseId: gone.responseId, revokeToken: gone.revokable!.token }, new Date(now - 40 * DAY_MS + 1000));
  // Today through the API too, and another project's responses.
  for (const value of ['yes', 'no', 'yes']) expect((await api.call('responses/create', [{ contentSetId: sets.yesNo, key: 'home', value }])).status).toBe(200);
  for (let index = 0; index < 3; index++) await api.call('responses/create', [{ contentSetId: otherSet, key: 'other', value: '+' }]);
  await api.drainStream();
  countedAt = new Date();

  streamed = await counterItems(projectId);
  itemIds = [
    ...new Set(Object.keys(streamed).flatMap((key) => (key.startsWith('agg#contentItem#') ? [key.split(' ')[0].slice('agg#contentItem#'.length)] : []))),
  ];
}, 180000);
afterAll(() => api.close());

describe('rebuildProject', () => {
  it('recomputes exactly the counters the stream made: nothing to write, zero items included', async () => {
    const zeroItems = Object.values(streamed).filter(
      (item) => isZero(normalCounter(itemCountersOf(item).total)) && Object.values(itemCountersOf(item).parts).every((part) => isZero(normalCounter(part))),
    ).length;
    expect(zeroItems).toBeGreaterThan(0);
    const result = await rebuildProject(store, projectId, countedAt);
    expect(result).toMatchObject({ projectId, dryRun: false, conflicts: [], rewritten: [] });
    expect(result.responses.total).toBeGreaterThan(result.responses.active);
    expect(result.items.rewritten).toBe(0);
    expect(result.items.unchanged).toBe(Object.keys(streamed).length);
    expect(result.items.recomputed).toBe(Object.keys(streamed).length);
    expect(await counterItems(projectId)).toEqual(streamed);
  });

  it('repairs drifted counters to what the stream made, and the read operations answer as before', async () => {
    const before = await readSide(itemIds);
    const other = await counterItems(otherProjectId);
    const keyOf = (text: string) => ({ pk: text.split(' ')[0], sk: text.split(' ')[1] });
    const find = (test: (item: Record<string, unknown>) => boolean) => Object.keys(streamed).find((key) => test(streamed[key]))!;
    // Counters with responses: drift on a counter whose true value is zero is repaired as 'zeroed', not 'set'.
    const itemYear = find((item) => String(item.pk).startsWith('agg#contentItem#') && String(item.sk).startsWith('y#') && Number(item.n) > 0);
    const dayItem = find((item) => String(item.pk).startsWith('agg#contentSet#') && String(item.sk).startsWith('d#') && Number(item.n) > 0);
    const hourItem = find((item) => String(item.pk).startsWith('agg#contentItem#') && String(item.sk).startsWith('d#') && Number(item.n) > 0);
    const hour = Object.keys(itemCountersOf(streamed[hourItem]).parts)[0];
    const month = find(
      (item) =>
        `${String(item.pk)} ${String(item.sk)}` !== itemYear &&
        String(item.pk).startsWith('agg#contentItem#') &&
        String(item.sk).startsWith('y#') &&
        Object.keys(item).some((name) => /^m\d\do1$/.test(name)),
    );
    const monthOption = Object.keys(streamed[month]).find((name) => /^m\d\do1$/.test(name))!;
    const projectYear = find((item) => String(item.pk).startsWith('agg#project#') && String(item.sk).startsWith('y#'));
    // A lost update, a double count in one hour, a lost option of a month, a drifted sum, a deleted day, a bogus day.
    const update = (key: string, expression: string, values?: Record<string, unknown>) =>
      documentClient.send(
        new UpdateCommand({ TableName: settings.tableName, Key: keyOf(key), UpdateExpression: expression, ExpressionAttributeValues: values }),
      );
    await update(itemYear, 'SET n = :n', { ':n': 999 });
    await update(hourItem, `ADD ${hour}n :n, ${hour}o0 :n`, { ':n': 3 });
    await update(month, `REMOVE ${monthOption}`);
    await update(projectYear, 'ADD rs :n', { ':n': 7.5 });
    await documentClient.send(new DeleteCommand({ TableName: settings.tableName, Key: keyOf(dayItem) }));
    const bogus: Record<string, unknown> = { pk: keyOf(dayItem).pk, sk: 'd#1999-01-01', n: 5, o0: 5, h03n: 5, h03o0: 5, c: 'x', u: 'x', v: 1 };
    await documentClient.send(new PutCommand({ TableName: settings.tableName, Item: bogus }));

    const result = await rebuildProject(store, projectId, countedAt);
    expect(result.conflicts).toEqual([]);
    expect(result.rewritten.map((item) => `${item.pk} ${item.sk} ${item.action}`).sort()).toEqual(
      [`${itemYear} set`, `${hourItem} set`, `${month} set`, `${projectYear} set`, `${dayItem} set`, `${String(bogus.pk)} ${String(bogus.sk)} zeroed`].sort(),
    );
    const repaired = await counterItems(projectId);
    expect(countersOf(repaired, false)).toEqual(countersOf(streamed, false));
    expect(countersOf(repaired)[`${String(bogus.pk)} ${String(bogus.sk)} total`]).toEqual(normalCounter(emptyCounter(0)));
    // The watermarks stay: a stream record counted before is still refused.
    const { [`${String(bogus.pk)} ${String(bogus.sk)}`]: _bogus, [dayItem]: _deleted, ...repairedWatermarks } = watermarksOf(repaired);
    const { [dayItem]: _deletedBefore, ...streamedWatermarks } = watermarksOf(streamed);
    expect(repairedWatermarks).toEqual(streamedWatermarks);
    expect(await counterItems(otherProjectId)).toEqual(other);
    expect(await readSide(itemIds)).toEqual(before);
  }, 180000);

  it('a second rebuild writes nothing and changes no item', async () => {
    const before = await counterItems(projectId);
    const again = await rebuildProject(store, projectId, countedAt);
    expect(again.items.rewritten).toBe(0);
    expect(again.rewritten).toEqual([]);
    expect(await counterItems(projectId)).toEqual(before);
  });

  it('a dry run reports what it would rewrite and writes nothing', async () => {
    const key = Object.keys(streamed).find((text) => text.startsWith('agg#project#') && streamed[text].sk === `y#${countedAt.getUTCFullYear()}`)!;
    const [pk, sk] = key.split(' ');
    await documentClient.send(
      new UpdateCommand({ TableName: settings.tableName, Key: { pk, sk }, UpdateExpression: 'ADD n :n', ExpressionAttributeValues: { ':n': 1 } }),
    );
    const drifted = await counterItems(projectId);
    const dry = await rebuildProject(store, projectId, countedAt, { dryRun: true });
    expect(dry.rewritten).toEqual([{ pk, sk, action: 'set', countBefore: Number(streamed[key].n) + 1, countAfter: Number(streamed[key].n) }]);
    expect(await counterItems(projectId)).toEqual(drifted);
    await rebuildProject(store, projectId, countedAt);
    expect(countersOf(await counterItems(projectId), false)).toEqual(countersOf(streamed, false));
  });
});

describe('migration from the counter layout before', () => {
  it('rebuilds a project counted by the layout before into day and year items: every read answers as the stream made them', async () => {
    const rebuilt = await rebuildProject(store, projectId, countedAt);
    expect(rebuilt.conflicts).toEqual([]);
    const current = await counterItems(projectId);
    const answers = await readSide(itemIds);

    // A deployed stack before the upgrade: the old items (with their index entries) and markers, none of the new.
    const account = await store.entities.Project.get({ id: projectId }).go();
    const old = layoutBefore(current, { accountId: account.data!.accountId, projectId });
    await writeAll(Object.values(current), 'delete');
    await writeAll(old, 'put');
    const markers = Array.from({ length: 30 }, (_, index) => ({ pk: `counted#migration-${index}`, sk: 'counted', countedAt: countedAt.toISOString() }));
    await writeAll(markers, 'put');
    // What reads show until the rebuild: only what the new consumer has counted since the upgrade (here nothing).
    const beforeRebuild = (await api.call('projects/getStats', [projectId, { period: 'lifetime' }], { key: owner.viewer })).body;
    expect(beforeRebuild.count).toBe(0);

    const result = await rebuildProject(store, projectId, countedAt);
    expect(result.conflicts).toEqual([]);
    expect(result.items.deleted).toBe(old.length);
    expect(result.rewritten.filter((item) => item.action === 'deleted')).toHaveLength(old.length);
    expect(await counterItems(projectId, 'before')).toEqual({});
    expect(countersOf(await counterItems(projectId), false)).toEqual(countersOf(current, false));
    expect(await readSide(itemIds)).toEqual(answers);
    // The old retire index entries went with their items (the index now lists only top lists, for the ranker's daily recount).
    const indexed = await documentClient.send(new ScanCommand({ TableName: settings.tableName, IndexName: 'retire' }));
    expect((indexed.Items ?? []).filter((item) => !String(item.pk).startsWith('toplist#'))).toEqual([]);
    expect(
      (
        await documentClient.send(
          new ScanCommand({
            TableName: settings.tableName,
            FilterExpression: 'begins_with(pk, :m)',
            ExpressionAttributeValues: { ':m': 'counted#migration-' },
          }),
        )
      ).Items,
    ).toHaveLength(markers.length);
  }, 180000);
});

describe('npm run aggregates:rebuild', () => {
  async function rebuild(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    // The CLI's code bundled once per run (cli-bundle.ts), as the other CLI tests run theirs: npx's and tsx's start-up cost ~2 s of CPU a call.
    const bundle = await cliBundle('bin/rebuild-aggregates.ts');
    return new Promise((done) => {
      execFile(
        process.execPath,
        [bundle, ...args],
        {
          cwd: `${__dirname}/../..`,
          env: {
            ...process.env,
            DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
            TABLE_NAME: process.env.TABLE_NAME,
            AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          },
          timeout: 60000,
        },
        (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });
  }
  const errors = (stderr: string) => stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));

  it('rewrites what drifted and prints it, as JSON or text; refuses an unknown project and a missing --project', async () => {
    const settled = await counterItems(projectId);
    const key = Object.keys(settled).find((text) => text.startsWith('agg#contentSet#') && settled[text].sk === `y#${countedAt.getUTCFullYear()}`)!;
    const [pk, sk] = key.split(' ');
    await documentClient.send(
      new UpdateCommand({ TableName: settings.tableName, Key: { pk, sk }, UpdateExpression: 'ADD n :n', ExpressionAttributeValues: { ':n': 2 } }),
    );

    // `=`: a random id may begin with '-', which would read as an option.
    const json = await rebuild(`--project=${projectId}`, '--json');
    expect(errors(json.stderr)).toEqual([]);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({ projectId, dryRun: false, conflicts: [], rewritten: [{ pk, sk, action: 'set', countAfter: Number(settled[key].n) }] });

    const text = await rebuild(`--project=${projectId}`);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Rewrote\s+0 item\(s\)/);
    expect(text.stdout).toContain(`table "${settings.tableName}" at ${process.env.DYNAMODB_ENDPOINT}`);

    const unknown = await rebuild('--project', 'no-such-project');
    expect([unknown.code, errors(unknown.stderr)]).toEqual([1, [expect.stringContaining('No project with id "no-such-project"')]]);
    const usage = await rebuild();
    expect([usage.code, errors(usage.stderr)]).toEqual([2, ['aggregates:rebuild: --project <id> is required (see --help)']]);
    expect(countersOf(await counterItems(projectId), false)).toEqual(countersOf(settled, false));
  }, 180000);

  it('--markers also deletes the counted# markers of the layout before, in the whole table', async () => {
    const { code, stdout } = await rebuild(`--project=${projectId}`, '--markers', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout).markersDeleted).toBeGreaterThanOrEqual(30);
    const left = await documentClient.send(
      new ScanCommand({ TableName: settings.tableName, FilterExpression: 'begins_with(pk, :m)', ExpressionAttributeValues: { ':m': 'counted#' } }),
    );
    expect(left.Items).toEqual([]);
  }, 180000);
});
