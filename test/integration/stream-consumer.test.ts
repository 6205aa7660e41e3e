import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { ANONYMOUS } from '../../functions/api/auth';
import { LocalStreamReader } from '../../local/stream-reader';
import { createResponse } from '../../functions/operations/response-collection';
import { editResponse } from '../../functions/operations/response-revocation';
import { itemCountersOf, watermarkName, WATERMARKS_KEPT, type ResponseChange } from '../../functions/store/counters';
import { defaultStore } from '../../functions/store/entity-store';
import type { Store } from '../../functions/store/entities';
import { createTableInput } from '../../functions/store/table';
import { countedChanges, countStreamRecords } from '../../functions/stream/counting';
import { eventsOf } from '../../functions/stream/events';
import { createAccount, startTestApi, type AccountKeys, type TestApi, createContentSet } from '../support/api';
import { normalCounter } from '../support/counters';

/**
 * At-least-once delivery, exactly-once counting: the real stream records of a workload
 * (read from DynamoDB Local's stream by a second reader that only records the batches it
 * gets) are fed to countStreamRecords on fresh tables in the ways Lambda may deliver them
 * (every batch twice, a replay of everything, bisected batches, retries after a failure,
 * a shard's records continued by a child shard) and must leave exactly the counters of
 * feeding them once. The workload includes an imported history (responses/import), whose
 * rows spread over many day items: a redelivered batch of them counts once too. What refuses a redelivered record is the item's watermark for its
 * shard (store/counters.ts): no marker items, no transactions.
 *
 * Counters are compared as numbers (total, and every hour or month) per item, leaving out
 * items whose counters are all zero: whether such an item exists depends on how records
 * were grouped into batches (a creation and its revocation in one batch net to nothing and
 * write nothing; in two they leave a zero item), and every reader reads zero either way.
 */

const DAY_MS = 24 * 3600 * 1000;
/** Rows of the workload imported by responses/import (a history over pages and days). */
const IMPORTED = 24;
/** Each feed is a few hundred updates on DynamoDB Local, which a busy machine makes slow. */
const FEED_TIMEOUT = 120000;
const { client, documentClient, settings, store } = defaultStore();

let api: TestApi;
let owner: AccountKeys;
/** The batches the recording reader got, as Lambda would get them (20 records at most). */
const batches: DynamoDBRecord[][] = [];
/** The shard they came from (DynamoDB Local's stream has one while the test runs). */
let shardId: string;
/** The clock of every feed: the day the live consumer counted the workload. */
let now: Date;
let tables = 0;

/**
 * A new table to feed records to. Without a stream: nothing reads these tables, and
 * DynamoDB Local makes every write to a table with a stream pay for all the stream records
 * of its database, which the feeds below would multiply.
 */
async function freshStore(documentClientOf: (real: DynamoDBDocumentClient) => DynamoDBDocumentClient = (real) => real): Promise<Store> {
  const tableName = `${settings.tableName}_feed${++tables}`;
  await client.send(new CreateTableCommand({ ...createTableInput(tableName), StreamSpecification: undefined }));
  return storeOn(tableName, documentClientOf(documentClient));
}

/** The file's store on another table or client. Not createStore: an ElectroDB Service re-points the shared entities to its table. */
function storeOn(tableName: string, client: DynamoDBDocumentClient = documentClient): Store {
  return Object.assign(Object.create(store), { documentClient: client, tableName });
}

async function feed(target: Store, records: DynamoDBRecord[], shard = shardId, at = now): Promise<void> {
  expect(await countStreamRecords(target, shard, records, at)).toEqual({ batchItemFailures: [] });
}

