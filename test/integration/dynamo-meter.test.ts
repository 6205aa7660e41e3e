import { BatchGetItemCommand, GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient, createRawClient } from '../../functions/store/dynamodb-clients';
import { defaultStore } from '../../functions/store/entity-store';
import { ensureTable } from '../../functions/store/setup';
import { meterClient, type DynamoMeter } from '../../scripts/dynamo-meter';

/**
 * The benchmarks' meter on a real DynamoDB Local: reads that find nothing are estimated at
 * the minimum AWS bills (DynamoDB Local reports 0 for them), reads that find an item as
 * DynamoDB Local reports them.
 */

const { settings } = defaultStore();
const client = createDynamoClient(settings);
let meter: DynamoMeter;
const pk = `meter#${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  await ensureTable(client, settings.tableName);
  meter = meterClient(client);
  await client.send(new PutItemCommand({ TableName: settings.tableName, Item: { pk: { S: pk }, sk: { S: 'present' } } }));
});
afterAll(() => client.destroy());

async function estimatedRead(send: () => Promise<unknown>) {
  const before = meter.snapshot();
  await send();
  const spent = meter.since(before);
  return { reported: spent.capacity.read, estimated: spent.estimated.read };
}

const query = (partition: string, consistent: boolean) =>
  client.send(
    new QueryCommand({
      TableName: settings.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': { S: partition } },
      ConsistentRead: consistent,
    }),
  );

describe('dynamo-meter read estimates', () => {
  it('bills an empty Query the minimum of its kind, 0.5 eventually and 1 strongly consistent', async () => {
    expect((await estimatedRead(() => query(`${pk}-empty`, false))).estimated).toBe(0.5);
    expect((await estimatedRead(() => query(`${pk}-empty`, true))).estimated).toBe(1);
  });

  it('bills a GetItem of a missing item and each key of a BatchGetItem at least the minimum', async () => {
    const missing = { pk: { S: `${pk}-missing` }, sk: { S: 'absent' } };
    expect((await estimatedRead(() => client.send(new GetItemCommand({ TableName: settings.tableName, Key: missing, ConsistentRead: true })))).estimated).toBe(
      1,
    );
    const batch = await estimatedRead(() =>
      client.send(new BatchGetItemCommand({ RequestItems: { [settings.tableName]: { Keys: [missing, { pk: { S: `${pk}-other` }, sk: { S: 'absent' } }] } } })),
    );
    expect(batch.estimated).toBe(1);
  });

  it('takes what DynamoDB Local reports for a read that finds an item', async () => {
    const found = await estimatedRead(() => query(pk, true));
    expect(found.reported).toBe(1);
    expect(found.estimated).toBe(1);
  });
});

describe('dynamo-meter over two clients', () => {
  const put = (on: typeof client, sk: string) => on.send(new PutItemCommand({ TableName: settings.tableName, Item: { pk: { S: pk }, sk: { S: sk } } }));

  it('counts the requests of a bare client and a raw client (cached middleware) together', async () => {
    const bare = createDynamoClient(settings);
    const raw = createRawClient(settings);
    try {
      const both = meterClient(bare, raw);
      expect(meterClient(bare, raw)).toBe(both);
      const before = both.snapshot();
      await put(bare, 'bare');
      await put(raw, 'raw-1');
      await put(raw, 'raw-2');
      expect(both.since(before).commands).toEqual({ PutItemCommand: 3 });
      expect(() => meterClient(bare)).not.toThrow();
      expect(() => meterClient(raw, createDynamoClient(settings))).toThrow('not metered together');
    } finally {
      bare.destroy();
      raw.destroy();
    }
  });

  it('refuses a client with cached middleware that has sent a request: the meter would miss it', async () => {
    const raw = createRawClient(settings);
    try {
      await put(raw, 'unmetered');
      expect(() => meterClient(raw)).toThrow('before its first request');
    } finally {
      raw.destroy();
    }
  });
});
