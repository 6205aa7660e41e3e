import { execFile } from 'node:child_process';
import { DeleteCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ANONYMOUS } from '../../functions/api/auth';
import { createResponse } from '../../functions/operations/response-collection';
import { editResponse, removeResponse } from '../../functions/operations/response-revocation';
import { counterFromItem } from '../../functions/store/counters';
import { defaultStore } from '../../functions/store/entity-store';
import { rebuildProject } from '../../functions/jobs/rebuild';
import { createAccount, startTestApi, type AccountKeys, type TestApi, createContentSet } from '../support/api';
import { normalCounter } from '../support/counters';

/**
 * The rebuild against counters made by the real stream consumer (DynamoDB Local's stream):
 * a healthy project rebuilds to exactly what streaming made (nothing to write), a drifted
 * one is repaired to it, and the read operations answer as before the drift.
 *
 * Counter items are compared by their counters (count, o<i>, sums; timestamps and
 * version left out). Where the rebuild has written, items whose counters are all zero
 * are left out of the comparison: the rebuild sets a bogus item to zero rather than
 * deleting it, and zero reads as zero everywhere (getStats sums buckets, top skips counts
 * of 0). Where it has not written, the raw items are compared whole.
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

/** Every counter item of a project's entities (they all carry projectId), raw, by key. */
async function counterItems(project: string): Promise<Record<string, Record<string, unknown>>> {
  const items: Record<string, Record<string, unknown>> = {};
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: settings.tableName,
        FilterExpression: 'begins_with(pk, :agg) AND projectId = :project',
        ExpressionAttributeValues: { ':agg': 'agg#', ':project': project },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? []) items[`${String(item.pk)} ${String(item.sk)}`] = item;
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

const isZero = (counter: ReturnType<typeof normalCounter>) =>
  counter.count === 0 &&
  Object.keys(counter.options).length === 0 &&
  [counter.sentimentSum, counter.sentimentCount, counter.intensitySum, counter.intensityCount, counter.ratingSum].every((value) => value === 0);

/** Counters by item key; `withZeros: false` leaves out items whose counters are all zero. */
function countersOf(items: Record<string, Record<string, unknown>>, withZeros = true) {
  const result: Record<string, ReturnType<typeof normalCounter>> = {};
  for (const [key, item] of Object.entries(items)) {
    const counter = normalCounter(counterFromItem(item, 0));
    if (withZeros || !isZero(counter)) result[key] = counter;
  }
  return result;
}

/** Static attributes (ids, granularity, bucket, rank and retire keys) by item key. */
function staticOf(items: Record<string, Record<string, unknown>>) {
  const counterAttribute = /^(count|o\d+|sentimentSum|sentimentCount|intensitySum|intensityCount|ratingSum|createdAt|updatedAt|version)$/;
  return Object.fromEntries(
    Object.entries(items).map(([key, item]) => [key, Object.fromEntries(Object.entries(item).filter(([name]) => !counterAttribute.test(name)))]),
  );
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
  const ask = async (operation: string, args: unknown[]) => {
    const { status, body } = await api.call(operation, args, { key: owner.viewer });
    expect(status).toBe(200);
    answers[`${operation} ${JSON.stringify(args)}`] = strip(operation.endsWith('/top') ? byRank(body) : body);
  };
  for (const period of periods) {
    await ask('projects/getStats', [projectId, { period }]);
    for (const id of Object.values(sets)) await ask('sets/getStats', [id, { period }]);
    for (const id of itemIds) await ask('contents/getStats', [id, { period }]);
  }
  for (const period of ['week', 'month', 'year', 'rolling7d', 'rolling28d', 'rolling12m']) {
    await ask('contents/top', [{ projectId, period, $size: 50 }]);
    await ask('sets/top', [{ projectId, period, $size: 50 }]);
  }
  return answers;
}

let itemIds: string[] = [];
/**
 * When the stream had counted everything. Rolling windows move at 00:00 UTC, and a rebuild
 * computes them as of its `now`: the tests rebuild as of this instant, so a run that
 * crosses midnight still compares like with like.
 */
let countedAt: Date;
/** The counters the stream made (and that day's rollover, should setup have crossed midnight), before anything is rebuilt. */
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
    ...new Set(
      Object.values(streamed)
        .filter((item) => item.entity === 'contentItem')
        .map((item) => String(item.entityId)),
    ),
  ];
}, 180000);
afterAll(() => api.close());

