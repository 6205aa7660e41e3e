/**
 * `npm run bench`: what each operation costs, measured on the local runtime (the same
 * Lambda handlers as deployed) over an in-memory DynamoDB Local started for the run.
 *
 *   npm run bench
 *   npm run bench -- --iterations 500 --warmup 100 --only projects/get,contents/create
 *
 * Per operation it reports:
 * - DynamoDB round trips per call: requests counted by a middleware the benchmark adds to
 *   the server's DynamoDB client (scripts/dynamo-meter.ts) over the measured calls,
 *   divided by their number. The server runs in this process, so the count is exact; it
 *   includes the auth GetItem.
 * - Latency: median and p90 of sequential HTTP calls through the local server, next to
 *   the median of as many raw GetItem (reads) or PutItem (writes) calls made with the
 *   AWS SDK straight to DynamoDB Local, interleaved with ours, and the ratio of the two
 *   medians.
 *
 * Adding an operation: append a `benchCase({ name, baseline, prepare, call })` to CASES.
 * Nothing is asserted; numbers depend on the machine.
 */
import { parseArgs } from 'node:util';
import {
  benchCase,
  checkAnswer,
  apiClient,
  killLeftoverDynamoLocal,
  machineDescription,
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

async function contentSet(context: BenchContext, projectId: string, key: string, schema = 'yes-no'): Promise<string> {
  const created = await context.api<{ id: string }>('sets/create', [{ projectId, key, schema, metadata: { name: `Bench ${key}` } }], 'admin');
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
];

/** Concurrent callers for the throughput comparison (the issue asks for 16). */
const CONCURRENCY = 16;

/** Runs `total` calls with `concurrency` in flight; returns calls per second. */
async function throughput(total: number, concurrency: number, call: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await call(next++);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`--${name} must be a positive integer, not "${value}"`);
  return number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      iterations: { type: 'string' },
      warmup: { type: 'string' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('Usage: npm run bench -- [--iterations N (200)] [--warmup N (50)] [--only name,name]');
    console.log(`Cases: ${CASES.map((definition) => definition.name).join(', ')}`);
    return 0;
  }
  const settings = { iterations: positiveInteger('iterations', values.iterations, 200), warmup: positiveInteger('warmup', values.warmup, 50) };
  const only = values.only
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = only?.filter((name) => !CASES.some((definition) => definition.name === name)) ?? [];
  if (unknown.length > 0) throw new Error(`Unknown case ${unknown.join(', ')}; cases: ${CASES.map((definition) => definition.name).join(', ')}`);
  const cases = only ? CASES.filter((definition) => only.includes(definition.name)) : CASES;

  // Loaded only now, so the logger reads POWERTOOLS_LOG_LEVEL set above.
  const { startLocalRuntime } = await import('../functions/local/runtime');
  const { DYNAMODB_LOCAL_HOME } = await import('../functions/local/dynamodb-local');
  const { createDynamoClient } = await import('../functions/store/dynamo');
  const { defaultStore } = await import('../functions/store/client');
  const { meterClient } = await import('./dynamo-meter');

  const started = performance.now();
  process.stderr.write('Starting DynamoDB Local (in memory) and the local API...\n');
  // dynamoEndpoint unset: the runtime starts its own DynamoDB Local; port 0: a free port.
  // The stream consumer stays off: its requests would be counted with the operations'.
  const runtime = await startLocalRuntime({ port: 0, host: '127.0.0.1', tableName: TABLE_NAME, devKeys: {}, consumeStream: false });
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
  // The server runs in this process: its one DynamoDB client is the one measured.
  const meter = meterClient(defaultStore().client);
  const results: CaseResult[] = [];
  let throughputResult: { ours: number; raw: number; total: number } | undefined;
  try {
    const send = apiClient(runtime.baseUrl, runtime.keys);
    const context: BenchContext = {
      baseUrl: runtime.baseUrl,
      keys: runtime.keys,
      async api(operation, args, caller) {
        const answer = await send(operation, { args, caller });
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

    process.stderr.write(`Measuring throughput at concurrency ${CONCURRENCY}...\n`);
    const pages = await contentSet(context, await project(context, 'Throughput'), 'throughput', 'reaction');
    const total = settings.iterations * 4;
    // Alternated twice, so both see the same machine load; the better run of each counts.
    for (let round = 0; round < 2; round++) {
      const ours = await throughput(total, CONCURRENCY, async (i) => {
        await context.api('responses/create', [{ contentSetId: pages, key: `https://example.com/t/${i % 50}`, value: 'heart' }], 'anonymous');
      });
      const rawPuts = await throughput(total, CONCURRENCY, (i) => raw.put(1_000_000 + round * total + i));
      throughputResult = {
        ours: Math.max(throughputResult?.ours ?? 0, ours),
        raw: Math.max(throughputResult?.raw ?? 0, rawPuts),
        total,
      };
    }
  } finally {
    rawClient.destroy();
    await stop();
  }

  const left = killLeftoverDynamoLocal(dynamoPort);

  console.log(
    [
      '',
      '# Operation cost on the local runtime',
      '',
      ...machineDescription(DYNAMODB_LOCAL_HOME),
      `Calls:     ${settings.iterations} measured per operation after ${settings.warmup} warm-up calls, sequential, HTTP keep-alive, with an API key`,
      '',
      resultTable(results),
      '',
      'round trips/call: DynamoDB requests per call (exact count, including the auth GetItem on the key).',
      'median/p90: HTTP call through the local server (Lambda handler included), client side.',
      'raw baseline: one GetItem (reads) or PutItem (writes) with the AWS SDK straight to DynamoDB Local, made after each of',
      '  our calls (same load for both); ratio = median / raw median.',
      'DynamoDB Local is not DynamoDB: compare operations with each other and over time, not with production latency.',
      '',
      ...(throughputResult
        ? [
            `## responses/create throughput at concurrency ${CONCURRENCY} (${throughputResult.total} calls, 50 existing items)`,
            '',
            `ours: ${throughputResult.ours.toFixed(0)} responses/s; raw PutItem: ${throughputResult.raw.toFixed(0)} puts/s; ratio ${(throughputResult.ours / throughputResult.raw).toFixed(2)}`,
            '',
          ]
        : []),
      `Total time ${((performance.now() - started) / 1000).toFixed(1)} s. ${
        left.length === 0
          ? `DynamoDB Local stopped: no process left on port ${dynamoPort}.`
          : `DynamoDB Local had left ${left.length} process(es) on port ${dynamoPort} (pid ${left.map((entry) => entry.pid).join(', ')}): killed.`
      }`,
    ].join('\n'),
  );
  return left.length === 0 ? 0 : 1;
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
