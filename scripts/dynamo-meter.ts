/**
 * What the benchmarks count on a DynamoDB client: an AWS SDK middleware that the benchmark
 * adds to the very client it measures (production code carries no counter).
 *
 * - requests: HTTP requests sent to DynamoDB (round trips), counted in the finalizeRequest
 *   step, so a retried request counts once per attempt;
 * - capacity: the consumed capacity DynamoDB reports, summed. The meter asks for it
 *   (`ReturnConsumedCapacity: INDEXES`) on every command that takes the parameter, so the
 *   figures include the table and each global secondary index (DynamoDB Local reports it);
 * - transactions: TransactWriteItems requests and their Put / Update / ConditionCheck items.
 * - estimated: capacity by AWS's published rules. DynamoDB Local reports reads and
 *   single-item writes by those rules, but not transactions (a transaction of two 1 KB
 *   Puts reports what one does, 4 WCU); so for TransactWriteItems the meter computes the
 *   units from the request itself (transactionWriteUnits below) and uses DynamoDB Local's
 *   figures for everything else, except reads that find nothing, which it reports as 0
 *   and AWS bills at the minimum (minimumReadUnits below).
 *
 * Read a difference of two `snapshot()`s around the work measured.
 */
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TABLE_KEYS } from '../functions/store/table';

export interface Capacity {
  /** Total capacity units (read + write, table + indexes). */
  total: number;
  read: number;
  write: number;
  /** Of `total`: units charged to the table itself and to its global secondary indexes. */
  table: number;
  indexes: number;
}

export interface MeterSnapshot {
  requests: number;
  /** As DynamoDB Local reports it. */
  capacity: Capacity;
  /** By the published rules: DynamoDB Local's figures, except TransactWriteItems computed from the request. */
  estimated: Capacity;
  transactions: number;
  transactionItems: { put: number; update: number; delete: number; conditionCheck: number };
  /** Requests per command name, e.g. `TransactWriteItemsCommand`. */
  commands: Record<string, number>;
}

/** Commands whose input takes ReturnConsumedCapacity. */
const CAPACITY_COMMANDS = new Set([
  'GetItemCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'BatchWriteItemCommand',
  'TransactGetItemsCommand',
  'TransactWriteItemsCommand',
]);

interface ConsumedCapacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
  LocalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

function emptySnapshot(): MeterSnapshot {
  return {
    requests: 0,
    capacity: { total: 0, read: 0, write: 0, table: 0, indexes: 0 },
    estimated: { total: 0, read: 0, write: 0, table: 0, indexes: 0 },
    transactions: 0,
    transactionItems: { put: 0, update: 0, delete: 0, conditionCheck: 0 },
    commands: {},
  };
}

/** DynamoDB's item size: attribute names plus values (strings and binaries by their bytes, numbers about 1 byte per 2 digits + 1). */
export function itemBytes(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value), 0);
}

function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^-|\.|e.*$/gi, '').replace(/^0+/, '').length / 2) + 1;
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((sum, entry) => sum + Buffer.byteLength(entry), 0);
  if (value.NS) return value.NS.reduce((sum, entry) => sum + valueBytes({ N: entry }), 0);
  if (value.L) return 3 + value.L.reduce((sum, entry) => sum + 1 + valueBytes(entry), 0);
  if (value.M) return 3 + Object.entries(value.M).reduce((sum, [name, entry]) => sum + 1 + Buffer.byteLength(name) + valueBytes(entry), 0);
  return 0;
}

const KB = 1024;
const indexKeys = TABLE_KEYS.globalIndexes.map((index) => [index.partitionKey, index.sortKey] as const);

/**
 * Write units of one TransactWriteItems by the published rules: every item of the
 * transaction costs 2 WCU per KB (prepare and commit); a ConditionCheck is counted as such
 * an item too (assumed: AWS documents transactional writes at 2 WCU per KB per item and
 * does not exempt checks); a Put costs 1 WCU per KB in each global secondary index whose
 * keys it holds, an Update as updateIndexUnits says. Items that are updated or checked
 * are taken to be at most 1 KB (projects, sets, content items, responses, counters and
 * markers are: the benchmark reports the sizes it saw).
 */
