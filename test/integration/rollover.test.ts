import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { BatchWriteCommand, PutCommand, ScanCommand, type BatchWriteCommandOutput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { ANONYMOUS } from '../../functions/api/auth';
import { localLambdaContext } from '../../local/lambda-context';
import { addContribution, emptyCounter, type Counter } from '../../functions/domain/aggregation';
import { addBuckets, bucketKey, ROLLING_PERIODS, rollingRule, type RollingPeriod } from '../../shared/periods';
import type { Contribution } from '../../functions/domain/schemas';
import { createResponse } from '../../functions/operations/response-collection';
import { editResponse, removeResponse } from '../../functions/operations/response-revocation';
import { counterFromItem, rollingSk } from '../../functions/store/counters';
import { getRawItems } from '../../functions/store/batch';
import { defaultStore } from '../../functions/store/entity-store';
import type { Store } from '../../functions/store/entities';
import { createTableInput } from '../../functions/store/table';
import { countStreamRecords } from '../../functions/stream/counting';
import { handler as rolloverHandler } from '../../functions/jobs/rollover-handler';
import { leavingBuckets, rollOver } from '../../functions/jobs/rollover';
import { createAccount, startTestApi, type AccountKeys, type TestApi, createContentSet } from '../support/api';

/**
 * The rollover job against counters made by the real stream consumer (DynamoDB Local's
 * stream, the consumer's real clock). Responses are created in the past (createResponse
 * with a chosen `now`) and counted today, so the consumer has put each in the windows it
 * is inside today; the job is then run for the days after today (`rollOver(store, later)`)
 * and every rolling item must equal the brute-force sum of the responses inside the
 * window ending that day.
 *
 * The tests do not depend on each other's order: each job run works on a copy of the
 * table as beforeAll left it (copyOfCounted), except the Lambda entry's (it runs on the
 * file's table, and only checks that nothing needs rewriting today).
 */

const DAY_MS = 24 * 3600 * 1000;
const PERIODS = ROLLING_PERIODS;
const { client, documentClient, settings, store } = defaultStore();

let api: TestApi;
let owner: AccountKeys;
let projectId: string;
/** The real clock when the responses were made; the consumer counted them with it. */
let today: Date;
const later = (days: number) => new Date(today.getTime() + days * DAY_MS);

interface Counted {
  contentSetId: string;
  contentItemId: string;
  createdAt: Date;
  contribution: Contribution;
}
/** Every active response, as the brute force counts them. */
let counted: Counted[] = [];
/** Every item of the file's table once the consumer counted the responses (end of beforeAll). */
let countedItems: Record<string, unknown>[] = [];
let copies = 0;
let entities: { entity: 'contentSet' | 'contentItem'; id: string; scope: { accountId: string; projectId: string; contentSetId: string } }[] = [];

function expected(responses: Counted[], entity: 'contentSet' | 'contentItem', id: string, period: RollingPeriod, now: Date): Counter {
  const { unit: granularity, length } = rollingRule(period);
  const last = bucketKey(granularity, now);
  const first = bucketKey(granularity, addBuckets(granularity, now, -(length - 1)));
  let counter = emptyCounter(0);
  for (const response of responses) {
    if ((entity === 'contentSet' ? response.contentSetId : response.contentItemId) !== id) continue;
    const key = bucketKey(granularity, response.createdAt);
    if (key >= first && key <= last) counter = addContribution(counter, response.contribution, 1);
  }
  return counter;
}

const round = (value: number) => Math.round(value * 1e9) / 1e9 || 0;

/** Counters without the noise of how they were added: non-zero options by index, rounded sums. */
function normal(counter: Counter) {
  return {
    count: counter.count,
    options: Object.fromEntries(counter.options.map((value, index) => [index, round(value)]).filter(([, value]) => value !== 0)),
    sentimentSum: round(counter.sentimentSum),
    sentimentCount: counter.sentimentCount,
    intensitySum: round(counter.intensitySum),
    intensityCount: counter.intensityCount,
    ratingSum: round(counter.ratingSum),
  };
}

async function rollingItems(target: Store): Promise<Map<string, Record<string, unknown> | undefined>> {
  const keys = entities.flatMap(({ entity, id }) => PERIODS.map((period) => ({ pk: `agg#${entity}#${id}`, sk: rollingSk(period) })));
  const items = await getRawItems(target, keys);
  return new Map(keys.map((key, index) => [`${key.pk} ${key.sk}`, items[index]]));
}

/** Every rolling item of `target` equals the brute-force sum of `responses` in its window ending at `now` (a missing item reads as zeros). */
async function expectRollingExact(target: Store, now: Date, responses: Counted[] = counted): Promise<void> {
  const items = await rollingItems(target);
  const actual: Record<string, unknown> = {};
  const wanted: Record<string, unknown> = {};
  for (const { entity, id } of entities) {
    for (const period of PERIODS) {
      const name = `${entity}#${id} ${period} @${bucketKey('day', now)}`;
      actual[name] = normal(counterFromItem(items.get(`agg#${entity}#${id} ${rollingSk(period)}`), 0));
      wanted[name] = normal(expected(responses, entity, id, period, now));
    }
  }
  expect(actual).toEqual(wanted);
}

/** The file's store on another table. Not createStore: an ElectroDB Service re-points the shared entities to its table. */
function storeOn(tableName: string, client: DynamoDBDocumentClient = documentClient): Store {
  return Object.assign(Object.create(store), { documentClient: client, tableName });
}

/**
 * A table of the test's own holding the items of the file's table as beforeAll left them.
 * Without a stream: nothing reads it, and DynamoDB Local makes each write to a table with a
 * stream pay for every stream record of the database.
 */
async function copyOfCounted(): Promise<Store> {
  const tableName = `${settings.tableName}_copy${++copies}`;
  await client.send(new CreateTableCommand({ ...createTableInput(tableName), StreamSpecification: undefined }));
  for (let start = 0; start < countedItems.length; start += 25) {
    let pending: Record<string, any>[] | undefined = countedItems.slice(start, start + 25).map((item) => ({ PutRequest: { Item: item } }));
    while (pending && pending.length > 0) {
      const answer: BatchWriteCommandOutput = await documentClient.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = answer.UnprocessedItems?.[tableName];
    }
  }
  return storeOn(tableName);
}

async function scanAll(tableName: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

async function createSet(schema: string) {
  return createContentSet(api, owner.admin, projectId, schema);
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('rollover');
  projectId = (await api.call('projects/create', [{ name: 'Rollover' }], { key: owner.admin })).body.id;
  const reactions = await createSet('reaction');
  const ratings = await createSet('rating');
  today = new Date();

  // Days ago that enter or leave rolling7d (6/7/8) and rolling28d (27/28/29) around today and the next weeks.
  const daysAgo = [0, 1, 3, 6, 7, 8, 13, 20, 27, 28, 29, 45];
  const reactionValues = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'];
  let n = 0;
  for (const days of daysAgo) {
    const when = new Date(today.getTime() - days * DAY_MS);
    for (const key of ['page-a', 'page-b', 'page-c']) {
      if ((days + key.charCodeAt(5)) % 3 === 0) continue;
      await createResponse(store, ANONYMOUS, { contentSetId: reactions, key, value: reactionValues[n++ % 8] }, { headers: {} }, when);
    }
    await createResponse(store, ANONYMOUS, { contentSetId: ratings, key: 'doc-1', value: 1 + (days % 5) }, { headers: {} }, when);
  }
  // Months: 11 months ago is inside rolling12m today and leaves it on the 1st of next month; 12 months ago is outside.
  for (const months of [11, 12, 5]) {
    const when = new Date(addBuckets('month', today, -months).getTime() + 12 * 3600 * 1000);
    await createResponse(store, ANONYMOUS, { contentSetId: reactions, key: 'page-a', value: 'heart' }, { headers: {} }, when);
    await createResponse(store, ANONYMOUS, { contentSetId: ratings, key: 'doc-2', value: 5 }, { headers: {} }, when);
  }
  // An edited response and a revoked one, 6 days ago.
  const sixDaysAgo = new Date(today.getTime() - 6 * DAY_MS);
  const edited = await createResponse(store, ANONYMOUS, { contentSetId: reactions, key: 'page-b', value: '-1', revokable: true }, { headers: {} }, sixDaysAgo);
  await editResponse(
    store,
    ANONYMOUS,
    { responseId: edited.responseId, revokeToken: edited.revokable!.token, value: 'rocket' },
    new Date(sixDaysAgo.getTime() + 1000),
  );
  const revoked = await createResponse(store, ANONYMOUS, { contentSetId: ratings, key: 'doc-1', value: 2, revokable: true }, { headers: {} }, sixDaysAgo);
  await removeResponse(store, ANONYMOUS, { responseId: revoked.responseId, revokeToken: revoked.revokable!.token }, new Date(sixDaysAgo.getTime() + 1000));
  await api.drainStream();

  const { data } = await store.entities.Response.query.byProject({ projectId }).go({ pages: 'all' });
  counted = data
    .filter((response) => response.state === 'active')
    .map((response) => ({ ...response, createdAt: new Date(response.createdAt), contribution: response.contribution as Contribution }));
  const seen = new Map<string, (typeof entities)[number]>();
  for (const response of data) {
    const scope = { accountId: response.accountId, projectId: response.projectId, contentSetId: response.contentSetId };
    seen.set(`s${response.contentSetId}`, { entity: 'contentSet', id: response.contentSetId, scope });
    seen.set(`i${response.contentItemId}`, { entity: 'contentItem', id: response.contentItemId, scope });
  }
  entities = [...seen.values()];
  countedItems = await scanAll(settings.tableName);
}, 120000);
afterAll(() => api.close());

describe('leavingBuckets', () => {
  it('names the days leaving rolling7d and rolling28d, and on the 1st the month leaving rolling12m', () => {
    expect(leavingBuckets(new Date('2026-03-18T00:05:00Z'))).toEqual([
      { granularity: 'day', key: '2026-03-11', periods: ['rolling7d'] },
      { granularity: 'day', key: '2026-02-18', periods: ['rolling28d'] },
    ]);
    expect(leavingBuckets(new Date('2026-03-01T00:05:00Z'))).toContainEqual({ granularity: 'month', key: '2025-03', periods: ['rolling12m'] });
    const backfill = leavingBuckets(new Date('2026-03-02T00:05:00Z'), 3);
    expect(backfill.map((bucket) => `${bucket.granularity} ${bucket.key} ${bucket.periods.join(',')}`).sort()).toEqual([
      'day 2026-01-31 rolling28d',
      'day 2026-02-01 rolling28d',
      'day 2026-02-02 rolling28d',
      'day 2026-02-21 rolling7d',
      'day 2026-02-22 rolling7d',
      'day 2026-02-23 rolling7d',
      'month 2025-03 rolling12m',
    ]);
    expect(() => leavingBuckets(new Date(), 0)).toThrow(RangeError);
  });
});

describe('rollOver', () => {
  it('finds the counters exact today, and the Lambda entry rewrites nothing', async () => {
    // The Lambda entry works on the table its environment names: the file's own.
    await expectRollingExact(store, new Date());
    const result = await rolloverHandler({ days: 1 }, localLambdaContext('rollover'));
    // Responses 7 and 28 days ago: their entities are recomputed, and are already exact.
    expect(result).toMatchObject({ written: 0, retries: 0 });
    expect(result.entities).toBeGreaterThan(0);
    expect(result.unchanged).toBeGreaterThan(0);
    await expectRollingExact(store, new Date());
  });

  it('loses no consumer update made between its read and its write: the write is refused and redone', async () => {
    // Tomorrow's run: 6 days ago leaves rolling7d, so those items are rewritten.
    const copy = await copyOfCounted();
    const now = later(1);
    let injected: Counted | undefined;
    const racing = new Proxy(copy.documentClient, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return async (command: unknown) => {
          if (!injected && command instanceof PutCommand && command.input.Item?.entity === 'contentItem') {
            const item = command.input.Item;
            injected = {
              contentSetId: String(item.contentSetId),
              contentItemId: String(item.entityId),
              createdAt: now,
              contribution: { option: 4, sentiment: 1, intensity: 0.9 },
            };
            // The consumer counts a new response on this very item after the job read it, before it writes.
            await countStreamRecords(copy, [insertRecord(String(item.accountId), String(item.projectId), injected)], now);
          }
          return target.send(command as never);
        };
      },
    }) as DynamoDBDocumentClient;
    const result = await rollOver(storeOn(copy.tableName, racing), now);
    expect(injected).toBeDefined();
    expect(result.retries).toBeGreaterThanOrEqual(1);
    await expectRollingExact(copy, now, [...counted, injected!]);
  });

  it('keeps every window exact as the days pass: daily runs, a backfill of ten missed days, daily again', async () => {
    const target = await copyOfCounted();
    let written = 0;
    for (let day = 1; day <= 10; day++) {
      written += (await rollOver(target, later(day))).written;
      await expectRollingExact(target, later(day));
    }
    expect(written).toBeGreaterThan(0);
    // The schedule missed days 11..19: day 20 catches up with { days: 10 }.
    const backfill = await rollOver(target, later(20), { days: 10 });
    expect(backfill.leaving.length).toBeGreaterThanOrEqual(20);
    await expectRollingExact(target, later(20));
    // Through day 33 there is always a 1st of a month: rolling12m drops the month 11 months back.
    for (let day = 21; day <= 33; day++) {
      await rollOver(target, later(day));
      await expectRollingExact(target, later(day));
    }
  }, 120000);

  // Two runs that each recompute every entity with a response in the 40 days before day 33.
  it('is idempotent: a second run writes nothing and changes no item', async () => {
    const target = await copyOfCounted();
    // A first run that catches up 40 days at once (every window has moved since today).
    const day = later(33);
    const first = await rollOver(target, day, { days: 40 });
    expect(first.written).toBeGreaterThan(0);
    await expectRollingExact(target, day);
    const before = await rollingItems(target);
    const again = await rollOver(target, day, { days: 40 });
    expect(again.written).toBe(0);
    expect(again.unchanged).toBeGreaterThan(0);
    expect(await rollingItems(target)).toEqual(before);
  }, 60000);
});

let insertSequence = 0;
/** A stream record of a new active response, as the consumer receives it. */
function insertRecord(accountId: string, projectId: string, response: Counted): DynamoDBRecord {
  insertSequence++;
  const id = `injected-${insertSequence}-${Math.random().toString(36).slice(2)}`;
  return {
    eventID: id,
    eventName: 'INSERT',
    dynamodb: {
      Keys: marshall({ pk: `response#${id}`, sk: 'response' }) as never,
      SequenceNumber: String(insertSequence),
      NewImage: marshall({
        pk: `response#${id}`,
        sk: 'response',
        id,
        accountId,
        projectId,
        contentSetId: response.contentSetId,
        contentItemId: response.contentItemId,
        state: 'active',
        contribution: response.contribution,
        createdAt: response.createdAt.toISOString(),
      }) as never,
    },
  };
}
