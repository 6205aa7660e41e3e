import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalStreamReader, type StreamReaderOptions } from '../../local/stream-reader';
import { defaultStore } from '../../functions/store/entity-store';
import { ensureTable } from '../../functions/store/setup';

/**
 * `npm start` keeps its place in DynamoDB Local's stream in a file next to the data: after a
 * restart the reader goes on after the last record the consumer accepted, so nothing is
 * handled twice or skipped; a batch the consumer refuses is read again; records the
 * consumer's filter passes over are never delivered, and the position moves past them.
 */
const { client, documentClient, settings } = defaultStore();
const folder = mkdtempSync(join(tmpdir(), 'stream-position-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function write(tableName: string, keys: string[]): Promise<void> {
  for (const key of keys) {
    await documentClient.send(new PutCommand({ TableName: tableName, Item: { pk: `position#${key}`, sk: 'test' } }));
  }
}

interface ReaderOptions {
  tableName: string;
  positionFile: string;
  /** Refuse the first batch (report its first record as failed). */
  refuseFirst?: boolean;
  accepts?: StreamReaderOptions['accepts'];
}

function reader(handled: DynamoDBRecord[], { tableName, positionFile, refuseFirst = false, accepts }: ReaderOptions) {
  let refused = !refuseFirst;
  return new LocalStreamReader({
    client,
    tableName,
    positionFile,
    accepts,
    handle: async (event) => {
      if (!refused) {
        refused = true;
        return { batchItemFailures: [{ itemIdentifier: event.Records[0].dynamodb!.SequenceNumber! }] };
      }
      handled.push(...event.Records);
      return { batchItemFailures: [] };
    },
  });
}

/** Reads until the stream has nothing more, then stops: what a run of `npm start` does before it is stopped. */
async function run(handled: DynamoDBRecord[], options: ReaderOptions): Promise<void> {
  const started = reader(handled, options);
  try {
    await started.drain();
  } finally {
    await started.stop();
  }
}

/** Every record of the table's stream so far, read from its start by a reader with no filter and no saved position. */
async function everyRecord(tableName: string): Promise<DynamoDBRecord[]> {
  const seen: DynamoDBRecord[] = [];
  await run(seen, { tableName, positionFile: join(folder, `every-${Math.random().toString(36).slice(2)}.json`) });
  return seen;
}

const keysOf = (records: DynamoDBRecord[]) => records.map((record) => record.dynamodb!.Keys!.pk.S);
const sequenceNumber = (record: DynamoDBRecord | undefined) => record?.dynamodb?.SequenceNumber;

/** The saved position: the table's current stream, and the last sequence number passed per shard. */
async function expectPosition(positionFile: string, tableName: string, last: string | undefined): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const saved = JSON.parse(readFileSync(positionFile, 'utf8'));
  expect(last).toBeDefined();
  // A fresh table's stream has one shard.
  expect(saved).toEqual({ streamArn: Table!.LatestStreamArn, shards: { [Object.keys(saved.shards)[0]]: last } });
}

it('resumes after the last accepted record across restarts, and re-reads a refused batch', async () => {
  const tableName = settings.tableName;
  const positionFile = join(folder, 'stream-position.json');
  await ensureTable(client, tableName);
  await write(tableName, ['before#0', 'before#1', 'before#2']);
  const first: DynamoDBRecord[] = [];
  const firstReader = reader(first, { tableName, positionFile, refuseFirst: true });
  await expect(firstReader.drain()).rejects.toThrow(/retrying/);
  // The refused batch moved nothing.
  expect(existsSync(positionFile)).toBe(false);
  await firstReader.drain();
  await firstReader.stop();
  expect(keysOf(first)).toEqual(['position#before#0', 'position#before#1', 'position#before#2']);
  await expectPosition(positionFile, tableName, sequenceNumber(first.at(-1)));

  await write(tableName, ['after#0', 'after#1']);
  const second: DynamoDBRecord[] = [];
  await run(second, { tableName, positionFile });
  expect(keysOf(second)).toEqual(['position#after#0', 'position#after#1']);
  await expectPosition(positionFile, tableName, sequenceNumber(second.at(-1)));
});

