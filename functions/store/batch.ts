import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableClient } from './dynamodb-clients';

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

/**
 * Items a filtered read examines at most (by the Limits it sends) before it answers with
 * what it found and where it stopped: a filter that matches sparsely (revoked responses,
 * failed deliveries) would otherwise read a whole partition within one request.
 */
export const FILTERED_READ_BUDGET = 5_000;

/**
 * Query pages until `count` items came back, the index ended, or `budget` is spent. The
 * first page asks for `count` (at least `minRead`, within the budget); later ones double, so a sparse filter
 * costs few round trips and a dense one reads little past `count`. `resume`: where a read
 * that spent its budget stopped (the last page's LastEvaluatedKey, in the caller's form).
 */
export async function budgetedRead<T, Position>(
  count: number,
  minRead: number,
  readPage: (limit: number, start: Position | undefined) => Promise<{ items: T[]; next?: Position }>,
  start?: Position,
  budget = FILTERED_READ_BUDGET,
): Promise<{ items: T[]; resume?: Position }> {
  const items: T[] = [];
  let position = start;
  let limit = Math.max(count, Math.min(minRead, budget));
  let examined = 0;
  for (;;) {
    const page = await readPage(limit, position);
    items.push(...page.items);
    examined += limit;
    position = page.next;
    if (items.length >= count || position === undefined) return { items };
    if (examined >= budget) return { items, resume: position };
    limit = Math.min(Math.max(2 * limit, count - items.length), budget - examined);
  }
}