export function transactionWriteUnits(items: TransactItemInput[]): { table: number; indexes: number } {
  let table = 0;
  let indexes = 0;
  for (const item of items) {
    if (item.Put) {
      const units = Math.max(1, Math.ceil(itemBytes(item.Put.Item) / KB));
      table += 2 * units;
      indexes += indexKeys.filter(([pk, sk]) => item.Put!.Item[pk] !== undefined && item.Put!.Item[sk] !== undefined).length * units;
    } else if (item.Update) {
      table += 2;
      indexes += updateIndexUnits(item.Update);
    } else {
      table += 2;
    }
  }
  return { table, indexes };
}

/**
 * Index writes of an Update, from the table's key design: an item is in an index when the
 * update names the index's partition key (counters re-set theirs) or, for responses, in
 * gsi1-3 (responses always are). Its entry moves (delete + put, 2 WCU) when the update
 * names the index's sort key (a counter's `count`), is rewritten (1 WCU) in an index that
 * projects all attributes, and is unchanged in a keys-only index.
 */
function updateIndexUnits(update: NonNullable<TransactItemInput['Update']>): number {
  const names = new Set(Object.values(update.ExpressionAttributeNames ?? {}));
  const isResponse = update.Key?.pk?.S?.startsWith('response#') ?? false;
  let units = 0;
  for (const index of TABLE_KEYS.globalIndexes) {
    const member = names.has(index.partitionKey) || (isResponse && /^gsi[123]$/.test(index.indexName));
    if (!member) continue;
    if (index.sortKey !== TABLE_KEYS.sortKey && names.has(index.sortKey)) units += 2;
    else if (index.projection === 'ALL') units += 1;
  }
  return units;
}

interface TransactItemInput {
  Put?: { Item: Record<string, AttributeValue> };
  Update?: { Key?: Record<string, { S?: string }>; ExpressionAttributeNames?: Record<string, string> };
  Delete?: unknown;
  ConditionCheck?: unknown;
}

const WRITE_COMMANDS = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems)Command$/;

/**
 * The least a read request is billed, by the published rules: a GetItem, Query or Scan that
 * finds nothing still consumes the minimum of its kind (1 RRU strongly consistent, 0.5
 * eventually), and a BatchGetItem that much per key (each key is read as a GetItem).
 * DynamoDB Local reports 0 for such reads, so the estimate takes the larger of the two.
 */
export function minimumReadUnits(command: string, input: Record<string, unknown>): number {
  const unit = (consistent: unknown) => (consistent === true ? 1 : 0.5);
  if (command === 'GetItemCommand' || command === 'QueryCommand' || command === 'ScanCommand') return unit(input.ConsistentRead);
  if (command === 'BatchGetItemCommand') {
    return Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: unknown[]; ConsistentRead?: boolean }>).reduce(
      (sum, request) => sum + (request.Keys?.length ?? 0) * unit(request.ConsistentRead),
      0,
    );
  }
  return 0;
}

/**
 * Write units per partition key, of the table (`table`) and of each global secondary index
 * (by name), from the requests themselves by the published rules: a Put costs 1 WCU per KB
 * of the item on its table partition (2 in a transaction) and 1 per KB on the partition of
 * each index whose keys it holds (indexes project all attributes: the entry is the item's
 * size); an Update, Delete or ConditionCheck costs 1 (2 in a transaction) on the partition
 * of its key, its items taken to be at most 1 KB like transactionWriteUnits' (their index
 * entries are not known from the request and are not counted: the write path's are Puts).
 */
export type PartitionWrites = Record<string, Record<string, number>>;

