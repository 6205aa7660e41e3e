import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableClient } from './dynamo';

export type ItemKey = Record<string, unknown>;

/** The table key of an ElectroDB `get` request, for the raw batch reads below. */
export const keyOf = (request: { params(): { Key?: Record<string, unknown> } }) => request.params().Key as ItemKey;

/** One raw item by its table key; `consistent` false halves the read's cost where staleness is harmless. */
export async function getRawItem(store: TableClient, key: ItemKey, { consistent = true } = {}): Promise<Record<string, unknown> | undefined> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: consistent }));
  return Item;
}

/**
 * Reads items of different entities in one strongly consistent BatchGetItem round trip
 * (ElectroDB batches only within one entity). Raw items come back in key order, undefined
 * when missing; parse them with the entity's `parse`.
 */
export async function getRawItems(store: TableClient, keys: ItemKey[]): Promise<(Record<string, unknown> | undefined)[]> {
  const found = new Map<string, Record<string, unknown>>();
  const id = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;
  let pending = keys;
  while (pending.length > 0) {
    const answer = await store.documentClient.send(new BatchGetCommand({ RequestItems: { [store.tableName]: { Keys: pending, ConsistentRead: true } } }));
    for (const item of answer.Responses?.[store.tableName] ?? []) found.set(id(item), item);
    pending = (answer.UnprocessedKeys?.[store.tableName]?.Keys as ItemKey[] | undefined) ?? [];
  }
  return keys.map((key) => found.get(id(key)));
}

/** BatchGetItem takes at most 100 keys; getRawItems in chunks of that size, in parallel. */
const BATCH_GET_LIMIT = 100;

export async function getRawItemsChunked(store: TableClient, keys: ItemKey[]): Promise<(Record<string, unknown> | undefined)[]> {
  const chunks: ItemKey[][] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) chunks.push(keys.slice(start, start + BATCH_GET_LIMIT));
  return (await Promise.all(chunks.map((chunk) => getRawItems(store, chunk)))).flat();
}
