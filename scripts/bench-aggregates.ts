/**
 * `npm run bench:aggregates`: what the aggregates cost, on an in-memory DynamoDB Local
 * started for the run (and stopped at the end).
 *
 *   npm run bench:aggregates
 *   npm run bench:aggregates -- --responses 5000 --iterations 50
 *
 * It reports:
 * - Consumer throughput: responses written with the stream reader stopped (BatchWriteItem
 *   of Response items, exactly what createResponse stores), then drained through DynamoDB
 *   Local's real stream by the local stream reader feeding the consumer's Lambda handler
 *   (batches as large as the event source mapping's, functions/stream/consumers.ts); responses per second of
 *   that drain, and the DynamoDB requests and counter writes it made. Two workloads: live
 *   traffic (the last hour, 100 items) and a year of history (400 days, 20 items).
 * - Counter writes per response: the consumer's UpdateItems, counted exactly (not timed),
 *   for stream records of new responses fed to countStreamRecords in batches: one hot item
 *   at batch size 1 and 100, and 1,000 distinct items at 100. The updates are counted, not
 *   sent (a client that accepts them): the figure is a property of the consumer's
 *   coalescing, not of DynamoDB.
 * - getStats: median / p90 latency of contentSetStats for each period, on the set with a
 *   year of history (operation function called in-process: no HTTP, no auth GetItem).
 *
 * Nothing is asserted; numbers depend on the machine (and DynamoDB Local is not DynamoDB:
 * compare figures with each other and over time, not with production).
 */
import { parseArgs } from 'node:util';
import { BatchWriteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { benchOnDynamoDbLocal, log, markdownTable, positiveInteger, summarize } from './bench-lib';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// The consumer logs; a benchmark wants none (BENCH_LOG_LEVEL=INFO to see them).
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';

const TABLE_NAME = 'bench_aggregates';
const DAY_MS = 24 * 3600 * 1000;

const ms = (value: number) => value.toFixed(2);
const seconds = (value: number) => (value / 1000).toFixed(1);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      responses: { type: 'string' },
      iterations: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('Usage: npm run bench:aggregates -- [--responses N (2000)] [--iterations N (30)]');
    return 0;
  }
  const settings = {
    responses: positiveInteger('responses', values.responses, 2000),
    iterations: positiveInteger('iterations', values.iterations, 30),
  };

  return benchOnDynamoDbLocal('Aggregates on the local runtime', TABLE_NAME, () => run(settings));
}