it('asks for a new iterator after a read fails (an expired one), and goes on after the saved position', async () => {
  const tableName = `${settings.tableName}_expired`;
  const positionFile = join(folder, 'expired-position.json');
  await ensureTable(client, tableName);
  await write(tableName, ['first#0']);
  const handled: DynamoDBRecord[] = [];
  const started = reader(handled, { tableName, positionFile });
  try {
    await started.drain();
    // The iterators it keeps between passes, made unusable as an expired one is.
    const cursors = (started as unknown as { cursors: Map<string, { iterator: string | undefined }> }).cursors;
    expect(cursors.size).toBe(1);
    for (const cursor of cursors.values()) cursor.iterator = 'an-expired-iterator';
    await write(tableName, ['second#0']);
    await expect(started.drain()).rejects.toThrow();
    await started.drain();
  } finally {
    await started.stop();
  }
  expect(keysOf(handled)).toEqual(['position#first#0', 'position#second#0']);
});

it('moves past the records its filter passes over, though the consumer never sees them', async () => {
  const tableName = `${settings.tableName}_filtered`;
  const positionFile = join(folder, 'filtered-position.json');
  const options = { tableName, positionFile, accepts: (record: DynamoDBRecord) => String(record.dynamodb?.Keys?.pk.S).startsWith('position#keep#') };
  await ensureTable(client, tableName);

  // Passed-over records between and after the accepted ones.
  await write(tableName, ['keep#0', 'skip#0', 'keep#1', 'skip#1', 'skip#2']);
  const first: DynamoDBRecord[] = [];
  await run(first, options);
  expect(keysOf(first)).toEqual(['position#keep#0', 'position#keep#1']);
  let every = await everyRecord(tableName);
  expect(keysOf(every)).toEqual(['keep#0', 'skip#0', 'keep#1', 'skip#1', 'skip#2'].map((key) => `position#${key}`));
  await expectPosition(positionFile, tableName, sequenceNumber(every.at(-1)));

  // A batch of passed-over records only: nothing delivered, and the position still moves.
  await write(tableName, ['skip#3', 'skip#4']);
  const second: DynamoDBRecord[] = [];
  await run(second, options);
  expect(second).toEqual([]);
  every = await everyRecord(tableName);
  expect(keysOf(every).slice(-2)).toEqual(['position#skip#3', 'position#skip#4']);
  await expectPosition(positionFile, tableName, sequenceNumber(every.at(-1)));

  // After a restart, exactly the new accepted record.
  await write(tableName, ['keep#2']);
  const third: DynamoDBRecord[] = [];
  await run(third, options);
  expect(keysOf(third)).toEqual(['position#keep#2']);
  await expectPosition(positionFile, tableName, sequenceNumber(third.at(-1)));
});

it('cuts a batch at the payload limit, as Lambda does at 6 MB, and delivers the rest next, each record once in order', async () => {
  const tableName = `${settings.tableName}_payload`;
  const positionFile = join(folder, 'payload-position.json');
  await ensureTable(client, tableName);
  const keys = Array.from({ length: 7 }, (_, index) => `cut#${index}`);
  await write(tableName, keys);
  const [one] = await everyRecord(tableName);
  const batches: DynamoDBRecord[][] = [];
  // Room for two of these records, not three.
  const limited = new LocalStreamReader({
    client,
    tableName,
    positionFile,
    batchSize: 100,
    payloadLimitBytes: Math.floor(JSON.stringify(one).length * 2.5),
    handle: async (event) => {
      batches.push(event.Records);
      return { batchItemFailures: [] };
    },
  });
  try {
    await limited.drain();
  } finally {
    await limited.stop();
  }
  expect(batches.map((batch) => batch.length)).toEqual([2, 2, 2, 1]);
  expect(keysOf(batches.flat())).toEqual(keys.map((key) => `position#${key}`));
  await expectPosition(positionFile, tableName, sequenceNumber(batches.flat().at(-1)));
});
