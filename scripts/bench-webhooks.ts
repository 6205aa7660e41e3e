/**
 * `npm run bench:webhooks`: how fast webhooks leave, on an in-memory DynamoDB Local started
 * for the run (and stopped at the end), with a receiver on 127.0.0.1.
 *
 *   npm run bench:webhooks
 *   npm run bench:webhooks -- --paced 200 --rate 20 --burst 2000
 *
 * Both stream consumers run as `npm start` runs them (one local stream reader each, batches
 * of 100 for webhooks and 1,000 for counting, polling every 250 ms, or as often as the
 * consumer's batching window says: 3 s for counting, functions/stream/consumers.ts) with the webhook sweeper; one `standard` webhook subscribed
 * to response.created posts to a local HTTP receiver answering 200.
 * - Delay (paced): responses written one by one at `--rate` per second (createResponse, the
 *   operation's domain function); for each, the time from the write's return to its arrival
 *   at the receiver, beside the time from the same write to the end of the counting
 *   consumer's batch that counted it (measured in the same run, on the same records).
 * - Throughput (burst): `--burst` responses written as fast as 8 writers can; events
 *   delivered per second from the first write to the last arrival, and the counting
 *   consumer's records per second over the same writes.
 *
 * Nothing is asserted; DynamoDB Local is not DynamoDB and the local reader's poll is not
 * Lambda's: compare runs with each other, not with production.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { benchOnDynamoDbLocal, log, markdownTable, percentile, positiveInteger } from './bench-lib';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

const TABLE_NAME = 'bench_webhooks';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { paced: { type: 'string' }, rate: { type: 'string' }, burst: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) {
    console.log('Usage: npm run bench:webhooks -- [--paced N (200)] [--rate per second (20)] [--burst N (2000)]');
    return 0;
  }
  const settings = {
    paced: positiveInteger('paced', values.paced, 200),
    rate: positiveInteger('rate', values.rate, 20),
    burst: positiveInteger('burst', values.burst, 2000),
  };
  return benchOnDynamoDbLocal('Webhooks on the local runtime', TABLE_NAME, () => run(settings));
}

async function run(settings: { paced: number; rate: number; burst: number }): Promise<string[]> {
  const { defaultStore } = await import('../functions/store/entity-store');
  const { ensureTable } = await import('../functions/store/setup');
  const { ensureAccount } = await import('../functions/operations/api-keys');
  const { createProject } = await import('../functions/operations/projects');
  const { createContentSet } = await import('../functions/operations/sets');
  const { createResponse } = await import('../functions/operations/response-collection');
  const { createWebhook } = await import('../functions/operations/webhooks');
  const { ANONYMOUS } = await import('../functions/api/auth');
  const { LocalStreamReader } = await import('../local/stream-reader');
  const { readerSettings } = await import('../local/stream-consumers');
  const { LocalWebhookSweeper } = await import('../local/webhook-sweeper');
  const { localLambdaContext } = await import('../local/lambda-context');
  const { handler: countingHandler } = await import('../functions/stream/counting-handler');
  const { handler: webhooksHandler } = await import('../functions/stream/webhooks-handler');
  const { STREAM_CONSUMERS } = await import('../functions/stream/consumers');
  const { matchesRecordFilter } = await import('../functions/stream/events');

  const { store, client } = defaultStore();
  await ensureTable(client, TABLE_NAME);
  const now = new Date();
  const account = await ensureAccount(store, 'bench-webhooks', now);
  const project = await createProject(store, account.id, { name: 'Bench' }, now);
  const contentSet = await createContentSet(
    store,
    account.id,
    { projectId: project.id, key: 'helpful', schema: 'yes-no', metadata: { name: 'Helpful?' } },
    now,
  );

  /** Response id -> when its event reached the receiver, and when the counting consumer had counted it. */
  const arrived = new Map<string, number>();
  const counted = new Map<string, number>();
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const id = JSON.parse(Buffer.concat(chunks).toString('utf8')).data?.response?.id;
      if (id && !arrived.has(id)) arrived.set(id, at);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', () => listening()));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await createWebhook(store, account.id, { url, events: ['response.created'] }, now);

  type Handler = (event: DynamoDBStreamEvent, context: unknown) => Promise<DynamoDBBatchResponse | undefined>;
  const readers = STREAM_CONSUMERS.map(
    (declaration) =>
      new LocalStreamReader({
        client,
        tableName: TABLE_NAME,
        batchSize: 100,
        accepts: (record) => matchesRecordFilter(record, declaration),
        // As npm start: the mapping's batch size, batching window (as the poll interval) and tumbling window.
        ...readerSettings(declaration),
        handle: async (event) => {
          if (declaration.name === 'webhooks') return (webhooksHandler as unknown as Handler)(event, localLambdaContext('bench-webhooks'));
          const result = await (countingHandler as unknown as Handler)(event, localLambdaContext('bench-counting'));
          const at = performance.now();
          for (const record of event.Records) {
            const id = record.dynamodb?.Keys?.pk?.S?.slice('response#'.length);
            if (id && !counted.has(id)) counted.set(id, at);
          }
          return result;
        },
      }),
  );
  const sweeper = new LocalWebhookSweeper({ store });
  for (const reader of readers) reader.start();
  sweeper.start();

  const write = async (index: number) => {
    const { responseId } = await createResponse(
      store,
      ANONYMOUS,
      { contentSetId: contentSet.id, key: `page-${index % 20}`, value: index % 3 ? 'yes' : 'no' },
      { headers: {} },
      new Date(),
    );
    return { responseId, at: performance.now() };
  };
  const waitFor = async (ids: string[], timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (ids.some((id) => !arrived.has(id) || !counted.has(id))) {
      if (Date.now() > deadline) throw new Error(`only ${ids.filter((id) => arrived.has(id)).length} of ${ids.length} events arrived in time`);
      await new Promise((wait) => setTimeout(wait, 20));
    }
  };

  try {
    // Warm-up: connections, first batches.
    const warm = await Promise.all(Array.from({ length: 20 }, (_, index) => write(index)));
    await waitFor(
      warm.map((written) => written.responseId),
      60_000,
    );

    log(`Paced: ${settings.paced} responses at ${settings.rate}/s...`);
    const paced: { responseId: string; at: number }[] = [];
    const interval = 1000 / settings.rate;
    const pacedStart = performance.now();
    for (let index = 0; index < settings.paced; index++) {
      const due = pacedStart + index * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((sleep) => setTimeout(sleep, wait));
      paced.push(await write(index));
    }
    await waitFor(
      paced.map((written) => written.responseId),
      120_000,
    );
    const webhookDelays = paced.map((written) => arrived.get(written.responseId)! - written.at).sort((a, b) => a - b);
    const countingDelays = paced.map((written) => counted.get(written.responseId)! - written.at).sort((a, b) => a - b);

    log(`Burst: ${settings.burst} responses...`);
    const burstStart = performance.now();
    const burst: { responseId: string; at: number }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < settings.burst) burst.push(await write(next++));
      }),
    );
    const written = performance.now();
    await waitFor(
      burst.map((item) => item.responseId),
      600_000,
    );
    const lastArrival = Math.max(...burst.map((item) => arrived.get(item.responseId)!));
    const lastCounted = Math.max(...burst.map((item) => counted.get(item.responseId)!));
    const burstWebhookDelays = burst.map((item) => arrived.get(item.responseId)! - item.at).sort((a, b) => a - b);
    const burstCountingDelays = burst.map((item) => counted.get(item.responseId)! - item.at).sort((a, b) => a - b);

    const ms = (value: number) => value.toFixed(0);
    return [
      `## Delay from a response write to its webhook's arrival (paced: ${settings.paced} responses at ${settings.rate}/s)`,
      '',
      markdownTable(
        ['Consumer', 'p50 ms', 'p95 ms', 'max ms'],
        [
          ['webhooks: write -> arrival at the receiver', ms(percentile(webhookDelays, 0.5)), ms(percentile(webhookDelays, 0.95)), ms(webhookDelays.at(-1)!)],
          ['counting: write -> counted (same records)', ms(percentile(countingDelays, 0.5)), ms(percentile(countingDelays, 0.95)), ms(countingDelays.at(-1)!)],
        ],
        [false, true, true, true],
      ),
      '',
      `## Throughput (burst: ${settings.burst} responses by 8 writers, ${((written - burstStart) / 1000).toFixed(1)} s of writes)`,
      '',
      markdownTable(
        ['Consumer', 'per second', 'p50 delay ms', 'p95 delay ms'],
        [
          [
            'webhooks: events delivered',
            (settings.burst / ((lastArrival - burstStart) / 1000)).toFixed(0),
            ms(percentile(burstWebhookDelays, 0.5)),
            ms(percentile(burstWebhookDelays, 0.95)),
          ],
          [
            'counting: responses counted',
            (settings.burst / ((lastCounted - burstStart) / 1000)).toFixed(0),
            ms(percentile(burstCountingDelays, 0.5)),
            ms(percentile(burstCountingDelays, 0.95)),
          ],
        ],
        [false, true, true, true],
      ),
      '',
      'Per second = responses / (last arrival or count - first write); during a burst both consumers also',
      'wait for the writes, so the figure is bounded by the write rate. The local readers poll every 250 ms (webhooks) and every 3 s (counting: its batching window).',
    ];
  } finally {
    await sweeper.stop();
    await Promise.all(readers.map((reader) => reader.stop()));
    await new Promise<void>((closed) => {
      receiver.close(() => closed());
      receiver.closeAllConnections();
    });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`bench:webhooks failed: ${(error as Error).stack ?? error}`);
    process.exit(1);
  },
);