async function run(settings: { responses: number; iterations: number }): Promise<string[]> {
  const { defaultStore } = await import('../functions/store/entity-store');
  const { meterClient } = await import('./dynamo-meter');
  const { ensureTable } = await import('../functions/store/setup');
  const { ensureAccount } = await import('../functions/operations/api-keys');
  const { createProject } = await import('../functions/operations/projects');
  const { createContentSet } = await import('../functions/operations/sets');
  const { newContentItem } = await import('../functions/operations/contents');
  const { newContentItemId, newId } = await import('../functions/domain/text');
  const { LocalStreamReader } = await import('../local/stream-reader');
  const { localLambdaContext } = await import('../local/lambda-context');
  const { handler: countStreamHandler } = await import('../functions/stream/counting-handler');
  const { countStreamRecords, UPDATE_CONCURRENCY } = await import('../functions/stream/counting');
  const { normalizeValue } = await import('../functions/domain/schemas');
  const { contentSetStats } = await import('../functions/operations/get-stats');
  const { STAT_PERIODS } = await import('../shared/periods');
  const { STREAM_CONSUMERS } = await import('../functions/stream/consumers');
  const counting = STREAM_CONSUMERS.find((declaration) => declaration.name === 'counting')!;

  const { store, client } = defaultStore();
  await ensureTable(client, TABLE_NAME);
  const meter = meterClient(client);

  const updates = () => meter.snapshot().commands.UpdateItemCommand ?? 0;
  const measure = async <T>(work: () => Promise<T>) => {
    const before = { updates: updates(), requests: meter.snapshot().requests };
    const start = performance.now();
    const result = await work();
    return { result, ms: performance.now() - start, updates: updates() - before.updates, requests: meter.snapshot().requests - before.requests };
  };

  const now = new Date();
  const account = await ensureAccount(store, 'bench-aggregates', now);
  const accountId = account.id;
  const newSet = async (projectId: string, key: string) =>
    createContentSet(store, accountId, { projectId, key, schema: 'reaction', metadata: { name: key } }, now);

  async function batchWrite(items: Record<string, unknown>[], concurrency = 8): Promise<void> {
    const chunks: Record<string, unknown>[][] = [];
    for (let start = 0; start < items.length; start += 25) chunks.push(items.slice(start, start + 25));
    let next = 0;
    const worker = async () => {
      while (next < chunks.length) {
        let pending = chunks[next++].map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const answer = await store.documentClient.send(new BatchWriteCommand({ RequestItems: { [TABLE_NAME]: pending } }));
          pending = (answer.UnprocessedItems?.[TABLE_NAME] ?? []) as typeof pending;
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }

  // --- Consumer throughput --------------------------------------------------------------
  log('Preparing the consumer workloads (stream reader stopped)...');
  const project = await createProject(store, accountId, { name: 'Throughput' }, now);
  const liveSet = await newSet(project.id, 'live');
  const historySet = await newSet(project.id, 'history');
  const { data: liveSetItem } = await store.entities.ContentSet.get({ id: liveSet.id }).go();
  const schemaConfig = liveSetItem!.schemaConfig as { options: { value: string }[] };
  const values = schemaConfig.options.map((option) => option.value);
  const contentItems = async (contentSetId: string, count: number) => {
    const items = Array.from({ length: count }, (_, index) =>
      newContentItem({ id: contentSetId, accountId, projectId: project.id }, `https://example.com/page/${index}`, { title: `Page ${index}` }, now),
    );
    await batchWrite(items.map((item) => store.entities.ContentItem.put(item).params().Item as Record<string, unknown>));
    return items;
  };
  const responseItems = (contentSetId: string, items: { id: string }[], count: number, spanMs: number) =>
    Array.from({ length: count }, (_, index) => {
      const value = values[index % values.length];
      const normalized = normalizeValue('reaction', schemaConfig as never, value);
      if (!normalized.ok) throw new Error(normalized.reason);
      const createdAt = new Date(now.getTime() - Math.floor((((index * 7919) % count) / count) * spanMs)).toISOString();
      return store.entities.Response.put({
        id: newId(),
        accountId,
        projectId: project.id,
        contentSetId,
        contentItemId: items[index % items.length].id,
        schema: 'reaction',
        state: 'active',
        value: normalized.value,
        contribution: normalized.contribution,
        createdAt,
        updatedAt: createdAt,
      }).params().Item as Record<string, unknown>;
    });
  const liveItems = await contentItems(liveSet.id, 100);
  const historyItems = await contentItems(historySet.id, 20);
  const historyResponses = Math.max(1, Math.round(settings.responses / 10));

  const handling = { ms: 0, batches: 0 };
  const reader = new LocalStreamReader({
    client,
    tableName: TABLE_NAME,
    // As the counting consumer's event source mapping: its batch size, events that name their shard.
    batchSize: counting.batchSize,
    tumblingWindowSeconds: counting.tumblingWindowSeconds,
    handle: async (event) => {
      const start = performance.now();
      try {
        return await countStreamHandler(event, localLambdaContext('bench-stream-consumer'));
      } finally {
        handling.ms += performance.now() - start;
        handling.batches++;
      }
    },
  });
  const throughputRows: string[][] = [];
  try {
    // Setup records first, so the timed drains read responses (and the counters' own records).
    await reader.drain();
    for (const workload of [
      { name: `live: last hour, 100 items`, set: liveSet.id, items: liveItems, count: settings.responses, spanMs: 3600 * 1000 },
      { name: `history: 400 days, 20 items`, set: historySet.id, items: historyItems, count: historyResponses, spanMs: 400 * DAY_MS },
    ]) {
      log(`Writing ${workload.count} responses (${workload.name}), then draining the stream...`);
      await batchWrite(responseItems(workload.set, workload.items, workload.count, workload.spanMs));
      const handled = { ...handling };
      const drained = await measure(() => reader.drain());
      throughputRows.push([
        workload.name,
        String(workload.count),
        seconds(drained.ms),
        `${seconds(handling.ms - handled.ms)} (${handling.batches - handled.batches})`,
        (workload.count / (drained.ms / 1000)).toFixed(0),
        (drained.updates / workload.count).toFixed(2),
        (drained.requests / workload.count).toFixed(2),
      ]);
    }
  } finally {
    await reader.stop();
  }

  // --- Counter writes per response (exact) ---------------------------------------------
  log('Counting counter writes per response...');
  let sequence = 0;
  const insertRecord = (contentSetId: string, contentItemId: string): DynamoDBRecord => {
    const id = newId();
    sequence++;
    return {
      eventID: `bench-${sequence}-${id}`,
      eventName: 'INSERT',
      dynamodb: {
        Keys: marshall({ pk: `response#${id}`, sk: 'response' }) as never,
        SequenceNumber: String(sequence).padStart(21, '0'),
        NewImage: marshall({
          pk: `response#${id}`,
          sk: 'response',
          id,
          accountId,
          projectId: project.id,
          contentSetId,
          contentItemId,
          state: 'active',
          contribution: { option: sequence % 8, sentiment: 1, intensity: 0.5 },
          createdAt: now.toISOString(),
        }) as never,
      },
    };
  };
  // A store whose client takes every update (and the batch's change record for the ranker)
  // without sending it: the count is a property of the consumer (coalescing), so nothing
  // needs to be written to know it.
  const recorded = { batches: 0, updates: 0 };
  const countingClient = new Proxy(store.documentClient, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return async (command: unknown) => {
        if (command instanceof PutCommand && String(command.input.Item?.pk).startsWith('rankchange#')) return {};
        if (!(command instanceof UpdateCommand)) throw new Error('the consumer sent something other than an update or its change record');
        recorded.updates++;
        return {};
      };
    },
  });
  // Not createStore: an ElectroDB Service re-points the shared entities to its client.
  const countingStore: typeof store = Object.assign(Object.create(store), { documentClient: countingClient });
  const writeRows: string[][] = [];
  for (const scenario of [
    { name: 'one hot item, batch size 1', responses: 1000, batchSize: 1, items: 1 },
    { name: 'one hot item, batch size 100', responses: 1000, batchSize: 100, items: 1 },
    { name: '1,000 distinct items, batch size 100', responses: 1000, batchSize: 100, items: 1000 },
  ]) {
    const ids = Array.from({ length: scenario.items }, () => newContentItemId(liveSet.id));
    const records = Array.from({ length: scenario.responses }, (_, index) => insertRecord(liveSet.id, ids[index % ids.length]));
    Object.assign(recorded, { batches: 0, updates: 0 });
    for (let start = 0; start < records.length; start += scenario.batchSize) {
      recorded.batches++;
      const result = await countStreamRecords(countingStore, 'bench-shard', records.slice(start, start + scenario.batchSize), now);
      if (result.batchItemFailures.length > 0) throw new Error('the consumer reported a failure');
    }
    writeRows.push([
      scenario.name,
      String(scenario.responses),
      String(recorded.batches),
      (recorded.updates / scenario.responses).toFixed(2),
      (recorded.updates / recorded.batches).toFixed(1),
    ]);
  }

  // --- getStats -------------------------------------------------------------------------
  log('Measuring getStats...');
  const statsRows: string[][] = [];
  for (const period of STAT_PERIODS) {
    const samples: number[] = [];
    let reads = 0;
    let readUnits = 0;
    let count = 0;
    for (let i = 0; i < 5 + settings.iterations; i++) {
      const before = meter.snapshot();
      const start = performance.now();
      const stats = await contentSetStats(store, accountId, historySet.id, { period }, new Date());
      const elapsed = performance.now() - start;
      if (i >= 5) {
        samples.push(elapsed);
        const spent = meter.since(before);
        reads += spent.requests;
        readUnits += spent.estimated.read;
        count = stats.count;
      }
    }
    const timings = summarize(samples);
    statsRows.push([
      period,
      String(count),
      (reads / settings.iterations).toFixed(0),
      (readUnits / settings.iterations).toFixed(1),
      ms(timings.median),
      ms(timings.p90),
    ]);
  }

  return [
    `## Consumer throughput (stream reader + Lambda handler, batches of ${counting.batchSize} as the event source mapping)`,
    '',
    markdownTable(
      ['workload', 'responses', 'drain s', 'in handler s (batches)', 'responses/s', 'counter updates/response', 'DynamoDB requests/response'],
      throughputRows,
      [false, true, true, true, true, true, true],
    ),
    '',
    'Responses written with the reader stopped, then drained: the time includes reading the stream (also the',
    'counters\' own records, which the consumer skips); "in handler" is the part spent in the Lambda handler. Requests:',
    "the handler's only (the reader's stream calls are the event source's work). Each counter item of a batch is",
    `one conditional UpdateItem, ${UPDATE_CONCURRENCY} in flight at once.`,
    '',
    "## Counter writes per response (exact count of the consumer's UpdateItems, not timed)",
    '',
    markdownTable(['scenario', 'responses', 'batches', 'counter updates/response', 'updates/batch'], writeRows, [false, true, true, true, true]),
    '',
    'A response counts in 6 items (a day item and a year item each for its project, set and content item). Changes',
    'on one item in a batch coalesce into one update of that item.',
    '',
    `## getStats (contentSetStats in-process, set with ${historyResponses} responses over 400 days; ${settings.iterations} calls after 5 warm-up)`,
    '',
    markdownTable(['period', 'count', 'requests/call', 'RRU/call', 'median ms', 'p90 ms'], statsRows, [false, true, true, true, true, true]),
    '',
    "Requests: the set's GetItem and one Query of its day or year items (a keyed API call adds the key's GetItem).",
    'RRU by the published rules (eventually consistent: 0.5 per 4 KB read).',
    '',
  ];
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`bench:aggregates failed: ${(error as Error).stack ?? (error as Error).message}`);
    process.exitCode = 1;
  },
);
