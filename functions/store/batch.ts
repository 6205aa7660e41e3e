import { setTimeout as sleep } from 'node:timers/promises';
import { BatchGetCommand, BatchWriteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TableClient } from './dynamodb-clients';

export type ItemKey = Record<string, unknown>;

type QueryInput = ConstructorParameters<typeof QueryCommand>[0];

/**
 * Every page of a Query (after its ExclusiveStartKey, if any), items in order: for reads
 * whose keys bound their size (one entity's counter items, a watch list).
 */
export async function queryAll(store: TableClient, input: QueryInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start = input.ExclusiveStartKey;
  do {
    const page = await store.documentClient.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The table key of an ElectroDB `get` request, for the raw batch reads below. */
export const keyOf = (request: { params(): { Key?: Record<string, unknown> } }) => request.params().Key as ItemKey;

/** One raw item by its table key; `consistent` false halves the read's cost where staleness is harmless. */
export async function getRawItem(store: TableClient, key: ItemKey, { consistent = true } = {}): Promise<Record<string, unknown> | undefined> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: consistent }));
  return Item;
}

/**
 * How a batch request's unprocessed part is sent again: after a wait drawn at random between 0
 * and `baseMs` doubled per attempt, at most `capMs` ("full jitter", as the SDK's own retries
 * wait), `attempts` requests in all. DynamoDB leaves part of a batch unprocessed when the
 * table or a partition is at its throughput: sending it again at once would only meet the
 * same limit, and many callers doing so in step would keep meeting it.
 *
 * A small loop of its own: the SDK retries failed requests but not the unprocessed part of a
 * successful one, and its backoff helpers (@smithy/util-retry) are not among this package's
 * runtime dependencies, only theirs. `sleep` and `random` are there for the tests.
 */
export interface Backoff {
  attempts: number;
  baseMs: number;
  capMs: number;
  sleep?: (ms: number) => Promise<unknown>;
  random?: () => number;
}

/** At most ~3.5 s of waiting in all (~1.8 s on average) before a read gives up. */
export const UNPROCESSED_BACKOFF: Backoff = { attempts: 8, baseMs: 50, capMs: 1_000 };

/**
 * Sends `pending` with `send` (which answers what it left unprocessed) until nothing is left,
 * waiting per `backoff` between requests; throws once `backoff.attempts` requests left some.
 */
export async function sendUntilProcessed<T>(
  what: string,
  pending: T[],
  send: (pending: T[]) => Promise<T[]>,
  backoff: Backoff = UNPROCESSED_BACKOFF,
): Promise<void> {
  const { attempts, baseMs, capMs, sleep: wait = sleep, random = Math.random } = backoff;
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > 1) await wait(Math.floor(random() * Math.min(capMs, baseMs * 2 ** (attempt - 2))));
    pending = await send(pending);
    if (pending.length > 0 && attempt >= attempts) {
      throw new Error(`${what}: ${pending.length} left unprocessed after ${attempts} attempts (the table is at its throughput)`);
    }
  }
}

/**
 * Reads items of different entities in one strongly consistent BatchGetItem round trip
 * (ElectroDB batches only within one entity), the unprocessed keys again with backoff. Raw
 * items come back in key order, undefined when missing; parse them with the entity's `parse`.
 */
export async function getRawItems(
  store: TableClient,
  keys: ItemKey[],
  { consistent = true, backoff = UNPROCESSED_BACKOFF }: { consistent?: boolean; backoff?: Backoff } = {},
): Promise<(Record<string, unknown> | undefined)[]> {
  const found = new Map<string, Record<string, unknown>>();
  const id = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;
  await sendUntilProcessed(
    'BatchGetItem',
    keys,
    async (pending) => {
      const answer = await store.documentClient.send(
        new BatchGetCommand({ RequestItems: { [store.tableName]: { Keys: pending, ConsistentRead: consistent } } }),
      );
      for (const item of answer.Responses?.[store.tableName] ?? []) found.set(id(item), item);
      return (answer.UnprocessedKeys?.[store.tableName]?.Keys as ItemKey[] | undefined) ?? [];
    },
    backoff,
  );
  return keys.map((key) => found.get(id(key)));
}

/** BatchGetItem takes at most 100 keys; getRawItems in chunks of that size, in parallel. */
const BATCH_GET_LIMIT = 100;

export async function getRawItemsChunked(
  store: TableClient,
  keys: ItemKey[],
  options?: Parameters<typeof getRawItems>[2],
): Promise<(Record<string, unknown> | undefined)[]> {
  const chunks: ItemKey[][] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) chunks.push(keys.slice(start, start + BATCH_GET_LIMIT));
  return (await Promise.all(chunks.map((chunk) => getRawItems(store, chunk, options)))).flat();
}

/** BatchWriteItem takes at most 25 requests. */
export const BATCH_WRITE_LIMIT = 25;

/**
 * Puts items unconditionally, 25 to a BatchWriteItem, the chunks in parallel (for the few
 * hundred items of a stream batch), what is left unprocessed again with backoff: a round
 * trip per 25 items where PutItem would take one each, at the same write units.
 */
export async function putItemsBatched(store: TableClient, items: Record<string, unknown>[]): Promise<void> {
  const chunks: { PutRequest: { Item: Record<string, unknown> } }[][] = [];
  for (let start = 0; start < items.length; start += BATCH_WRITE_LIMIT) {
    chunks.push(items.slice(start, start + BATCH_WRITE_LIMIT).map((Item) => ({ PutRequest: { Item } })));
  }
  await Promise.all(
    chunks.map((chunk) =>
      sendUntilProcessed('BatchWriteItem', chunk, async (pending) => {
        const answer = await store.documentClient.send(new BatchWriteCommand({ RequestItems: { [store.tableName]: pending } }));
        return (answer.UnprocessedItems?.[store.tableName] as typeof chunk | undefined) ?? [];
      }),
    ),
  );
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

/** Reads of at least this many items when filtered: the filter drops some of what a read returns. */
const MIN_FILTERED_READ = 100;

/**
 * Up to `count` items of a Query, after the item whose keys are `start`: fewer when it ends,
 * or when a filtered one (with a FilterExpression) spends its budget (`budgetedRead`: then
 * `resume` holds the keys where it stopped). The lists of alerts, audit entries and
 * deliveries.
 */
export async function queryWithinBudget(
  store: TableClient,
  input: Omit<QueryInput, 'Limit' | 'ExclusiveStartKey'>,
  options: { start?: Record<string, unknown>; count: number },
): Promise<{ items: Record<string, unknown>[]; resume?: Record<string, unknown> }> {
  const read = await budgetedRead(
    options.count,
    input.FilterExpression ? MIN_FILTERED_READ : 1,
    async (limit: number, start: Record<string, unknown> | undefined) => {
      const page = await store.documentClient.send(new QueryCommand({ ...input, Limit: limit, ExclusiveStartKey: start }));
      return { items: page.Items ?? [], next: page.LastEvaluatedKey };
    },
    options.start,
  );
  return { ...read, items: read.items.slice(0, options.count) };
}