async function scan(tableName: string, prefix: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'begins_with(pk, :prefix)',
        ExpressionAttributeValues: { ':prefix': prefix },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

const isZero = (counter: ReturnType<typeof normalCounter>) =>
  counter.count === 0 &&
  Object.keys(counter.options).length === 0 &&
  [counter.sentimentSum, counter.sentimentCount, counter.intensitySum, counter.intensityCount, counter.ratingSum].every((value) => value === 0);

/** Non-zero counters (item totals, hours, months), by item key and part: what a reader can tell apart. */
async function counters(target: Store) {
  const result: Record<string, ReturnType<typeof normalCounter>> = {};
  for (const item of await scan(target.tableName, 'agg#')) {
    const { total, parts } = itemCountersOf(item);
    for (const [part, counter] of [['total', total], ...Object.entries(parts)] as const) {
      const normal = normalCounter(counter);
      if (!isZero(normal)) result[`${String(item.pk)} ${String(item.sk)} ${part}`] = normal;
    }
  }
  return result;
}

/** The layout before counted with one marker item per record; nothing writes them any more. */
const markers = async (target: Store) => (await scan(target.tableName, 'counted#')).length;
const watermarksOf = (item: Record<string, unknown>) => Object.keys(item).filter((name) => /^w[0-9a-f]{8}$/.test(name));

let reference: { counters: Awaited<ReturnType<typeof counters>> };
let changes: ResponseChange[];

async function createSet(projectId: string, schema: string) {
  return createContentSet(api, owner.admin, projectId, schema);
}

beforeAll(async () => {
  api = await startTestApi();
  const recorder = new LocalStreamReader({
    client,
    tableName: settings.tableName,
    batchSize: 20,
    tumblingWindowSeconds: 900,
    handle: async (event) => {
      batches.push(event.Records);
      shardId = event.shardId!;
      return { batchItemFailures: [] };
    },
  });
  try {
    owner = await createAccount('stream');
    const projectId = (await api.call('projects/create', [{ name: 'Stream' }], { key: owner.admin })).body.id;
    const reactions = await createSet(projectId, 'reaction');
    const yesNo = await createSet(projectId, 'yes-no');
    const ratings = await createSet(projectId, 'rating');

    // Today, through the API: creations on a few keys, then edits and removals.
    const revokable: { responseId: string; revokable: { token: string } }[] = [];
    const values: [string, string, unknown][] = [];
    for (let index = 0; index < 18; index++) {
      const [set, value] = [
        [reactions, ['+1', 'heart', 'rocket', 'eyes', 'confused'][index % 5]],
        [yesNo, index % 4 === 0 ? 'no' : 'yes'],
        [ratings, 1 + (index % 5)],
      ][index % 3] as [string, unknown];
      values.push([set, `page-${index % 5}`, value]);
    }
    for (const [contentSetId, key, value] of values) {
      const { status, body } = await api.call('responses/create', [{ contentSetId, key, value, revokable: true }]);
      expect(status).toBe(200);
      revokable.push(body);
    }
    for (const [index, response] of revokable.slice(0, 6).entries()) {
      const [set, , original] = values[index];
      // Always a different value, so every edit changes what is counted.
      const value = set === reactions ? 'hooray' : set === yesNo ? (original === 'yes' ? 'no' : 'yes') : original === 3 ? 4 : 3;
      expect((await api.call('responses/edit', [{ responseId: response.responseId, revokeToken: response.revokable.token, value }])).status).toBe(200);
    }
    for (const response of revokable.slice(4, 8)) {
      expect((await api.call('responses/remove', [{ responseId: response.responseId, revokeToken: response.revokable.token }])).status).toBe(204);
    }
    // Earlier days, written as the service would have then: counted in other buckets and windows.
    for (const days of [2, 9, 400]) {
      const when = new Date(Date.now() - days * DAY_MS);
      await createResponse(store, ANONYMOUS, { contentSetId: reactions, key: 'page-old', value: 'laugh' }, { headers: {} }, when);
      const edited = await createResponse(store, ANONYMOUS, { contentSetId: ratings, key: 'page-old', value: 2, revokable: true }, { headers: {} }, when);
      await editResponse(store, ANONYMOUS, { responseId: edited.responseId, revokeToken: edited.revokable!.token, value: 4 }, new Date(when.getTime() + 1000));
    }
    // A history imported by responses/import: rows over pages and days, none of them screened.
    const history = Array.from({ length: IMPORTED }, (_, index) => ({
      key: `page-history-${index % 3}`,
      value: index % 4 === 0 ? 'no' : 'yes',
      createdAt: new Date(Date.now() - (20 + (index % 8)) * DAY_MS - (index % 5) * 3600_000).toISOString(),
      importId: `history-${index}`,
    }));
    const imported = await api.call('responses/import', [yesNo, history], { key: owner.admin });
    expect(imported.body.rows.map((row: { status: string }) => row.status)).toEqual(history.map(() => 'imported'));
    await api.drainStream();
    await recorder.drain();
  } finally {
    await recorder.stop();
  }
  now = new Date();
  changes = countedChanges(batches.flat().flatMap(eventsOf));

  const once = await freshStore();
  for (const batch of batches) await feed(once, batch);
  reference = { counters: await counters(once) };
}, 180000);
afterAll(() => api.close());

describe('the captured workload', () => {
  it('holds creations, edits and revocations among records of other items, in several batches', () => {
    expect(batches.length).toBeGreaterThan(5);
    expect(changes.filter((change) => change.added && !change.removed)).toHaveLength(18 + 6 + IMPORTED);
    const importedCreations = batches
      .flat()
      .flatMap(eventsOf)
      .filter((event) => event.type === 'response.created' && event.after.importId !== undefined);
    expect(importedCreations).toHaveLength(IMPORTED);
    expect(changes.filter((change) => change.added && change.removed)).toHaveLength(6 + 3);
    expect(changes.filter((change) => !change.added && change.removed)).toHaveLength(4);
    expect(batches.flat().length).toBeGreaterThan(changes.length);
    expect(shardId).toEqual(expect.any(String));
  });

  it('fed once gives the counters the live consumer made', async () => {
    expect(await counters(store)).toEqual(reference.counters);
  });
});

describe('redelivery counts nothing twice', () => {
  it(
    'every batch delivered twice',
    async () => {
      const twice = await freshStore();
      for (const batch of batches) {
        await feed(twice, batch);
        await feed(twice, batch);
      }
      expect(await counters(twice)).toEqual(reference.counters);
      expect(await markers(twice)).toBe(0);
    },
    FEED_TIMEOUT,
  );

  it(
    'the whole sequence replayed',
    async () => {
      const replayed = await freshStore();
      for (const batch of batches) await feed(replayed, batch);
      for (const batch of batches) await feed(replayed, batch);
      expect(await counters(replayed)).toEqual(reference.counters);
    },
    FEED_TIMEOUT,
  );

  it(
    'bisected batches: part of a batch counted, then its halves, then the whole batch again',
    async () => {
      const bisected = await freshStore();
      for (const [index, batch] of batches.entries()) {
        const half = Math.ceil(batch.length / 2);
        await feed(bisected, batch.slice(0, index % half));
        await feed(bisected, batch.slice(0, half));
        await feed(bisected, batch.slice(half));
        await feed(bisected, batch);
      }
      expect(await counters(bisected)).toEqual(reference.counters);
    },
    FEED_TIMEOUT,
  );

  it(
    'a replay from the start after the records moved on to a child shard',
    async () => {
      const split = await freshStore();
      const half = Math.ceil(batches.length / 2);
      // The parent shard's records, then the child's: Lambda finishes a parent before its children.
      for (const batch of batches.slice(0, half)) await feed(split, batch, 'parent');
      for (const batch of batches.slice(half)) await feed(split, batch, 'child');
      for (const batch of batches.slice(0, half)) await feed(split, batch, 'parent');
      for (const batch of batches.slice(half)) await feed(split, batch, 'child');
      expect(await counters(split)).toEqual(reference.counters);
    },
    FEED_TIMEOUT,
  );

  it(
    'everything as one batch',
    async () => {
      const merged = await freshStore();
      await feed(merged, batches.flat());
      expect(await counters(merged)).toEqual(reference.counters);
    },
    FEED_TIMEOUT,
  );
});

describe('a failure in the middle of a batch', () => {
  /** A document client whose `failing`-th counter update fails: before it is sent, or after it was applied (the answer lost). */
  function failingOn(failing: number, when: 'before' | 'after') {
    let updates = 0;
    return (real: DynamoDBDocumentClient) =>
      new Proxy(real, {
        get(target, property, receiver) {
          if (property !== 'send') return Reflect.get(target, property, receiver);
          return async (command: unknown) => {
            if (command instanceof UpdateCommand && ++updates === failing) {
              if (when === 'before') throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
              await target.send(command);
              throw Object.assign(new Error('the answer was lost'), { name: 'TimeoutError' });
            }
            return target.send(command as never);
          };
        },
      }) as DynamoDBDocumentClient;
  }

  const all = () => batches.flat();

  it(
    'reports the first record of the batch; redelivery counts exactly what was not applied',
    async () => {
      const failing = await freshStore(failingOn(7, 'before'));
      const result = await countStreamRecords(failing, shardId, all(), now);
      expect(result.batchItemFailures).toEqual([{ itemIdentifier: all()[0].dynamodb!.SequenceNumber }]);
      // The other items were updated, the failed one not.
      expect(await counters(failing)).not.toEqual(reference.counters);

      const healthy = storeOn(failing.tableName);
      await feed(healthy, all());
      expect(await counters(healthy)).toEqual(reference.counters);
    },
    FEED_TIMEOUT,
  );

  it(
    'an update that was applied but whose answer was lost is not counted again on redelivery',
    async () => {
      const lost = await freshStore(failingOn(3, 'after'));
      const result = await countStreamRecords(lost, shardId, all(), now);
      expect(result.batchItemFailures).toEqual([{ itemIdentifier: all()[0].dynamodb!.SequenceNumber }]);
      expect(await counters(lost)).toEqual(reference.counters);

      const healthy = storeOn(lost.tableName);
      await feed(healthy, all());
      // And the batch's second half once more, as a bisected retry would deliver it.
      await feed(healthy, all().slice(Math.floor(all().length / 2)));
      expect(await counters(healthy)).toEqual(reference.counters);
    },
    FEED_TIMEOUT,
  );
});

describe('watermarks', () => {
  it(
    'an item keeps at most a few: those of shards older than 25 hours are pruned when it is next updated',
    async () => {
      const pruned = await freshStore();
      const longAgo = new Date(now.getTime() - 30 * 3600 * 1000);
      // Each record up to the last batch that counts a response of today from a shard of its
      // own, a day and more ago; the rest from one shard now. Today's project items carried one
      // watermark per old record that counts in them.
      const today = now.toISOString().slice(0, 10);
      const countsToday = (batch: DynamoDBRecord[]) =>
        countedChanges(batch.flatMap(eventsOf)).some((change) => change.createdAt.toISOString().startsWith(today));
      const last = batches.findLastIndex(countsToday);
      for (const [index, record] of batches.slice(0, last).flat().entries()) await feed(pruned, [record], `old-shard-${index}`, longAgo);
      const crowded = (await scan(pruned.tableName, 'agg#')).filter((item) => watermarksOf(item).length > WATERMARKS_KEPT);
      expect(crowded.length).toBeGreaterThan(0);
      for (const batch of batches.slice(last)) await feed(pruned, batch, 'current-shard');
      const current = watermarkName('current-shard');
      const after = new Map((await scan(pruned.tableName, 'agg#')).map((item) => [`${String(item.pk)} ${String(item.sk)}`, item]));
      const updated = crowded.map((item) => after.get(`${String(item.pk)} ${String(item.sk)}`)!).filter((item) => item[current] !== undefined);
      expect(updated.length).toBeGreaterThan(0);
      for (const item of updated) expect(watermarksOf(item)).toEqual([current]);
      expect(await counters(pruned)).toEqual(reference.counters);
    },
    FEED_TIMEOUT,
  );
});
