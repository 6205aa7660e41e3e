/**
 * `npm run bench`: what each operation costs, measured on the local runtime (the same
 * Lambda handlers as deployed) over an in-memory DynamoDB Local started for the run.
 *
 *   npm run bench
 *   npm run bench -- --iterations 500 --warmup 100 --only projects/get,contents/create
 *   npm run bench -- --json docs/bench-results.json   (where the cost model reads it; the default)
 *
 * Per operation it reports:
 * - DynamoDB round trips per call, warm (the measured calls, averaged) and cold (one call
 *   right after the server's function instance forgot what it remembers, as a new Lambda
 *   container would): requests counted by a middleware the benchmark adds to the server's
 *   DynamoDB clients (scripts/dynamo-meter.ts). The server runs in this process, so the
 *   counts are exact; keyed calls include the auth GetItem.
 * - Capacity units per call: as DynamoDB Local reports them (ReturnConsumedCapacity,
 *   summed), and by AWS's published rules (DynamoDB Local's figures for transactions do
 *   not follow them; the meter computes those from the request).
 * - Latency: median and p90 of sequential HTTP calls through the local server, next to
 *   the median of as many raw GetItem (reads) or PutItem (writes) calls made with the
 *   AWS SDK straight to DynamoDB Local, interleaved with ours, and the ratio of the two
 *   medians.
 * Then: the write path's hottest partitions; the stream consumer's capacity per response;
 * the sizes of stored items; responses/create throughput at concurrency 16 against raw
 * PutItem in the same run (a project-shaped item, and the very item create writes); the
 * hot path's bundle bytes and cold start beside a bare-SDK handler sending the same requests.
 * Everything measured is also written as JSON (--json), which `npm run cost` reads.
 *
 * Adding an operation: append a `benchCase({ name, baseline, prepare, call })` to CASES.
 * Nothing is asserted; numbers depend on the machine.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { CONCURRENCY, LOOP_MS, throughputInChildProcess, type ThroughputRound } from './bench-throughput';
import { bareHandler, bundle, measureInit, type InitTimings } from './bench-init';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { hottestPartitions, itemBytes, type DynamoMeter, type MeterSnapshot } from './dynamo-meter';
import {
  benchCase,
  checkAnswer,
  apiClient,
  apiEvent,
  killLeftoverDynamoLocal,
  machineDescription,
  markdownTable,
  positiveInteger,
  rawBaseline,
  resultTable,
  runCase,
  type BenchCase,
  type BenchContext,
  type CaseResult,
} from './bench-lib';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// The server logs one line per request; a benchmark of thousands of calls wants none (BENCH_LOG_LEVEL=INFO to see them).
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';

const TABLE_NAME = 'bench';

/** Data shared by the cases that need a project or a content set to work in. */
async function project(context: BenchContext, name: string): Promise<string> {
  return (await context.api<{ id: string }>('projects/create', [{ name, description: 'Benchmark data' }], 'admin')).id;
}

/**
 * A set of the bench's. Every anonymous call comes from one visitor (one address and user
 * agent), so the sets record each response (onePerVisitor off) unless a case asks for it on.
 */
async function contentSet(context: BenchContext, projectId: string, key: string, schema = 'yes-no', onePerVisitor = false): Promise<string> {
  const created = await context.api<{ id: string }>('sets/create', [{ projectId, key, schema, metadata: { name: `Bench ${key}`, onePerVisitor } }], 'admin');
  return created.id;
}