describe('rebuildProject', () => {
  it('recomputes exactly the counters the stream made: nothing to write, zero items included', async () => {
    const zeroItems = Object.values(countersOf(streamed)).filter(isZero).length;
    expect(zeroItems).toBeGreaterThan(0);
    const result = await rebuildProject(store, projectId, countedAt);
    expect(result).toMatchObject({ projectId, dryRun: false, conflicts: [], rewritten: [] });
    expect(result.responses.total).toBeGreaterThan(result.responses.active);
    expect(result.items.rewritten).toBe(0);
    expect(result.items.unchanged).toBe(Object.keys(streamed).length);
    expect(result.items.recomputed).toBe(Object.keys(streamed).length - zeroItems);
    expect(await counterItems(projectId)).toEqual(streamed);
  });

  it('repairs drifted counters to what the stream made, and the read operations answer as before', async () => {
    const before = await readSide(itemIds);
    const other = await counterItems(otherProjectId);
    const keyOf = (text: string) => ({ pk: text.split(' ')[0], sk: text.split(' ')[1] });
    const find = (test: (item: Record<string, unknown>) => boolean) => Object.keys(streamed).find((key) => test(streamed[key]))!;
    // Counters with responses: drift on a counter whose true value is zero is repaired as 'zeroed', not 'set'.
    const lifetime = find((item) => item.entity === 'contentItem' && item.sk === 'lifetime' && Number(item.count) > 0);
    const dayBucket = find((item) => item.entity === 'contentSet' && item.granularity === 'day');
    const rolling = find((item) => item.entity === 'contentItem' && item.sk === 'rolling#rolling7d' && Number(item.count) > 0);
    const month = find((item) => item.entity === 'contentItem' && item.granularity === 'month' && Number(item.o1) > 0);
    const ranked = find((item) => item.entity === 'contentSet' && item.granularity === 'week');
    const projectYear = find((item) => item.entity === 'project' && item.granularity === 'year');
    // A lost update, a double count, a missed rollover, a lost option, a wrong rank key, a deleted bucket, a bogus bucket.
    await documentClient.send(
      new UpdateCommand({
        TableName: settings.tableName,
        Key: keyOf(lifetime),
        UpdateExpression: 'SET #count = :n',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':n': 999 },
      }),
    );
    await documentClient.send(
      new UpdateCommand({
        TableName: settings.tableName,
        Key: keyOf(rolling),
        UpdateExpression: 'ADD #count :n, o0 :n',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':n': 3 },
      }),
    );
    await documentClient.send(new UpdateCommand({ TableName: settings.tableName, Key: keyOf(month), UpdateExpression: 'REMOVE o1' }));
    await documentClient.send(
      new UpdateCommand({
        TableName: settings.tableName,
        Key: keyOf(ranked),
        UpdateExpression: 'SET rank2pk = :wrong',
        ExpressionAttributeValues: { ':wrong': 'project#elsewhere#contentSet#week#2000-01-03' },
      }),
    );
    await documentClient.send(
      new UpdateCommand({
        TableName: settings.tableName,
        Key: keyOf(projectYear),
        UpdateExpression: 'ADD ratingSum :n',
        ExpressionAttributeValues: { ':n': 7.5 },
      }),
    );
    await documentClient.send(new DeleteCommand({ TableName: settings.tableName, Key: keyOf(dayBucket) }));
    const bogus: Record<string, unknown> = { ...streamed[dayBucket], sk: 'day#1999-01-01', bucket: '1999-01-01', count: 5, o0: 5 };
    await documentClient.send(new PutCommand({ TableName: settings.tableName, Item: bogus }));

    const result = await rebuildProject(store, projectId, countedAt);
    expect(result.conflicts).toEqual([]);
    expect(result.rewritten.map((item) => `${item.pk} ${item.sk} ${item.action}`).sort()).toEqual(
      [
        `${lifetime} set`,
        `${rolling} set`,
        `${month} set`,
        `${ranked} set`,
        `${projectYear} set`,
        `${dayBucket} set`,
        `${String(bogus.pk)} ${String(bogus.sk)} zeroed`,
      ].sort(),
    );
    const repaired = await counterItems(projectId);
    expect(countersOf(repaired, false)).toEqual(countersOf(streamed, false));
    expect(countersOf(repaired)[`${String(bogus.pk)} ${String(bogus.sk)}`]).toEqual(normalCounter(counterFromItem(undefined, 0)));
    const { [`${String(bogus.pk)} ${String(bogus.sk)}`]: _bogus, ...repairedStatics } = staticOf(repaired);
    expect(repairedStatics).toEqual(staticOf(streamed));
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
    const key = Object.keys(streamed).find((text) => streamed[text].sk === 'lifetime' && streamed[text].entity === 'project')!;
    const [pk, sk] = key.split(' ');
    await documentClient.send(
      new UpdateCommand({
        TableName: settings.tableName,
        Key: { pk, sk },
        UpdateExpression: 'ADD #count :n',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':n': 1 },
      }),
    );
    const drifted = await counterItems(projectId);
    const dry = await rebuildProject(store, projectId, countedAt, { dryRun: true });
    expect(dry.rewritten).toEqual([{ pk, sk, action: 'set', countBefore: Number(streamed[key].count) + 1, countAfter: Number(streamed[key].count) }]);
    expect(await counterItems(projectId)).toEqual(drifted);
    await rebuildProject(store, projectId, countedAt);
    expect(countersOf(await counterItems(projectId), false)).toEqual(countersOf(streamed, false));
  });
});

describe('npm run aggregates:rebuild', () => {
  function rebuild(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((done) => {
      execFile(
        'npx',
        ['tsx', 'bin/rebuild-aggregates.ts', ...args],
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
    // The command rebuilds as of the real time; bring rolling windows to today first, as the 00:00 UTC rollover does.
    const settled = await counterItems(projectId);
    const key = Object.keys(settled).find((text) => settled[text].sk === 'lifetime' && settled[text].entity === 'contentSet')!;
    const [pk, sk] = key.split(' ');
    await documentClient.send(
      new UpdateCommand({
        TableName: settings.tableName,
        Key: { pk, sk },
        UpdateExpression: 'ADD #count :n',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':n': 2 },
      }),
    );

    // `=`: a random id may begin with '-', which would read as an option.
    const json = await rebuild(`--project=${projectId}`, '--json');
    expect(errors(json.stderr)).toEqual([]);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({ projectId, dryRun: false, conflicts: [], rewritten: [{ pk, sk, action: 'set', countAfter: Number(settled[key].count) }] });

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
});
