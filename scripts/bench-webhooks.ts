/**
 * `npm run bench:webhooks`: how fast webhooks leave, on an in-memory DynamoDB Local started
 * for the run (and stopped at the end), with a receiver on 127.0.0.1.
 *
 *   npm run bench:webhooks
 *   npm run bench:webhooks -- --paced 200 --rate 20 --burst 2000
 *
 * Both stream consumers run as `npm start` runs them (one local stream reader each, batches
 * of up to 1,000 for webhooks and 10,000 for counting, polling every 250 ms, or as often as the
 * consumer's batching window says: 3 s for counting, functions/stream/consumers.ts) with the webhook sweeper; one `standard` webhook subscribed
 * to response.created posts to a local HTTP receiver answering 200.
 * - Delay (paced): responses written one by one at `--rate` per second (createResponse, the
 *   operation's domain function); for each, the time from the write's return to its arrival
 *   at the receiver, beside the time from the same write to the end of the counting
 *   consumer's batch that counted it (measured in the same run, on the same records). Twice:
 *   as a site's own server writes them (no visitor: the screening has nothing to judge), then
 *   as visitors write them, each at an address of its own (the screening runs every rule,
 *   and holds none): the difference is what screening before counting costs.
 * - Throughput (burst): `--burst` responses written as fast as 8 writers can, from a site's
 *   server and then from visitors; events delivered per second from the first write to the
 *   last arrival, and the counting consumer's records per second over the same writes.
 * - Capacity units per response of each consumer in each of those (each consumer's function
 *   runs on a metered client of its own).
 *
 * - Keeping up (burst): delivered per second against written per second in the same run,
 *   events that arrived twice, the most requests the receiver had open at once (the
 *   endpoint's cap, WEBHOOK_ENDPOINT_CONCURRENCY), and where an event's time went: waiting for
 *   the webhooks consumer to be handed its record, in the consumer until its request reaches
 *   the receiver (the first attempt goes before the delivery is stored), at the receiver, and
 *   until the delivery is stored with its outcome; and the consumer's capacity: events per
 *   second of the time its function spent.
 * - The consumer's own pace (backlog): the burst written while the webhooks consumer is
 *   stopped, then delivered at once: events per second with nothing to wait for.
 *
 * `--write` stores the figures in docs/bench-webhooks.json, with the machine's load average;
 * `--shared` says in them (and in the printout) that other work ran on the machine meanwhile.
 *
 * Nothing is asserted; DynamoDB Local is not DynamoDB and the local reader's poll is not
 * Lambda's: compare runs with each other, not with production.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { benchOnDynamoDbLocal, log, markdownTable, percentile, positiveInteger } from './bench-lib';
import type { MeterSnapshot } from './dynamo-meter';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

const TABLE_NAME = 'bench_webhooks';
const WEBHOOKS_RESULTS = 'docs/bench-webhooks.json';
const SHARED_NOTE =
  "measured on a machine shared with other engineers' work (--shared): times and rates are inflated by the load; counts and ratios within the run hold";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      paced: { type: 'string' },
      rate: { type: 'string' },
      burst: { type: 'string' },
      write: { type: 'boolean', default: false },
      shared: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(
      'Usage: npm run bench:webhooks -- [--paced N (200)] [--rate per second (20)] [--burst N (2000)] [--write] [--shared: the machine runs other work too, said in the output]',
    );
    return 0;
  }
  const settings = {
    paced: positiveInteger('paced', values.paced, 200),
    rate: positiveInteger('rate', values.rate, 20),
    burst: positiveInteger('burst', values.burst, 2000),
    write: values.write ?? false,
    shared: values.shared ?? false,
  };
  return benchOnDynamoDbLocal('Webhooks on the local runtime', TABLE_NAME, () => run(settings));
}

/** A response write's origin: a site's own server (no visitor: nothing for the flood rules) or a visitor at an address of its own. */
type Origin = 'server' | 'visitor';