const CASES: BenchCase<any>[] = [
  benchCase({
    name: 'projects/get',
    baseline: 'get',
    prepare: (context) => project(context, 'Get target'),
    call: (projectId) => ({ args: [projectId], caller: 'viewer' }),
  }),
  benchCase({
    name: 'projects/lookup',
    baseline: 'get',
    // 30 projects named "Lookup 0".."Lookup 29"; "lookup 1" matches 11 of them.
    prepare: async (context) => {
      for (let j = 0; j < 30; j++) await project(context, `Lookup ${j}`);
    },
    call: () => ({ args: ['lookup 1'], caller: 'viewer' }),
  }),
  benchCase({
    name: 'projects/create',
    baseline: 'put',
    call: (_state, i) => ({ args: [{ name: `Created ${i}`, description: 'Benchmark data' }], caller: 'admin' }),
  }),
  benchCase({
    name: 'projects/save',
    baseline: 'put',
    prepare: (context) => project(context, 'Save target'),
    call: (projectId, i) => ({ args: [projectId, { name: `Saved ${i}` }], caller: 'admin' }),
  }),
  benchCase({
    name: 'sets/create',
    baseline: 'put',
    prepare: (context) => project(context, 'Sets'),
    call: (projectId, i) => ({
      args: [{ projectId, key: `set-${i}`, schema: 'yes-no', metadata: { name: `Set ${i}` } }],
      caller: 'admin',
    }),
  }),
  benchCase({
    name: 'contents/create',
    baseline: 'put',
    prepare: async (context) => contentSet(context, await project(context, 'Contents'), 'pages'),
    call: (contentSetId, i) => ({
      args: [{ contentSetId, key: `https://example.com/docs/page-${i}`, metadata: { title: `Page ${i}` } }],
      caller: 'admin',
    }),
  }),
  benchCase({
    name: 'contents/lookup',
    baseline: 'get',
    // 50 items "/guide/<j>" titled "Guide chapter <j>"; "/guide/1" matches 11 keys.
    prepare: async (context) => {
      const contentSetId = await contentSet(context, await project(context, 'Lookup contents'), 'guide');
      for (let j = 0; j < 50; j++) {
        await context.api('contents/create', [{ contentSetId, key: `/guide/${j}`, metadata: { title: `Guide chapter ${j}` } }], 'admin');
      }
    },
    call: () => ({ args: ['/guide/1'], caller: 'viewer' }),
  }),
  benchCase({
    // The widgets' first click on a page: the item, its key and the response in one transaction.
    name: 'responses/create (new key)',
    operation: 'responses/create',
    baseline: 'put',
    prepare: async (context) => contentSet(context, await project(context, 'Responses new'), 'new-keys', 'reaction'),
    call: (contentSetId, i) => ({
      args: [{ contentSetId, key: `https://example.com/new/${i}`, value: 'heart', revokable: true }],
      caller: 'anonymous',
    }),
  }),
  benchCase({
    name: 'responses/create (existing item)',
    operation: 'responses/create',
    baseline: 'put',
    prepare: async (context) => {
      const contentSetId = await contentSet(context, await project(context, 'Responses existing'), 'existing', 'reaction');
      await context.api('responses/create', [{ contentSetId, key: 'https://example.com/hot', value: 'heart' }], 'anonymous');
      return contentSetId;
    },
    call: (contentSetId) => ({
      args: [{ contentSetId, key: 'https://example.com/hot', value: 'rocket', revokable: true }],
      caller: 'anonymous',
    }),
  }),
  benchCase({
    // The same with onePerVisitor: each call is the visitor's second vote of the day, which replaces the first (one UpdateItem).
    name: 'responses/create (existing item, onePerVisitor)',
    operation: 'responses/create',
    baseline: 'put',
    prepare: async (context) => {
      const contentSetId = await contentSet(context, await project(context, 'Responses one per visitor'), 'one-per-visitor', 'reaction', true);
      await context.api('responses/create', [{ contentSetId, key: 'https://example.com/voted', value: 'heart' }], 'anonymous');
      return contentSetId;
    },
    call: (contentSetId, i) => ({
      args: [{ contentSetId, key: 'https://example.com/voted', value: i % 2 === 0 ? 'rocket' : 'heart', revokable: true }],
      caller: 'anonymous',
    }),
  }),
  benchCase({
    name: 'responses/create (contentId)',
    operation: 'responses/create',
    baseline: 'put',
    prepare: async (context) => {
      const contentSetId = await contentSet(context, await project(context, 'Responses by id'), 'by-id', 'reaction');
      return (await context.api<{ id: string }>('contents/create', [{ contentSetId, key: 'https://example.com/by-id' }], 'admin')).id;
    },
    call: (contentId) => ({ args: [{ contentId, value: 'heart' }], caller: 'anonymous' }),
  }),
  benchCase({
    name: 'responses/edit',
    baseline: 'put',
    prepare: async (context) => {
      const contentSetId = await contentSet(context, await project(context, 'Edits'), 'edits', 'reaction');
      return context.api<{ responseId: string; revokable: { token: string } }>(
        'responses/create',
        [{ contentSetId, key: 'https://example.com/edited', value: 'heart', revokable: true }],
        'anonymous',
      );
    },
    call: (created, i) => ({
      args: [{ responseId: created.responseId, revokeToken: created.revokable.token, value: i % 2 === 0 ? 'rocket' : 'heart' }],
      caller: 'anonymous',
    }),
  }),
  benchCase({
    name: 'responses/remove',
    baseline: 'put',
    // One response per call (warm-up, measured and the cold call).
    prepare: async (context) => {
      const contentSetId = await contentSet(context, await project(context, 'Removals'), 'removals', 'reaction');
      const created: { responseId: string; revokable: { token: string } }[] = [];
      for (let j = 0; j < context.calls; j++) {
        created.push(
          await context.api('responses/create', [{ contentSetId, key: 'https://example.com/removed', value: 'heart', revokable: true }], 'anonymous'),
        );
      }
      return created;
    },
    call: (created, i) => ({ args: [{ responseId: created[i].responseId, revokeToken: created[i].revokable.token }], caller: 'anonymous' }),
  }),
  benchCase({
    name: 'responses/getAggregates (GET, public set)',
    operation: 'feelbacks/getAggregates',
    baseline: 'get',
    prepare: async (context) => {
      const projectId = await project(context, 'Widget counts');
      const { id: contentSetId } = await context.api<{ id: string }>(
        'sets/create',
        [{ projectId, key: 'counts', schema: 'reaction', metadata: { name: 'Counts', publicAggregates: true } }],
        'admin',
      );
      await context.api('responses/create', [{ contentSetId, key: 'https://example.com/counted', value: 'heart' }], 'anonymous');
      return contentSetId;
    },
    call: (contentSetId) => ({ args: [{ contentSetId, key: 'https://example.com/counted' }], caller: 'anonymous', method: 'GET' }),
  }),
];

/** Responses created for the stream consumer's measurement, over this many items of one set. */
const CONSUMER_RESPONSES = 200;
const CONSUMER_ITEMS = 20;
/** Fresh processes per function for the cold-start measurement. */
const INIT_RUNS = 5;

/** Responses written per write-path traffic shape (after one unmetered response per page). */
const SHAPE_RESPONSES = 400;

interface WritePathShape {
  name: string;
  responses: number;
  pages: number;
  /** Write units per response on the hottest partition key, of the table and of each index written. */
  hottest: Record<string, { partition: string; perResponse: number }>;
  /** Write units per response in all, table + indexes, by the same rules. */
  total: { table: number; indexes: number };
}

/**
 * The write path's heat: `SHAPE_RESPONSES` responses/create through the local API on
 * pages that already exist, every one on one page (a popular page), or spread over 100
 * pages of 4 sets of one project (one project taking all traffic), with the write units
 * of every request recorded per partition key (dynamo-meter.ts `recordPartitions`).
 */
