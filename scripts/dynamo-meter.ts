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
 *
 * Read a difference of two `snapshot()`s around the work measured.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

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
  capacity: Capacity;
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
    transactions: 0,
    transactionItems: { put: 0, update: 0, delete: 0, conditionCheck: 0 },
    commands: {},
  };
}

const WRITE_COMMANDS = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems)Command$/;

export interface DynamoMeter {
  snapshot(): MeterSnapshot;
  /** What happened between `before` (a snapshot) and now. */
  since(before: MeterSnapshot): MeterSnapshot;
}

/** Adds the meter's middleware to `client` (once per client) and returns its counters. */
export function meterClient(client: DynamoDBClient): DynamoMeter {
  const existing = (client as unknown as { __benchMeter?: DynamoMeter }).__benchMeter;
  if (existing) return existing;
  const totals = emptySnapshot();

  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? 'unknown';
      const input = args.input as Record<string, unknown>;
      if (CAPACITY_COMMANDS.has(command)) input.ReturnConsumedCapacity = 'INDEXES';
      const items = input.TransactItems as { Put?: unknown; Update?: unknown; Delete?: unknown; ConditionCheck?: unknown }[] | undefined;
      if (command === 'TransactWriteItemsCommand' && items) {
        totals.transactions++;
        for (const item of items) {
          if (item.Put) totals.transactionItems.put++;
          if (item.Update) totals.transactionItems.update++;
          if (item.Delete) totals.transactionItems.delete++;
          if (item.ConditionCheck) totals.transactionItems.conditionCheck++;
        }
      }
      const add = (consumed: ConsumedCapacity[] | ConsumedCapacity | undefined) => {
        for (const entry of [consumed ?? []].flat()) {
          const units = entry.CapacityUnits ?? 0;
          totals.capacity.total += units;
          const read = entry.ReadCapacityUnits ?? (WRITE_COMMANDS.test(command) ? 0 : units);
          const write = entry.WriteCapacityUnits ?? (WRITE_COMMANDS.test(command) ? units : 0);
          totals.capacity.read += read;
          totals.capacity.write += write;
          const table = entry.Table?.CapacityUnits ?? units;
          totals.capacity.table += table;
          totals.capacity.indexes += units - table;
        }
      };
      try {
        const result = await next(args);
        add((result.output as { ConsumedCapacity?: ConsumedCapacity[] | ConsumedCapacity }).ConsumedCapacity);
        return result;
      } catch (error) {
        // A canceled transaction or a failed condition still consumed capacity.
        add((error as { ConsumedCapacity?: ConsumedCapacity[] }).ConsumedCapacity);
        throw error;
      }
    },
    { step: 'initialize', name: 'benchMeterCapacity' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      totals.requests++;
      const command = context.commandName ?? 'unknown';
      totals.commands[command] = (totals.commands[command] ?? 0) + 1;
      return next(args);
    },
    { step: 'finalizeRequest', name: 'benchMeterRequests' },
  );

  const meter: DynamoMeter = {
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
        capacity: {
          total: now.capacity.total - before.capacity.total,
          read: now.capacity.read - before.capacity.read,
          write: now.capacity.write - before.capacity.write,
          table: now.capacity.table - before.capacity.table,
          indexes: now.capacity.indexes - before.capacity.indexes,
        },
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
  (client as unknown as { __benchMeter?: DynamoMeter }).__benchMeter = meter;
  return meter;
}