function addPartitionWrites(target: PartitionWrites, command: string, input: Record<string, unknown>): void {
  const add = (index: string, partition: string | undefined, units: number) => {
    if (partition === undefined) return;
    target[index] ??= {};
    target[index][partition] = (target[index][partition] ?? 0) + units;
  };
  const put = (item: Record<string, AttributeValue>, factor: number) => {
    const units = Math.max(1, Math.ceil(itemBytes(item) / KB));
    add('table', item[TABLE_KEYS.partitionKey]?.S, factor * units);
    for (const index of TABLE_KEYS.globalIndexes) {
      if (item[index.partitionKey] !== undefined && item[index.sortKey] !== undefined) add(index.indexName, item[index.partitionKey].S, units);
    }
  };
  const keyed = (key: Record<string, AttributeValue> | undefined, factor: number) => add('table', key?.[TABLE_KEYS.partitionKey]?.S, factor);
  if (command === 'PutItemCommand') put(input.Item as Record<string, AttributeValue>, 1);
  else if (command === 'UpdateItemCommand' || command === 'DeleteItemCommand') keyed(input.Key as Record<string, AttributeValue>, 1);
  else if (command === 'TransactWriteItemsCommand') {
    for (const item of input.TransactItems as Record<string, { Item?: Record<string, AttributeValue>; Key?: Record<string, AttributeValue> }>[]) {
      if (item.Put) put(item.Put.Item!, 2);
      else keyed((item.Update ?? item.Delete ?? item.ConditionCheck)?.Key, 2);
    }
  } else if (command === 'BatchWriteItemCommand') {
    for (const requests of Object.values(
      input.RequestItems as Record<
        string,
        { PutRequest?: { Item: Record<string, AttributeValue> }; DeleteRequest?: { Key: Record<string, AttributeValue> } }[]
      >,
    )) {
      for (const request of requests) {
        if (request.PutRequest) put(request.PutRequest.Item, 1);
        else keyed(request.DeleteRequest?.Key, 1);
      }
    }
  }
}

/** The largest units any one partition key took, per table or index. */
export function hottestPartitions(writes: PartitionWrites): Record<string, { partition: string; units: number }> {
  return Object.fromEntries(
    Object.entries(writes).map(([index, partitions]) => {
      const [partition, units] = Object.entries(partitions).reduce((hottest, entry) => (entry[1] > hottest[1] ? entry : hottest));
      return [index, { partition, units }];
    }),
  );
}

export interface DynamoMeter {
  /** The last requests sent (command name and input as sent, AttributeValue form), newest last. */
  readonly recent: { command: string; input: Record<string, unknown> }[];
  /** Starts recording write units per partition key (PartitionWrites); `stop` answers them. */
  recordPartitions(): { stop(): PartitionWrites };
  snapshot(): MeterSnapshot;
  /** What happened between `before` (a snapshot) and now. */
  since(before: MeterSnapshot): MeterSnapshot;
}

function difference(now: Capacity, before: Capacity): Capacity {
  return {
    total: now.total - before.total,
    read: now.read - before.read,
    write: now.write - before.write,
    table: now.table - before.table,
    indexes: now.indexes - before.indexes,
  };
}

/** What the meter reads of a client besides its middleware: its meter, and the SDK's cache of resolved middleware. */
type MeteredClient = { __benchMeter?: DynamoMeter; handlers?: unknown; config: { cacheMiddleware?: boolean } };

/**
 * Adds the meter's middleware to `clients` (once) and returns their shared counters: a
 * process's document client's bare client and its raw client (dynamodb-clients.ts) together.
 */
export function meterClient(...clients: [DynamoDBClient, ...DynamoDBClient[]]): DynamoMeter {
  const metered = clients as unknown as MeteredClient[];
  const existing = metered[0].__benchMeter;
  if (existing) {
    if (metered.some((client) => client.__benchMeter !== existing)) throw new Error('dynamo-meter: these clients are not metered together');
    return existing;
  }
  // Such a client resolved its middleware at its first request; added now, the meter would miss its requests.
  if (metered.some((client) => client.config.cacheMiddleware && client.handlers !== undefined)) {
    throw new Error('dynamo-meter: meter a client with cacheMiddleware before its first request');
  }
  const totals = emptySnapshot();
  const recent: DynamoMeter['recent'] = [];
  const partitionRecorders = new Set<PartitionWrites>();
  for (const client of clients) addMeter(client, totals, recent, partitionRecorders);

  const meter: DynamoMeter = {
    recent,
    recordPartitions() {
      const recorder: PartitionWrites = {};
      partitionRecorders.add(recorder);
      return {
        stop: () => {
          partitionRecorders.delete(recorder);
          return recorder;
        },
      };
    },
    snapshot: () => structuredClone(totals),
    since(before) {
      const now = structuredClone(totals);
      const commands: Record<string, number> = {};
      for (const [name, count] of Object.entries(now.commands)) {
        const delta = count - (before.commands[name] ?? 0);
        if (delta !== 0) commands[name] = delta;
      }
      return {
        requests: now.requests - before.requests,
        capacity: difference(now.capacity, before.capacity),
        estimated: difference(now.estimated, before.estimated),
        transactions: now.transactions - before.transactions,
        transactionItems: {
          put: now.transactionItems.put - before.transactionItems.put,
          update: now.transactionItems.update - before.transactionItems.update,
          delete: now.transactionItems.delete - before.transactionItems.delete,
          conditionCheck: now.transactionItems.conditionCheck - before.transactionItems.conditionCheck,
        },
        commands,
      };
    },
  };
  for (const client of metered) client.__benchMeter = meter;
  return meter;
}

