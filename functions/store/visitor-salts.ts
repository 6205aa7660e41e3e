/**
 * The daily secret salts of the visitor hash (domain/visitor-hash.ts), raw: one item per UTC
 * day in one small partition, `visitorsalt` / `<YYYY-MM-DD>`, holding 32 random bytes.
 *
 * A day's salt is created by the first anonymous response of the day that needs it, with a
 * conditional Put (two instances racing both read the winner's); the same write deletes
 * the salts of the days before yesterday (yesterday's may still serve a response of 23:59:59
 * in flight), and each salt carries a TTL at the end of the day after its own (at most 48
 * hours after its day began), which DynamoDB's TTL deletes should no response come.
 * Nothing else is stored with it, and no stream consumer reads this prefix.
 */
import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { conditionHolds } from './conditions';
import type { TableClient } from './dynamodb-clients';
import type { ItemKey } from './items';

const PARTITION = 'visitorsalt';
const DAY_MS = 86_400_000;

export const saltKey = (day: string): ItemKey => ({ pk: PARTITION, sk: day });

/** The salt item's TTL: the end of the day after its own, in epoch seconds. */
export function saltExpiry(day: string): number {
  return Math.floor((Date.parse(`${day}T00:00:00Z`) + 2 * DAY_MS) / 1000);
}

function saltOf(item: Record<string, unknown> | undefined): Buffer | undefined {
  const salt = item?.salt;
  return salt instanceof Uint8Array ? Buffer.from(salt) : undefined;
}

/** The day's salt, created when it does not exist yet (strongly consistent: every instance must agree on it). */
export async function daySalt(table: TableClient, day: string): Promise<Buffer> {
  const read = async () =>
    saltOf((await table.documentClient.send(new GetCommand({ TableName: table.tableName, Key: saltKey(day), ConsistentRead: true }))).Item);
  const stored = await read();
  if (stored) return stored;
  const salt = randomBytes(32);
  const created = await conditionHolds(
    table.documentClient.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...saltKey(day), salt, expiresAt: saltExpiry(day) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
  if (!created) {
    const winner = await read();
    if (!winner) throw new Error(`The visitor salt of ${day} was created and is gone`);
    return winner;
  }
  await deleteSaltsBefore(table, previousDay(day));
  return salt;
}

function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

/** Deletes every salt of a day before `day` (the partition holds a few items at most). */
async function deleteSaltsBefore(table: TableClient, day: string): Promise<void> {
  const { Items = [] } = await table.documentClient.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: 'pk = :pk AND sk < :day',
      ExpressionAttributeValues: { ':pk': PARTITION, ':day': day },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    }),
  );
  await Promise.all(Items.map((item) => table.documentClient.send(new DeleteCommand({ TableName: table.tableName, Key: { pk: item.pk, sk: item.sk } }))));
}