async function writePathShapes(context: BenchContext, meter: DynamoMeter): Promise<WritePathShape[]> {
  const shapes: WritePathShape[] = [];
  for (const shape of [
    { name: 'popular page: every response on one page', label: 'Heat page', sets: 1, pagesPerSet: 1 },
    { name: 'one project takes all traffic: 100 pages of 4 sets', label: 'Heat project', sets: 4, pagesPerSet: 25 },
  ]) {
    const projectId = await project(context, shape.label);
    const targets: { contentSetId: string; key: string }[] = [];
    for (let set = 0; set < shape.sets; set++) {
      const contentSetId = await contentSet(context, projectId, `heat-${set}`, 'reaction');
      for (let page = 0; page < shape.pagesPerSet; page++) targets.push({ contentSetId, key: `https://example.com/heat/${page}` });
    }
    for (const target of targets) await context.api('responses/create', [{ ...target, value: 'heart' }], 'anonymous');
    const recording = meter.recordPartitions();
    for (let i = 0; i < SHAPE_RESPONSES; i++) {
      await context.api('responses/create', [{ ...targets[i % targets.length], value: 'rocket', revokable: true }], 'anonymous');
    }
    const writes = recording.stop();
    const sum = (index: string) => Object.values(writes[index] ?? {}).reduce((all, units) => all + units, 0);
    shapes.push({
      name: shape.name,
      responses: SHAPE_RESPONSES,
      pages: targets.length,
      hottest: Object.fromEntries(
        Object.entries(hottestPartitions(writes)).map(([index, { partition, units }]) => [index, { partition, perResponse: units / SHAPE_RESPONSES }]),
      ),
      total: {
        table: sum('table') / SHAPE_RESPONSES,
        indexes:
          Object.keys(writes)
            .filter((index) => index !== 'table')
            .reduce((all, index) => all + sum(index), 0) / SHAPE_RESPONSES,
      },
    });
  }
  return shapes;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      iterations: { type: 'string' },
      warmup: { type: 'string' },
      only: { type: 'string' },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('Usage: npm run bench -- [--iterations N (200)] [--warmup N (50)] [--only name,name] [--json file (docs/bench-results.json)]');
    console.log(`Cases: ${CASES.map((definition) => definition.name).join(', ')}`);
    return 0;
  }
  const only = values.only
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = only?.filter((name) => !CASES.some((definition) => definition.name === name)) ?? [];
  if (unknown.length > 0) throw new Error(`Unknown case ${unknown.join(', ')}; cases: ${CASES.map((definition) => definition.name).join(', ')}`);
  const cases = only ? CASES.filter((definition) => only.includes(definition.name)) : CASES;
  const jsonFile = resolve(values.json ?? resolve(__dirname, '../docs/bench-results.json'));

  // Loaded only now, so the logger reads POWERTOOLS_LOG_LEVEL set above.
  const { startLocalRuntime } = await import('../local/runtime');
  const { DYNAMODB_LOCAL_HOME } = await import('../local/dynamodb-local');
  const { createDynamoClient } = await import('../functions/store/dynamodb-clients');
  const { defaultStore } = await import('../functions/store/entity-store');
  const { clearTargetCache } = await import('../functions/operations/target-cache');
  const { forgetVisitorSalt } = await import('../functions/operations/visitor-identity');
  const { startStreamConsumers } = await import('../local/stream-consumers');
  const { meterClient } = await import('./dynamo-meter');
  const settings = {
    iterations: positiveInteger('iterations', values.iterations, 200),
    warmup: positiveInteger('warmup', values.warmup, 50),
    // A new container remembers no target and no visitor salt.
    coldStart: () => {
      clearTargetCache();
      forgetVisitorSalt();
    },
  };

  const started = performance.now();
  process.stderr.write('Starting DynamoDB Local (in memory) and the local API...\n');
  // dynamoEndpoint unset: the runtime starts its own DynamoDB Local; port 0: a free port.
  // The stream consumer stays off: its requests would be counted with the operations'.
  // The per-visitor limit stays off: the benchmark is one visitor making thousands of writes.
  const runtime = await startLocalRuntime({
    port: 0,
    host: '127.0.0.1',
    tableName: TABLE_NAME,
    devKeys: {},
    consumeStream: false,
    // One trusted proxy: a visitor may name its address (X-Forwarded-For), as the consumer's measurement does.
    anonymousRateLimit: { limit: 0, windowSeconds: 300, trustedProxies: 1 },
  });
  const dynamoPort = Number(new URL(runtime.dynamoEndpoint).port);
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= runtime.stop());
  const interrupted = () => {
    process.stderr.write('\nInterrupted: stopping DynamoDB Local...\n');
    void stop().then(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  const rawClient = createDynamoClient({ endpoint: runtime.dynamoEndpoint, tableName: TABLE_NAME });
  // The server runs in this process: its DynamoDB clients are the ones measured.
  const meter = meterClient(defaultStore().client, defaultStore().rawClient);
  const results: CaseResult[] = [];
  const rounds: ThroughputRound[] = [];
  let consumer: (MeterSnapshot & { responses: number; items: number }) | undefined;
  let consumerShapes: ConsumerShape[] = [];
  let writeShapes: WritePathShape[] = [];
  let itemSizes: Record<string, { count: number; median: number; max: number }> = {};
  const hotPath: { name: string; bytes: number; packages: string[]; init: { ours: InitTimings; bare: InitTimings } }[] = [];
  const stateDir = mkdtempSync(join(tmpdir(), 'bench-stream-'));
  try {
    const send = apiClient(runtime.baseUrl, runtime.keys);
    const context: BenchContext = {
      baseUrl: runtime.baseUrl,
      keys: runtime.keys,
      calls: settings.warmup + settings.iterations + 1,
      async api(operation, args, caller, visitor) {
        const answer = await send(operation, { args, caller, ...visitor });
        checkAnswer(operation, answer);
        return answer.body as any;
      },
    };
    const raw = rawBaseline(rawClient, TABLE_NAME);
    await raw.prepare();

    // Warms Java's JIT in DynamoDB Local and the server's code paths before anything is measured.
    process.stderr.write('Warming up...\n');
    const warmProject = await project(context, 'Warm-up');
    for (let i = 0; i < 150; i++) {
      await raw.get();
      await raw.put(-1 - i);
      await context.api('projects/get', [warmProject], 'viewer');
      await context.api('projects/save', [warmProject, { name: `Warm-up ${i}` }], 'admin');
    }

    const rawCounter = { next: 0 };
    for (const definition of cases) {
      process.stderr.write(`Measuring ${definition.name}...\n`);
      results.push(await runCase(definition, context, raw, settings, rawCounter, meter));
    }

    process.stderr.write('Measuring the write path on its hottest partitions...\n');
    writeShapes = await writePathShapes(context, meter);

    process.stderr.write('Measuring the stream consumer...\n');
    // Everything written so far is counted first (unmetered); then CONSUMER_RESPONSES new
    // responses are written with the readers stopped, and their counting alone is metered.
    const { client } = defaultStore();
    // Stopped whether or not the drain succeeds: running readers would keep a failed bench alive.
    const countEverything = async () => {
      const consumers = startStreamConsumers(client, TABLE_NAME, stateDir);
      try {
        await consumers.drain();
      } finally {
        await consumers.stop();
      }
    };
    await countEverything();
    const counted = await contentSet(context, await project(context, 'Counted'), 'counted', 'reaction');
    // Each response from a visitor of its own, at an address of its own, as on a site: the screening runs, and holds none.
    for (let i = 0; i < CONSUMER_RESPONSES; i++) {
      await context.api(
        'responses/create',
        [{ contentSetId: counted, key: `https://example.com/counted/${i % CONSUMER_ITEMS}`, value: 'heart' }],
        'anonymous',
        { userAgent: `bench-visitor-${i}`, address: `198.18.${i >> 8}.${i & 255}` },
      );
    }
    const beforeConsumer = meter.snapshot();
    await countEverything();
    consumer = { ...meter.since(beforeConsumer), responses: CONSUMER_RESPONSES, items: CONSUMER_ITEMS };
    // Sets of their own, with no response in the table: the screening's Query of a set's last
    // 10 minutes finds only what a shape's batches hold (see consumerBatchShapes).
    const shapesProject = await project(context, 'Batch shapes');
    const shapeSets: string[] = [];
    for (let index = 0; index < 10; index++) shapeSets.push(await contentSet(context, shapesProject, `shape-${index}`, 'reaction'));
    consumerShapes = await consumerBatchShapes(shapeSets);

    process.stderr.write('Reading the sizes of stored items...\n');
    itemSizes = await storedItemSizes(rawClient, TABLE_NAME);

    // Last of the table's measurements: its loops write some 100,000 items, which the stream
    // consumer's measurement would first have to count and the item sizes would include.
    process.stderr.write(`Measuring throughput at concurrency ${CONCURRENCY}, in a process of its own...\n`);
    const throughputProject = await project(context, 'Throughput');
    const pages = await contentSet(context, throughputProject, 'throughput', 'reaction');
    const votedPages = await contentSet(context, throughputProject, 'throughput-votes', 'reaction', true);
    rounds.push(
      ...(await throughputInChildProcess({
        endpoint: runtime.dynamoEndpoint,
        tableName: TABLE_NAME,
        baseUrl: runtime.baseUrl,
        contentSetId: pages,
        onePerVisitorSetId: votedPages,
      })),
    );

    process.stderr.write('Bundling the hot path and timing cold starts...\n');
    const initEnv = {
      ...process.env,
      TABLE_NAME,
      DYNAMODB_ENDPOINT: runtime.dynamoEndpoint,
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    for (const target of await hotPathTargets(context, meter, settings)) {
      const built = await bundle(target.name, target.entry);
      const bare = bareHandler(`${target.name}-bare`, target.requests);
      const init = await measureInit(target.name, built.file, bare, target.event, initEnv, INIT_RUNS);
      hotPath.push({ name: target.operation, bytes: built.bytes, packages: built.packages, init });
    }
  } finally {
    rawClient.destroy();
    rmSync(stateDir, { recursive: true, force: true });
    await stop();
  }

  const left = killLeftoverDynamoLocal(dynamoPort);
  const sum = (key: keyof ThroughputRound) => rounds.reduce((all, round) => all + round[key], 0);
  const measured = {
    date: new Date().toISOString(),
    machine: machineDescription(DYNAMODB_LOCAL_HOME),
    settings: { iterations: settings.iterations, warmup: settings.warmup },
    operations: results,
    throughput: {
      concurrency: CONCURRENCY,
      secondsPerLoop: LOOP_MS / 1000,
      items: 50,
      rounds,
      ratio: rounds.length ? sum('ours') / sum('raw') : undefined,
      handlerRatio: rounds.length ? sum('handler') / sum('raw') : undefined,
      handlerRatioToResponsePut: rounds.length ? sum('handler') / sum('rawResponse') : undefined,
      handlerRatioToHotClientPut: rounds.length ? sum('handler') / sum('rawResponseHotClient') : undefined,
      ratioToResponsePut: rounds.length ? sum('ours') / sum('rawResponse') : undefined,
      ratioToRawTransaction: rounds.length ? sum('ours') / sum('rawTransaction') : undefined,
      /** The handler on a set with onePerVisitor (every call replacing the visitor's vote) against the same handler without. */
      onePerVisitorRatio: rounds.length ? sum('handlerOnePerVisitor') / sum('handler') : undefined,
      /** The same set, each call a new visitor's first vote on the page, against the handler without onePerVisitor. */
      onePerVisitorFirstRatio: rounds.length ? sum('handlerOnePerVisitorFirst') / sum('handler') : undefined,
    },
    writePath: { shapes: writeShapes },
    consumer: consumer && {
      responses: consumer.responses,
      items: consumer.items,
      perResponse: {
        requests: consumer.requests / consumer.responses,
        capacity: consumer.capacity.total / consumer.responses,
        estimated: Object.fromEntries(Object.entries(consumer.estimated).map(([key, value]) => [key, value / consumer!.responses])),
        transactions: consumer.transactions / consumer.responses,
        counterUpdates: (consumer.commands.UpdateItemCommand ?? 0) / consumer.responses,
      },
      commands: consumer.commands,
      batchShapes: consumerShapes,
    },
    itemSizes,
    hotPath,
  };
  writeFileSync(jsonFile, `${JSON.stringify(measured, null, 2)}\n`);

  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(
    [
      '',
      '# Operation cost on the local runtime',
      '',
      ...machineDescription(DYNAMODB_LOCAL_HOME),
      `Calls:     ${settings.iterations} measured per operation after ${settings.warmup} warm-up calls and 1 cold call, sequential, HTTP keep-alive`,
      '',
      resultTable(results),
      '',
      'round trips: DynamoDB requests per call, exact: warm = measured calls averaged; cold = one call right after the',
      '  function instance forgot what it remembers (a new Lambda container). Keyed calls include the auth GetItem.',
      'CU/call (DynamoDB Local): ReturnConsumedCapacity summed; DynamoDB Local does not apply the transaction rules.',
      'CU/call (published rules): reads and single-item writes as DynamoDB Local reports them, transactions computed from',
      '  the request (2 WCU per KB per item, condition checks included; 1 WCU per KB per index entry written).',
      'median/p90: HTTP call through the local server (Lambda handler included), client side.',
      'raw baseline: one GetItem (reads) or PutItem (writes) with the AWS SDK straight to DynamoDB Local, made after each of',
      '  our calls (same load for both); ratio = median / raw median.',
      'DynamoDB Local is not DynamoDB: compare operations with each other and over time, not with production latency.',
      '',
      ...(rounds.length
        ? [
            `## responses/create throughput at concurrency ${CONCURRENCY} (each loop ${LOOP_MS / 1000} s a round, 50 existing items), against raw PutItem and a raw transaction`,
            '',
            ...rounds.map(
              (round, index) =>
                `round ${index + 1}: ours ${round.ours.toFixed(0)} responses/s; handler ${round.handler.toFixed(0)}/s; raw PutItem ${round.raw.toFixed(0)}/s (ratio ${(round.ours / round.raw).toFixed(2)}, handler ${(round.handler / round.raw).toFixed(2)}); ` +
                `raw PutItem of create's own item ${round.rawResponse.toFixed(0)}/s (ratio ${(round.ours / round.rawResponse).toFixed(2)}, handler ${(round.handler / round.rawResponse).toFixed(2)}); ` +
                `the same through create's client ${round.rawResponseHotClient.toFixed(0)}/s (handler ${(round.handler / round.rawResponseHotClient).toFixed(2)}); ` +
                `raw TransactWriteItems of a Put and three ConditionChecks (the former create) ${round.rawTransaction.toFixed(0)}/s (ratio ${(round.ours / round.rawTransaction).toFixed(2)}); ` +
                `raw Put + one ConditionCheck ${round.rawSmallestRefusal.toFixed(0)}/s; ` +
                `handler with onePerVisitor, second votes ${round.handlerOnePerVisitor.toFixed(0)}/s (${(round.handlerOnePerVisitor / round.handler).toFixed(2)} of the handler), first votes ${round.handlerOnePerVisitorFirst.toFixed(0)}/s (${(round.handlerOnePerVisitorFirst / round.handler).toFixed(2)})`,
            ),
            `all rounds, onePerVisitor: second votes / handler ${(sum('handlerOnePerVisitor') / sum('handler')).toFixed(2)}; first votes / handler ${(sum('handlerOnePerVisitorFirst') / sum('handler')).toFixed(2)} (sums over the rounds; the machine's load moves a round, not a ratio within it much)`,
            `all rounds: ours / raw PutItem ${(sum('ours') / sum('raw')).toFixed(2)}; handler / raw PutItem ${(sum('handler') / sum('raw')).toFixed(2)}; ` +
              `handler / raw PutItem of create's own item ${(sum('handler') / sum('rawResponse')).toFixed(2)}; handler / the same through create's client ${(sum('handler') / sum('rawResponseHotClient')).toFixed(2)}; ours / raw PutItem of create's own item ${(sum('ours') / sum('rawResponse')).toFixed(2)}; ours / raw transaction ${(sum('ours') / sum('rawTransaction')).toFixed(2)}; ` +
              `raw transaction / raw PutItem ${(sum('rawTransaction') / sum('raw')).toFixed(2)}; raw Put + one ConditionCheck / raw PutItem ${(sum('rawSmallestRefusal') / sum('raw')).toFixed(2)} (sums over the rounds)`,
            '',
          ]
        : []),
      ...writePathReport(results, writeShapes, rounds.length ? { handler: sum('handler') / sum('raw'), http: sum('ours') / sum('raw') } : undefined),
      ...(measured.consumer
        ? [
            `## Stream consumer, per response (${measured.consumer.responses} new responses on ${measured.consumer.items} items of one set)`,
            '',
            `requests ${measured.consumer.perResponse.requests.toFixed(2)}; transactions ${measured.consumer.perResponse.transactions.toFixed(2)}; counter updates ${measured.consumer.perResponse.counterUpdates.toFixed(2)}`,
            `CU (DynamoDB Local) ${measured.consumer.perResponse.capacity.toFixed(2)}; CU (published rules) read ${(measured.consumer.perResponse.estimated.read ?? 0).toFixed(2)} + write ${(measured.consumer.perResponse.estimated.write ?? 0).toFixed(2)} (table ${(measured.consumer.perResponse.estimated.table ?? 0).toFixed(2)}, indexes ${(measured.consumer.perResponse.estimated.indexes ?? 0).toFixed(2)})`,
            'The same consumer on stream batches of a given shape, one shard, writing to DynamoDB Local (write units as it reports them, published rules):',
            '',
            markdownTable(
              ['batch shape', 'responses', 'counter updates/response', 'WRU/response (table + indexes)', 'WRU/response on the hottest key (table; indexes)'],
              consumerShapes.map((shape) => [
                shape.name,
                String(shape.responses),
                shape.counterUpdates.toFixed(2),
                `${shape.table.toFixed(2)} + ${shape.indexes.toFixed(2)}`,
                `${shape.hottestKey.table.toFixed(3)} (${shape.hottestKey.tableKey.split('#').slice(0, 2).join('#')}); ${shape.hottestKey.index.toFixed(3)}`,
              ]),
              [false, true, true, true, true],
            ),
            '',
          ]
        : []),
      '## Stored item sizes (bytes, DynamoDB item size rules)',
      '',
      markdownTable(
        ['item', 'count', 'median', 'max'],
        Object.entries(itemSizes).map(([kind, size]) => [kind, String(size.count), String(size.median), String(size.max)]),
        [false, true, true, true],
      ),
      '',
      ...(hotPath.length
        ? [
            `## Hot-path bundles and cold start (median of ${INIT_RUNS} fresh processes; bare = AWS SDK alone, sending the same requests)`,
            '',
            markdownTable(
              ['function', 'bundle', 'load ms (init)', 'first call ms', 'second call ms', 'bare load ms', 'bare first ms', 'bare second ms'],
              hotPath.map((entry) => [
                entry.name,
                kib(entry.bytes),
                entry.init.ours.load.toFixed(1),
                entry.init.ours.first.toFixed(1),
                entry.init.ours.second.toFixed(1),
                entry.init.bare.load.toFixed(1),
                entry.init.bare.first.toFixed(1),
                entry.init.bare.second.toFixed(1),
              ]),
              [false, true, true, true, true, true, true, true],
            ),
            '',
            `packages inside: ${hotPath.map((entry) => `${entry.name}: ${entry.packages.join(', ')}`).join('; ')}`,
            '',
          ]
        : []),
      `Written to ${jsonFile}.`,
      `Total time ${((performance.now() - started) / 1000).toFixed(1)} s. ${
        left.length === 0
          ? `DynamoDB Local stopped: no process left on port ${dynamoPort}.`
          : `DynamoDB Local had left ${left.length} process(es) on port ${dynamoPort} (pid ${left.map((entry) => entry.pid).join(', ')}): killed.`
      }`,
    ].join('\n'),
  );
  return left.length === 0 ? 0 : 1;
}

/** The write path's figures: round trips and write units of responses/create, its throughput ratio, and its hottest partitions. */
function writePathReport(results: CaseResult[], shapes: WritePathShape[], ratio: { handler: number; http: number } | undefined): string[] {
  const creates = results.filter((result) => result.operation === 'responses/create' || result.operation === 'responses/edit');
  const indexes = [...new Set(shapes.flatMap((shape) => Object.keys(shape.hottest)))].sort((a, b) =>
    a === 'table' ? -1 : b === 'table' ? 1 : a.localeCompare(b),
  );
  return [
    '## The write path',
    '',
    markdownTable(
      ['call', 'round trips warm', 'round trips cold', 'WRU/call warm (table + indexes)', 'commands warm'],
      creates.map((result) => [
        result.name,
        result.roundTripsPerCall.toFixed(2),
        String(result.cold.requests),
        `${result.estimatedPerCall.write.toFixed(2)} (${(result.estimatedPerCall.table - result.estimatedPerCall.read).toFixed(2)} + ${result.estimatedPerCall.indexes.toFixed(2)})`,
        Object.entries(result.commandsPerCall)
          .map(([command, count]) => `${command.replace(/Command$/, '')} ${count.toFixed(2)}`)
          .join(', '),
      ]),
      [false, true, true, true, false],
    ),
    '',
    ...(ratio === undefined
      ? []
      : [
          `responses/create at concurrency ${CONCURRENCY} / raw PutItem: the handler ${ratio.handler.toFixed(2)}, through the local HTTP server ${ratio.http.toFixed(2)} (the throughput section above)`,
          '',
        ]),
    `WRU per response on the hottest partition key (${SHAPE_RESPONSES} warm responses/create per shape, counted from each write's keys and index attributes by the published rules):`,
    '',
    markdownTable(
      ['shape', 'pages', ...indexes, 'all (table + indexes)'],
      shapes.map((shape) => [
        shape.name,
        String(shape.pages),
        ...indexes.map((index) => (shape.hottest[index] ? shape.hottest[index].perResponse.toFixed(3) : '-')),
        `${shape.total.table.toFixed(2)} + ${shape.total.indexes.toFixed(2)}`,
      ]),
      [false, true, ...indexes.map(() => true), true],
    ),
    '',
  ];
}

interface ConsumerShape {
  name: string;
  responses: number;
  batchSize: number;
  items: number;
  sets: number;
  /** UpdateItems per response of counter items (`agg#`). */
  counterUpdates: number;
  /** UpdateItems per response of the address limit's records (`addressvisitors#`: store/address-visitors.ts). */
  addressUpdates: number;
  /** Write units per response by the published rules (as DynamoDB Local reports single-item writes), of the table and of its indexes. */
  table: number;
  indexes: number;
  /** Read units per response by the published rules (the screening's reads; dynamo-meter.ts `estimated`). */
  reads: number;
  /** Write units per response on the partition key that took the most, of the table and of any index. */
  hottestKey: { table: number; tableKey: string; index: number; indexKey: string };
}

/**
 * The counting consumer's writes and reads per response for stream batches of a given
 * shape: its Lambda logic (countStreamRecords) fed synthetic INSERT records of one shard,
 * writing to the bench's DynamoDB Local through a metered client (scripts/dynamo-meter.ts:
 * write units as DynamoDB Local reports them for single-item writes, indexes included;
 * reads by the published rules). Each record is a widget's response, from a visitor of its
 * own at an address of its own (as the widgets send them: the screening runs, and the
 * address limit writes its record). Each shape's responses are spread in order over the 24
 * hours of one day, so the day items grow to what a day of that traffic makes. They are
 * stream records only, not items of the table: the screening's Query of the set's last 10
 * minutes (its list index) finds none of a shape's earlier responses, so its reads are
 * those of a set whose window holds little (a Query's least, per list shard), as at a
 * quiet site; a busy set's window of up to 800 responses reads more (docs/scaling.md). Per
 * partition key, the units of each write (and of each index entry it writes, placed by the
 * item the update returns) are added up exactly from
 * the requests: the hottest key's share per response is what bounds one page or one
 * project at DynamoDB's 1,000 WCU/s per partition.
 */
async function consumerBatchShapes(contentSetIds: string[]): Promise<ConsumerShape[]> {
  const [contentSetId] = contentSetIds;
  const { countStreamRecords } = await import('../functions/stream/counting');
  const { contentSetOf, keys } = await import('../functions/store/items');
  const { addressVisitorsKey } = await import('../functions/store/address-visitors');
  // The key prefixes of the address limit's records and of responses, as the store makes them.
  const addressPrefix = addressVisitorsKey('').pk;
  const responsePrefix = keys.response('').pk;
  const { getRawItem } = await import('../functions/store/batch');
  const { newContentItemId, newId } = await import('../functions/domain/text');
  const { createDocumentClient, createDynamoClient } = await import('../functions/store/dynamodb-clients');
  const { defaultStore } = await import('../functions/store/entity-store');
  const { TABLE_KEYS } = await import('../functions/store/table');
  const { meterClient } = await import('./dynamo-meter');
  const { unmarshall } = await import('@aws-sdk/util-dynamodb');
  const { settings } = defaultStore();
  const client = createDynamoClient(settings);
  const meter = meterClient(client);
  const perKey = { table: new Map<string, number>(), indexes: new Map<string, number>() };
  const updates = { counters: 0, addresses: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: Record<string, unknown>; Item?: Record<string, unknown>; ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity = 'INDEXES';
      const result = await next(args);
      if (!/^(PutItem|UpdateItem|DeleteItem)Command$/.test(context.commandName ?? '')) return result;
      const output = result.output as {
        ConsumedCapacity?: { Table?: { CapacityUnits?: number }; GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }> };
        Attributes?: Record<string, unknown>;
      };
      // Items reach this step in either form: native, or as AttributeValues ({ S: ... }, { N: ... }, ...).
      const isAttributeValue = (inner: unknown) =>
        !!inner &&
        typeof inner === 'object' &&
        !Array.isArray(inner) &&
        Object.keys(inner).length === 1 &&
        /^(S|N|B|SS|NS|BS|M|L|NULL|BOOL)$/.test(Object.keys(inner)[0]);
      const plain = (value: Record<string, unknown> | undefined) =>
        value && Object.values(value).every(isAttributeValue) ? unmarshall(value as never) : (value ?? {});
      // A PutItem (the batch's change record) names its key in its item, and its index keys too.
      const pk = String(plain(input.Key ?? input.Item).pk);
      if (context.commandName === 'UpdateItemCommand' && pk.startsWith('agg#')) updates.counters += 1;
      if (context.commandName === 'UpdateItemCommand' && pk.startsWith(addressPrefix)) updates.addresses += 1;
      // A shape's responses are as a site's visitors send them: no screening rule may hold one (a hold writes the response's item).
      if (pk.startsWith(responsePrefix)) throw new Error(`the screening held a bench response (${context.commandName} ${pk})`);
      const item = plain(output.Attributes ?? input.Item);
      const add = (map: Map<string, number>, key: string, units: number) => map.set(key, (map.get(key) ?? 0) + units);
      add(perKey.table, pk, output.ConsumedCapacity?.Table?.CapacityUnits ?? 0);
      for (const [indexName, units] of Object.entries(output.ConsumedCapacity?.GlobalSecondaryIndexes ?? {})) {
        const index = TABLE_KEYS.globalIndexes.find((entry) => entry.indexName === indexName);
        add(perKey.indexes, `${indexName} ${String(index ? item[index.partitionKey] : '?')}`, units.CapacityUnits ?? 0);
      }
      return result;
    },
    { step: 'initialize', name: 'benchCounterKeys' },
  );
  const counting = { documentClient: createDocumentClient(client), rawClient: client, tableName: settings.tableName };
  const set = contentSetOf(await getRawItem(counting, keys.contentSet(contentSetId)))!;
  const day = Date.parse(new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10));
  let sequence = 0;
  const record = (scope: { contentSetId: string; contentItemId: string }, createdAt: Date): DynamoDBRecord => {
    const id = newId();
    sequence++;
    const image = {
      pk: `response#${id}`,
      sk: 'response',
      id,
      accountId: set.accountId,
      projectId: set.projectId,
      ...scope,
      state: 'active',
      contribution: { option: sequence % 8, sentiment: 1, intensity: 0.5 },
      visitor: createHash('sha256').update(`bench-visitor-${sequence}`).digest('base64url').slice(0, 22),
      address: createHash('sha256').update(`bench-address-${sequence}`).digest('base64url').slice(0, 22),
      createdAt: createdAt.toISOString(),
      __edb_e__: 'response',
      __edb_v__: '1',
    };
    return {
      eventID: `bench-shape-${sequence}-${id}`,
      eventName: 'INSERT',
      dynamodb: {
        Keys: marshall({ pk: image.pk, sk: image.sk }) as never,
        SequenceNumber: String(sequence).padStart(21, '0'),
        NewImage: marshall(image) as never,
      },
    };
  };
  const shapes: ConsumerShape[] = [];
  for (const shape of [
    { name: 'quiet site: one response per batch', responses: 100, batchSize: 1, items: 100, sets: 1 },
    { name: 'busy site: batches of 100 over 20 pages of one set', responses: 1000, batchSize: 100, items: 20, sets: 1 },
    { name: 'popular page: batches of 100 on one page', responses: 1000, batchSize: 100, items: 1, sets: 1 },
    { name: 'one project taking all traffic: batches of 100 over 200 pages of 10 sets', responses: 2000, batchSize: 100, items: 200, sets: 10 },
  ]) {
    perKey.table.clear();
    perKey.indexes.clear();
    Object.assign(updates, { counters: 0, addresses: 0 });
    const before = meter.snapshot();
    if (shape.sets > contentSetIds.length) throw new Error(`the shape ${shape.name} needs ${shape.sets} sets`);
    const setIds = contentSetIds.slice(0, shape.sets);
    const pages = Array.from({ length: shape.items }, (_, index) => {
      const pageSet = setIds[index % setIds.length];
      return { contentSetId: pageSet, contentItemId: newContentItemId(pageSet) };
    });
    const records = Array.from({ length: shape.responses }, (_, index) =>
      record(pages[index % pages.length], new Date(day + Math.floor((index * 24) / shape.responses) * 3600 * 1000 + 60_000)),
    );
    for (let start = 0; start < records.length; start += shape.batchSize) {
      const result = await countStreamRecords(counting, 'bench-shard', records.slice(start, start + shape.batchSize), new Date());
      if (result.batchItemFailures.length > 0) throw new Error('the consumer reported a failure');
    }
    const spent = meter.since(before);
    const total = (map: Map<string, number>) => [...map.values()].reduce((all, units) => all + units, 0);
    const hottest = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1])[0] ?? ['(none)', 0];
    const [tableKey, tableUnits] = hottest(perKey.table);
    const [indexKey, indexUnits] = hottest(perKey.indexes);
    shapes.push({
      name: shape.name,
      responses: shape.responses,
      batchSize: shape.batchSize,
      items: shape.items,
      sets: shape.sets,
      counterUpdates: updates.counters / shape.responses,
      addressUpdates: updates.addresses / shape.responses,
      // The meter's table and index figures hold reads too (a Query of an index is the index's): the writes are summed per key above.
      table: total(perKey.table) / shape.responses,
      indexes: total(perKey.indexes) / shape.responses,
      reads: spent.estimated.read / shape.responses,
      hottestKey: { table: tableUnits / shape.responses, tableKey, index: indexUnits / shape.responses, indexKey },
    });
  }
  client.destroy();
  return shapes;
}