function addMeter(client: DynamoDBClient, totals: MeterSnapshot, recent: DynamoMeter['recent'], partitionRecorders: Set<PartitionWrites>): void {
  // Asks for the consumed capacity (a top-level parameter, whatever form the items are in) and adds it up.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? 'unknown';
      const input = args.input as Record<string, unknown>;
      if (CAPACITY_COMMANDS.has(command)) input.ReturnConsumedCapacity = 'INDEXES';
      const add = (consumed: ConsumedCapacity[] | ConsumedCapacity | undefined) => {
        // Transactions' estimates are computed from the request (below), not taken from DynamoDB Local.
        const targets = command === 'TransactWriteItemsCommand' ? [totals.capacity] : [totals.capacity, totals.estimated];
        for (const entry of [consumed ?? []].flat()) {
          const units = entry.CapacityUnits ?? 0;
          const read = entry.ReadCapacityUnits ?? (WRITE_COMMANDS.test(command) ? 0 : units);
          const write = entry.WriteCapacityUnits ?? (WRITE_COMMANDS.test(command) ? units : 0);
          const table = entry.Table?.CapacityUnits ?? units;
          for (const target of targets) {
            target.total += units;
            target.read += read;
            target.write += write;
            target.table += table;
            target.indexes += units - table;
          }
        }
      };
      try {
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity[] | ConsumedCapacity }).ConsumedCapacity;
        add(consumed);
        // A read that found nothing: DynamoDB Local reports 0, AWS bills the minimum.
        const reported = [consumed ?? []].flat().reduce((sum, entry) => sum + (entry.ReadCapacityUnits ?? entry.CapacityUnits ?? 0), 0);
        const unbilled = minimumReadUnits(command, input) - reported;
        if (unbilled > 0) {
          totals.estimated.total += unbilled;
          totals.estimated.read += unbilled;
          totals.estimated.table += unbilled;
        }
        return result;
      } catch (error) {
        // A canceled transaction or a failed condition still consumed capacity.
        add((error as { ConsumedCapacity?: ConsumedCapacity[] }).ConsumedCapacity);
        throw error;
      }
    },
    { step: 'initialize', name: 'benchMeterCapacity' },
  );
  // Counts each request as sent, reading its wire form (the JSON body: AttributeValues,
  // whether it came from the document client or not).
  client.middlewareStack.add(
    (next, context) => async (args) => {
      totals.requests++;
      const command = context.commandName ?? 'unknown';
      totals.commands[command] = (totals.commands[command] ?? 0) + 1;
      const body = (args.request as { body?: unknown }).body;
      const text = typeof body === 'string' ? body : body instanceof Uint8Array ? new TextDecoder().decode(body) : undefined;
      if (text === undefined) throw new Error(`dynamo-meter: cannot read the body of ${command} (${typeof body})`);
      const input = JSON.parse(text) as Record<string, unknown>;
      recent.push({ command, input });
      if (recent.length > 20) recent.shift();
      for (const recorder of partitionRecorders) addPartitionWrites(recorder, command, input);
      const items = input.TransactItems as TransactItemInput[] | undefined;
      if (command === 'TransactWriteItemsCommand' && items) {
        totals.transactions++;
        for (const item of items) {
          if (item.Put) totals.transactionItems.put++;
          if (item.Update) totals.transactionItems.update++;
          if (item.Delete) totals.transactionItems.delete++;
          if (item.ConditionCheck) totals.transactionItems.conditionCheck++;
        }
        // Billed when sent, committed or canceled.
        const { table, indexes } = transactionWriteUnits(items);
        totals.estimated.total += table + indexes;
        totals.estimated.write += table + indexes;
        totals.estimated.table += table;
        totals.estimated.indexes += indexes;
      }
      return next(args);
    },
    { step: 'finalizeRequest', name: 'benchMeterRequests' },
  );
}
