import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalStreamReader } from '../../functions/local/stream-reader';
import { defaultStore } from '../../functions/store/client';
import { ensureTable } from '../../functions/store/setup';

/**
 * `npm start` keeps its place in DynamoDB Local's stream in a file next to the data: after a
 * restart the reader goes on after the last record the consumer accepted, so nothing is
 * handled twice or skipped; a batch the consumer refuses is read again.
 */
const { client, documentClient, settings } = defaultStore();
const folder = mkdtempSync(join(tmpdir(), 'stream-position-'));
const positionFile = join(folder, 'stream-position.json');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function write(count: number, tag: string): Promise<void> {
  for (let index = 0; index < count; index++) {
    await documentClient.send(new PutCommand({ TableName: settings.tableName, Item: { pk: `position#${tag}#${index}`, sk: 'test' } }));
  }
}

function reader(handled: DynamoDBRecord[], refuseFirst = false) {
  let refused = !refuseFirst;
  return new LocalStreamReader({
    client,
    tableName: settings.tableName,
    positionFile,
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

const keysOf = (records: DynamoDBRecord[]) => records.map((record) => record.dynamodb!.Keys!.pk.S);

it('resumes after the last accepted record across restarts, and re-reads a refused batch', async () => {
  await ensureTable(client, settings.tableName);
  await write(3, 'before');
  const first: DynamoDBRecord[] = [];
  const firstReader = reader(first, true);
  await expect(firstReader.drain()).rejects.toThrow(/retrying/);
  await firstReader.drain();
  await firstReader.stop();
  expect(keysOf(first)).toEqual(['position#before#0', 'position#before#1', 'position#before#2']);
  expect(JSON.parse(readFileSync(positionFile, 'utf8')).shards).not.toEqual({});

  await write(2, 'after');
  const second: DynamoDBRecord[] = [];
  const restarted = reader(second);
  await restarted.drain();
  await restarted.stop();
  expect(keysOf(second)).toEqual(['position#after#0', 'position#after#1']);
});