/** Median and largest size per kind of stored item (entity, or counter / marker), from a Scan of the benchmark's table. */
async function storedItemSizes(client: ReturnType<typeof import('../functions/store/dynamodb-clients').createDynamoClient>, tableName: string) {
  const sizes = new Map<string, number[]>();
  let start: Record<string, any> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      const kind = item.__edb_e__?.S ?? (item.pk?.S?.startsWith('agg#') ? 'counter' : (item.pk?.S?.split('#')[0] ?? 'other'));
      (sizes.get(kind) ?? sizes.set(kind, []).get(kind)!).push(itemBytes(item));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return Object.fromEntries(
    [...sizes]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, list]) => {
        list.sort((a, b) => a - b);
        return [kind, { count: list.length, median: list[Math.floor(list.length / 2)], max: list[list.length - 1] }];
      }),
  );
}

/**
 * The two functions the widgets call on every page: their entry, an API Gateway event of
 * a call they answer 200, and the DynamoDB requests that call makes cold (recorded from
 * one real call through the local server, after forgetting what it remembers).
 */
async function hotPathTargets(context: BenchContext, meter: ReturnType<typeof import('./dynamo-meter').meterClient>, settings: { coldStart: () => void }) {
  const contentSetId = (
    await context.api<{ id: string }>(
      'sets/create',
      // onePerVisitor off: each fresh process's call is create's one PutItem, which the bare handler can replay under a new key
      // (with it on, every run after the first is the same visitor's later vote, whose replacement only its own key fits).
      [
        {
          projectId: await project(context, 'Cold starts'),
          key: 'cold',
          schema: 'reaction',
          metadata: { name: 'Cold', publicAggregates: true, onePerVisitor: false },
        },
      ],
      'admin',
    )
  ).id;
  const key = 'https://example.com/cold';
  await context.api('responses/create', [{ contentSetId, key, value: 'heart' }], 'anonymous');
  const send = apiClient(context.baseUrl, context.keys);
  const requestsOf = async (operation: string, args: unknown[], method: 'GET' | 'POST') => {
    settings.coldStart();
    const before = meter.snapshot().requests;
    checkAnswer(operation, await send(operation, { args, caller: 'anonymous', method }));
    const count = meter.snapshot().requests - before;
    return meter.recent.slice(-count).map(({ command, input }) => {
      // Without the meter's parameter and the SDK's idempotency token (each replay is a new transaction).
      const { ReturnConsumedCapacity: _capacity, ClientRequestToken: _token, ...rest } = input;
      return { command, input: rest };
    });
  };
  const createArgs = [{ contentSetId, key, value: 'heart' }];
  const aggregatesArgs = [{ contentSetId, key }];
  return [
    {
      name: 'responses-create',
      operation: 'responses/create',
      entry: 'functions/handlers/responses/create.ts',
      event: apiEvent('/v0/feelbacks/create', 'POST', createArgs),
      requests: await requestsOf('feelbacks/create', createArgs, 'POST'),
    },
    {
      name: 'responses-getAggregates',
      operation: 'responses/getAggregates',
      entry: 'functions/handlers/responses/getAggregates.ts',
      event: apiEvent('/v0/feelbacks/getAggregates', 'GET', aggregatesArgs),
      requests: await requestsOf('feelbacks/getAggregates', aggregatesArgs, 'GET'),
    },
  ];
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`bench failed: ${(error as Error).message}`);
    process.exitCode = 1;
  },
);