async function run(settings: { paced: number; rate: number; burst: number; write: boolean; shared: boolean }): Promise<string[]> {
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
  const { countStreamRecords } = await import('../functions/stream/counting');
  const { deliverStreamRecords } = await import('../functions/stream/webhooks');
  const { STREAM_CONSUMERS } = await import('../functions/stream/consumers');
  const { matchesRecordFilter } = await import('../functions/stream/events');
  const { createDocumentClient, createDynamoClient, createRawClient } = await import('../functions/store/dynamodb-clients');
  const { meterClient } = await import('./dynamo-meter');
  const { endpointConcurrency } = await import('../functions/domain/webhooks');

  const { store, client, settings: storeSettings } = defaultStore();
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
  /**
   * Where an event's time goes, per response id: when the webhooks consumer was handed its
   * record (`read`), when its request reached the receiver (`requested`), when its delivery
   * was stored (`stored`, after the attempt: stream/webhooks.ts); and how many times it arrived.
   */
  const read = new Map<string, number>();
  const stored = new Map<string, number>();
  const requested = new Map<string, number>();
  const arrivals = new Map<string, number>();
  /** Requests open at the receiver now, and the most at once. */
  let open = 0;
  let mostOpen = 0;
  const receiver = createServer((request, response) => {
    const start = performance.now();
    mostOpen = Math.max(mostOpen, ++open);
    response.on('close', () => open--);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const id = JSON.parse(Buffer.concat(chunks).toString('utf8')).data?.response?.id;
      if (id) arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
      if (id && !arrived.has(id)) {
        arrived.set(id, at);
        requested.set(id, start);
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', () => listening()));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await createWebhook(store, account.id, { url, events: ['response.created'] }, now);

  // Each consumer on a client of its own, metered: its requests and capacity units per response.
  const meteredStore = () => {
    const dynamo = createDynamoClient(storeSettings);
    const raw = createRawClient(storeSettings);
    return {
      dynamo,
      table: { documentClient: createDocumentClient(dynamo), rawClient: raw, tableName: storeSettings.tableName },
      meter: meterClient(dynamo, raw),
    };
  };
  const consumers = { counting: meteredStore(), webhooks: meteredStore() };
  // When each delivery of a response is stored: seen on the webhooks consumer's own client, after the BatchWriteItem that writes it returns.
  consumers.webhooks.dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const output = await next(args);
      if (context.commandName === 'BatchWriteItemCommand') {
        const at = performance.now();
        const requests = Object.values(
          (args.input as { RequestItems: Record<string, { PutRequest?: { Item: Record<string, { S?: string }> } }[]> }).RequestItems,
        );
        for (const { PutRequest } of requests.flat()) {
          const item = PutRequest?.Item;
          if (item?.pk?.S?.startsWith('delivery#') && item.responseId?.S && !stored.has(item.responseId.S)) {
            stored.set(item.responseId.S, at);
          }
        }
      }
      return output;
    },
    { step: 'build', name: 'benchQueuedAt' },
  );
  /** Time spent inside the webhooks consumer's function (ms, summed over its invocations): its capacity is events per second of it. */
  let webhooksBusyMs = 0;
  /** Invocations of the webhooks consumer under way: an event arrives before its invocation has recorded it and returned. */
  let webhooksRunning = 0;
  const webhooksIdle = async () => {
    while (webhooksRunning > 0) await new Promise((wait) => setTimeout(wait, 20));
  };
  // The webhooks reader keeps its position in a file: the backlog phase starts a new one where the stopped one left off.
  const webhooksPosition = join(tmpdir(), `bench-webhooks-position-${process.pid}.json`);
  const newReader = (declaration: (typeof STREAM_CONSUMERS)[number]) =>
    new LocalStreamReader({
      client,
      tableName: TABLE_NAME,
      batchSize: 100,
      ...(declaration.name === 'webhooks' ? { positionFile: webhooksPosition } : {}),
      accepts: (record) => matchesRecordFilter(record, declaration),
      // As npm start: the mapping's batch size, batching window (as the poll interval) and tumbling window.
      ...readerSettings(declaration),
      // The consumers' functions (their Lambda entries call the same, on the process's default client).
      handle: async (event) => {
        if (declaration.name === 'webhooks') {
          const at = performance.now();
          for (const record of event.Records) {
            const id = record.dynamodb?.Keys?.pk?.S?.slice('response#'.length);
            if (id && !read.has(id)) read.set(id, at);
          }
          webhooksRunning++;
          try {
            return await deliverStreamRecords(consumers.webhooks.table, event.shardId!, event.Records, {});
          } finally {
            webhooksBusyMs += performance.now() - at;
            webhooksRunning--;
          }
        }
        const result = await countStreamRecords(consumers.counting.table, event.shardId!, event.Records, new Date());
        const at = performance.now();
        for (const record of event.Records) {
          const id = record.dynamodb?.Keys?.pk?.S?.slice('response#'.length);
          if (id && !counted.has(id)) counted.set(id, at);
        }
        return result;
      },
    });
  const readers = STREAM_CONSUMERS.map(newReader);
  const sweeper = new LocalWebhookSweeper({ store });
  for (const reader of readers) reader.start();
  sweeper.start();

  let visitors = 0;
  const write = async (index: number, origin: Origin) => {
    const visitor = ++visitors;
    const request =
      origin === 'server'
        ? { headers: {} }
        : { headers: { 'user-agent': `bench-visitor/${visitor}` }, sourceIp: `198.${18 + (visitor >> 16)}.${(visitor >> 8) & 255}.${visitor & 255}` };
    const { responseId } = await createResponse(
      store,
      ANONYMOUS,
      { contentSetId: contentSet.id, key: `page-${index % 20}`, value: index % 3 ? 'yes' : 'no' },
      request,
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
  /** The consumers' units per response since the snapshots. */
  const spentSince = (before: { counting: MeterSnapshot; webhooks: MeterSnapshot }, responses: number) =>
    (['counting', 'webhooks'] as const).map((name) => {
      const spent = consumers[name].meter.since(before[name]);
      return { name, requests: spent.requests / responses, read: (spent.estimated.read ?? 0) / responses, write: (spent.estimated.write ?? 0) / responses };
    });
  const snapshot = () => ({ counting: consumers.counting.meter.snapshot(), webhooks: consumers.webhooks.meter.snapshot() });

  const paced = async (origin: Origin) => {
    log(`Paced: ${settings.paced} responses (${origin === 'server' ? "a site's server" : 'visitors'}) at ${settings.rate}/s...`);
    const before = snapshot();
    const written: { responseId: string; at: number }[] = [];
    const interval = 1000 / settings.rate;
    const start = performance.now();
    for (let index = 0; index < settings.paced; index++) {
      const due = start + index * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((sleep) => setTimeout(sleep, wait));
      written.push(await write(index, origin));
    }
    await waitFor(
      written.map((item) => item.responseId),
      120_000,
    );
    // The sweeper's and the readers' idle work goes on: units are read right after the last arrival.
    const units = spentSince(before, settings.paced);
    return {
      origin,
      webhook: written.map((item) => arrived.get(item.responseId)! - item.at).sort((a, b) => a - b),
      counting: written.map((item) => counted.get(item.responseId)! - item.at).sort((a, b) => a - b),
      units,
    };
  };

  try {
    // Warm-up: connections, first batches.
    const warm = await Promise.all(Array.from({ length: 20 }, (_, index) => write(index, 'visitor')));
    await waitFor(
      warm.map((written) => written.responseId),
      60_000,
    );

    const phases = [await paced('server'), await paced('visitor')];

    const burst = async (origin: Origin) => {
      log(`Burst: ${settings.burst} responses (${origin === 'server' ? "a site's server" : 'visitors'})...`);
      const before = snapshot();
      const busyBefore = webhooksBusyMs;
      mostOpen = open;
      const start = performance.now();
      const writes: { responseId: string; at: number }[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < settings.burst) writes.push(await write(next++, origin));
        }),
      );
      const written = performance.now();
      await waitFor(
        writes.map((item) => item.responseId),
        600_000,
      );
      await webhooksIdle();
      const lastArrival = Math.max(...writes.map((item) => arrived.get(item.responseId)!));
      const between = (from: (item: { responseId: string; at: number }) => number, to: (item: { responseId: string; at: number }) => number) =>
        // Finite only: a delivery the sweeper stored (past the consumer's budget) has no time on the consumer's client.
        writes
          .map((item) => to(item) - from(item))
          .filter(Number.isFinite)
          .sort((a, b) => a - b);
      const at = (times: Map<string, number>) => (item: { responseId: string }) => times.get(item.responseId)!;
      return {
        origin,
        units: spentSince(before, settings.burst),
        writeSeconds: (written - start) / 1000,
        writesPerSecond: settings.burst / ((written - start) / 1000),
        webhooksPerSecond: settings.burst / ((lastArrival - start) / 1000),
        drainSeconds: (lastArrival - written) / 1000,
        // Events per second the consumer's function spent (its waits for the screening's verdicts included): what it could take if the writes came faster.
        consumerCapacity: settings.burst / ((webhooksBusyMs - busyBefore) / 1000),
        twice: writes.filter((item) => (arrivals.get(item.responseId) ?? 0) > 1).length,
        mostOpen,
        stages: [
          ['write -> record handed to the webhooks consumer (the stream, the batch before it)', between((item) => item.at, at(read))],
          ["handed -> request at the receiver (the screening's verdict, reads, the attempt's turn, signing, connecting)", between(at(read), at(requested))],
          ['at the receiver (request -> its body read)', between(at(requested), at(arrived))],
          ['arrival -> delivery stored with its outcome (after the answer)', between(at(arrived), at(stored))],
          ['write -> arrival (all of it)', between((item) => item.at, at(arrived))],
        ] as const,
        countedPerSecond: settings.burst / ((Math.max(...writes.map((item) => counted.get(item.responseId)!)) - start) / 1000),
        webhook: writes.map((item) => arrived.get(item.responseId)! - item.at).sort((a, b) => a - b),
        counting: writes.map((item) => counted.get(item.responseId)! - item.at).sort((a, b) => a - b),
      };
    };
    const bursts = [await burst('server'), await burst('visitor')];

    /**
     * The consumer's own pace, with neither the writes nor the screening to wait for: the
     * burst written while the webhooks consumer is stopped (and counted meanwhile), then
     * delivered from the backlog by a new reader from the stopped one's position.
     */
    const backlog = async () => {
      log(`Backlog: ${settings.burst} responses written while the webhooks consumer is stopped, then delivered...`);
      const index = STREAM_CONSUMERS.findIndex((declaration) => declaration.name === 'webhooks');
      await readers[index].stop();
      const writes: { responseId: string; at: number }[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < settings.burst) writes.push(await write(next++, 'server'));
        }),
      );
      const ids = writes.map((item) => item.responseId);
      const deadline = Date.now() + 600_000;
      while (ids.some((id) => !counted.has(id))) {
        if (Date.now() > deadline) throw new Error('the backlog was not counted in time');
        await new Promise((wait) => setTimeout(wait, 50));
      }
      const before = snapshot();
      const busyBefore = webhooksBusyMs;
      const start = performance.now();
      readers[index] = newReader(STREAM_CONSUMERS[index]);
      readers[index].start();
      await waitFor(ids, 600_000);
      await webhooksIdle();
      const seconds = (Math.max(...ids.map((id) => arrived.get(id)!)) - start) / 1000;
      return {
        deliveredPerSecond: settings.burst / seconds,
        seconds,
        consumerCapacity: settings.burst / ((webhooksBusyMs - busyBefore) / 1000),
        twice: ids.filter((id) => (arrivals.get(id) ?? 0) > 1).length,
        units: spentSince(before, settings.burst).find((spent) => spent.name === 'webhooks')!,
      };
    };
    const drained = await backlog();

    const ms = (value: number) => value.toFixed(0);
    const units = (value: number) => value.toFixed(2);
    if (settings.write) {
      const delays = (values: readonly number[]) => ({ p50Ms: Math.round(percentile(values, 0.5)), p95Ms: Math.round(percentile(values, 0.95)) });
      const results = {
        date: new Date().toISOString(),
        // Benches here run beside other work: the load says how busy the machine was; compare ratios within a run.
        machine: {
          cores: cpus().length,
          loadAverage: loadavg().map((value) => Math.round(value * 10) / 10),
          ...(settings.shared ? { shared: SHARED_NOTE } : {}),
        },
        settings: { paced: settings.paced, rate: settings.rate, burst: settings.burst, writers: 8, endpointConcurrency: endpointConcurrency() },
        paced: phases.map((phase) => ({ origin: phase.origin, webhooks: delays(phase.webhook), counting: delays(phase.counting) })),
        backlog: {
          events: settings.burst,
          deliveredPerSecond: Math.round(drained.deliveredPerSecond),
          consumerEventsPerBusySecond: Math.round(drained.consumerCapacity),
          seconds: Math.round(drained.seconds * 10) / 10,
          eventsTwice: drained.twice,
          unitsPerResponse: {
            requests: Math.round(drained.units.requests * 100) / 100,
            read: Math.round(drained.units.read * 100) / 100,
            write: Math.round(drained.units.write * 100) / 100,
          },
        },
        bursts: bursts.map((phase) => ({
          origin: phase.origin,
          writesPerSecond: Math.round(phase.writesPerSecond),
          deliveredPerSecond: Math.round(phase.webhooksPerSecond),
          deliveredPerWritten: Math.round((phase.webhooksPerSecond / phase.writesPerSecond) * 100) / 100,
          consumerEventsPerBusySecond: Math.round(phase.consumerCapacity),
          countedPerSecond: Math.round(phase.countedPerSecond),
          lastArrivalAfterLastWriteSeconds: Math.round(phase.drainSeconds * 10) / 10,
          webhooks: delays(phase.webhook),
          counting: delays(phase.counting),
          eventsTwice: phase.twice,
          mostRequestsAtOnce: phase.mostOpen,
          stages: Object.fromEntries(phase.stages.map(([stage, values]) => [stage, delays(values)])),
          unitsPerResponse: phase.units.map((spent) => ({
            consumer: spent.name,
            requests: Math.round(spent.requests * 100) / 100,
            read: Math.round(spent.read * 100) / 100,
            write: Math.round(spent.write * 100) / 100,
          })),
        })),
      };
      writeFileSync(WEBHOOKS_RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    }
    const originWords: Record<Origin, string> = {
      server: "a site's server (nothing to screen)",
      visitor: 'visitors, each at an address of its own (screened)',
    };
    return [
      ...(settings.shared ? [`Note: ${SHARED_NOTE}.`, ''] : []),
      `## Delay from a response write to its count and its webhook's arrival (paced: ${settings.paced} responses at ${settings.rate}/s, twice)`,
      '',
      markdownTable(
        ['Responses from', 'Consumer', 'p50 ms', 'p95 ms', 'max ms'],
        phases.flatMap((phase) => [
          [
            originWords[phase.origin],
            'counting: write -> counted',
            ms(percentile(phase.counting, 0.5)),
            ms(percentile(phase.counting, 0.95)),
            ms(phase.counting.at(-1)!),
          ],
          [
            originWords[phase.origin],
            'webhooks: write -> arrival at the receiver',
            ms(percentile(phase.webhook, 0.5)),
            ms(percentile(phase.webhook, 0.95)),
            ms(phase.webhook.at(-1)!),
          ],
        ]),
        [false, false, true, true, true],
      ),
      '',
      'The counting consumer screens each batch before it counts it (functions/stream/screening.ts); the webhooks consumer announces a new',
      "response a rule may hold (a visitor's) once the screening's verdict is in the table, so its delay includes the counting consumer's;",
      "one no rule may hold (a site's server answering without a message) goes out without waiting for it.",
      '',
      `## Throughput (burst: ${settings.burst} responses by 8 writers, twice)`,
      '',
      markdownTable(
        ['Responses from', 'Consumer', 'per second', 'p50 delay ms', 'p95 delay ms'],
        bursts.flatMap((phase) => [
          [
            `${originWords[phase.origin]}, ${phase.writeSeconds.toFixed(1)} s of writes`,
            'webhooks: events delivered',
            phase.webhooksPerSecond.toFixed(0),
            ms(percentile(phase.webhook, 0.5)),
            ms(percentile(phase.webhook, 0.95)),
          ],
          [
            `${originWords[phase.origin]}, ${phase.writeSeconds.toFixed(1)} s of writes`,
            'counting: responses counted',
            phase.countedPerSecond.toFixed(0),
            ms(percentile(phase.counting, 0.5)),
            ms(percentile(phase.counting, 0.95)),
          ],
        ]),
        [false, false, true, true, true],
      ),
      '',
      'Per second = responses / (last arrival or count - first write); during a burst both consumers also',
      'wait for the writes, so the figure is bounded by the write rate. The local readers poll every 250 ms (webhooks) and every 3 s (counting: its batching window).',
      '',
      '## Keeping up with a burst: webhooks against the writes of the same run',
      '',
      markdownTable(
        [
          'Responses from',
          'written per s',
          'delivered per s',
          'delivered / written',
          'last arrival after the last write s',
          'consumer: events per busy s',
          'events twice',
          'most requests at once',
        ],
        bursts.map((phase) => [
          originWords[phase.origin],
          phase.writesPerSecond.toFixed(0),
          phase.webhooksPerSecond.toFixed(0),
          (phase.webhooksPerSecond / phase.writesPerSecond).toFixed(2),
          phase.drainSeconds.toFixed(1),
          phase.consumerCapacity.toFixed(0),
          String(phase.twice),
          String(phase.mostOpen),
        ]),
        [false, true, true, true, true, true, true, true],
      ),
      '',
      "Consumer: events per second of the webhooks consumer's own time (its function's invocations summed, waits for the screening's",
      "verdicts included). Keeping pace is delivered / written near 1; how fast the writers wrote is the run's own figure (written",
      'per s), which depends on the machine and its load.',
      '',
      `## The consumer's own pace: a backlog of ${settings.burst} events`,
      '',
      markdownTable(
        ['Events', 'delivered in s', 'delivered per s', 'consumer: events per busy s', 'events twice', 'requests', 'RRU', 'WRU'],
        [
          [
            String(settings.burst),
            drained.seconds.toFixed(1),
            drained.deliveredPerSecond.toFixed(0),
            drained.consumerCapacity.toFixed(0),
            String(drained.twice),
            units(drained.units.requests),
            units(drained.units.read),
            units(drained.units.write),
          ],
        ],
        [true, true, true, true, true, true, true, true],
      ),
      '',
      "Written by a site's server while the webhooks consumer was stopped and counted meanwhile, then delivered by a new reader from",
      "the stopped one's position: the consumer's pace with neither the writes nor the screening to wait for (per event).",
      '',
      '## Where a burst event waits (write -> arrival, by stage)',
      '',
      markdownTable(
        ['Responses from', 'Stage', 'p50 ms', 'p95 ms', 'max ms'],
        bursts.flatMap((phase) =>
          phase.stages.map(([stage, delays]) => [
            originWords[phase.origin],
            stage,
            ms(percentile(delays, 0.5)),
            ms(percentile(delays, 0.95)),
            ms(delays.at(-1)!),
          ]),
        ),
        [false, false, true, true, true],
      ),
      '',
      "Stages are measured on the same events: the record's hand-over in the bench's reader callback, the request's start and end at the",
      "receiver, the delivery's write on the consumer's client (after the BatchWriteItem that stores it returns; a first attempt goes out",
      "before its delivery is stored). A stage's percentiles do not add up to the whole's.",
      '',
      '## Capacity units per response of each consumer (published rules, scripts/dynamo-meter.ts)',
      '',
      markdownTable(
        ['Responses', 'Consumer', 'requests', 'RRU', 'WRU'],
        [
          ...phases.flatMap((phase) =>
            phase.units.map((spent) => [`paced, ${originWords[phase.origin]}`, spent.name, units(spent.requests), units(spent.read), units(spent.write)]),
          ),
          ...bursts.flatMap((phase) =>
            phase.units.map((spent) => [`burst, ${originWords[phase.origin]}`, spent.name, units(spent.requests), units(spent.read), units(spent.write)]),
          ),
        ],
        [false, false, true, true, true],
      ),
      '',
      "Webhooks: its deliveries' writes and first attempts too. Paced batches hold few responses, so per-batch reads weigh more than in a burst.",
      ...(settings.write ? ['', `Written to ${WEBHOOKS_RESULTS}.`] : []),
    ];
  } finally {
    rmSync(webhooksPosition, { force: true });
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
