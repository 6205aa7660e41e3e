/**
 * `npm run bench:import`: what responses/import costs, counted, and how fast a large history
 * is imported and counted, timed, on an in-memory DynamoDB Local started for the run.
 *
 *   npm run bench:import
 *   npm run bench:import -- --rows 20000 --write
 *   npm run bench:import -- --rows 20000 --order file
 *
 * Cost (counted by the published rules, scripts/dynamo-meter.ts; the same on every machine):
 * requests and write units per row of one call of 1,000 rows on existing items, the same
 * with a userId (its person index), the same rows again (all duplicates: what a retry
 * costs), and 100 rows on 100 new keys (each key's item is a transaction).
 *
 * Speed (timed; depends on the machine): `--rows` rows (default 100,000) over 365 days, each
 * on one of 100 pages and in an hour of its day picked by a hash of its number (so a page
 * has about 2.7 rows a day), imported by the operation (functions/operations/response-import.ts)
 * in calls of 1,000 rows, 4 at a time, in the order the CLI sends them: oldest first
 * (`--order time`, the default; domain/import-format.ts `inTimeOrder`), or as generated
 * (`--order file`: each row on the day after the row before it, a file in no time order,
 * as a direct caller of the API might send it); then counted by the real stream consumer
 * (the local event source mapping, started after the import, so each phase is timed on its
 * own; the cost rows above are counted with them), each phase's rows/s reported. The set's
 * lifetime count is checked against the rows; the counting phase's counter writes and write
 * units per row are counted (the same on every machine): the consumer writes one update per
 * counter item a batch touches, so a batch of rows in time order (a few weeks of pages'
 * days) costs far fewer than one spread over the year (every page's day a row of its own).
 * `--write` stores the figures in docs/bench-import.json.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { inTimeOrder } from '../functions/domain/import-format';
import { benchAccount, benchOnDynamoDbLocal, markdownTable, positiveInteger } from './bench-lib';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';

const TABLE_NAME = 'bench_import';
const IMPORT_RESULTS = 'docs/bench-import.json';
const DAY_MS = 86_400_000;
/** Calls in flight at once, as bin/import.ts sends them. */
const CONCURRENT_CALLS = 4;
const ORDERS = ['time', 'file'] as const;
type Order = (typeof ORDERS)[number];

/** A number in [0, range) from a row's number: a fixed pseudo-random spread (splitmix32's finaliser), the same in every run. */
function spread(index: number, salt: number, range: number): number {
  let hash = Math.imul(index ^ salt, 0x9e3779b1);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) % range;
}

interface CostRow {
  name: string;
  rows: number;
  requests: number;
  write: number;
  read: number;
  writePerRow: number;
}

/** The 1-minute load average, to one decimal: benches here run beside other engineers' work. */
const load = () => Math.round(loadavg()[0] * 10) / 10;

interface ImportResults {
  date: string;
  /** How busy the machine was (1-minute load average) when the timed phases began and ended: the seconds depend on it. */
  machine: { cores: number; loadAverage: { atStart: number; afterImport: number; afterCounting: number } };
  cost: CostRow[];
  speed: {
    rows: number;
    /** The order the rows were sent in (time: as the CLI sends them). */
    order: Order;
    calls: number;
    importSeconds: number;
    importRowsPerSecond: number;
    countSeconds: number;
    countRowsPerSecond: number;
    /** Counter writes (UpdateItem) by the stream consumers while counting, per row: counted, the same on every machine. */
    counterWritesPerRow: number;
    /** Write units of the counting phase per row, by the published rules. */
    countWriteUnitsPerRow: number;
    counted: number;
    resent: number;
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { rows: { type: 'string' }, order: { type: 'string', default: 'time' }, write: { type: 'boolean', default: false } },
  });
  const rows = positiveInteger('--rows', values.rows, 100_000);
  const order = values.order as Order;
  if (!ORDERS.includes(order)) throw new Error(`--order is one of ${ORDERS.join(', ')}`);
  // The full JIT: a run of many minutes repays it (local/dynamodb-local.ts `jit`).
  return benchOnDynamoDbLocal('responses/import on the local runtime', TABLE_NAME, () => run(rows, order, values.write ?? false), { jit: 'full' });
}

async function run(total: number, order: Order, write: boolean): Promise<string[]> {
  const { createContentSet } = await import('../functions/operations/sets');
  const { createContentItem } = await import('../functions/operations/contents');
  const { importResponses } = await import('../functions/operations/response-import');
  const { contentSetStats } = await import('../functions/operations/get-stats');
  const { startStreamConsumers } = await import('../local/stream-consumers');
  const log = (text: string) => process.stderr.write(`${text}\n`);

  const now = new Date();
  const { store, client, meter, account, project } = await benchAccount(TABLE_NAME, 'bench-import', now);
  const newSet = (key: string) => createContentSet(store, account.id, { projectId: project.id, key, schema: 'yes-no', metadata: { name: key } }, now);
  const pages = (count: number) => Array.from({ length: count }, (_, index) => `https://docs.example/page-${index}`);

  // Every row alike in size: fixed-width ids, dates and context, so units do not vary between runs.
  const row = (index: number, prefix: string, key: string, extra: Record<string, unknown> = {}) => ({
    key,
    value: index % 3 === 0 ? 'no' : 'yes',
    createdAt: new Date(Date.UTC(2025, 0, 1) + (index % 365) * DAY_MS + (index % 24) * 3_600_000).toISOString(),
    importId: `${prefix}-${String(index).padStart(7, '0')}`,
    context: { source: 'bench' },
    ...extra,
  });

  const costSet = await newSet('cost');
  for (const key of pages(10)) await createContentItem(store, account.id, { contentSetId: costSet.id, key }, now);
  const cost: CostRow[] = [];
  const measured = async (name: string, rows: ReturnType<typeof row>[], expected: 'imported' | 'duplicate') => {
    const start = meter.snapshot();
    const answer = await importResponses(store, account.id, costSet.id, rows, new Date());
    const used = meter.since(start);
    const missed = answer.rows.find((entry) => entry.status !== expected);
    if (missed) throw new Error(`${name}: row ${missed.index} ${missed.status}, not ${expected}: ${JSON.stringify(missed.error)}`);
    cost.push({
      name,
      rows: rows.length,
      requests: used.requests,
      write: used.estimated.write,
      read: used.estimated.read,
      writePerRow: Math.round((used.estimated.write / rows.length) * 100) / 100,
    });
  };
  const onPages = pages(10);
  const plain = Array.from({ length: 1000 }, (_, index) => row(index, 'plain', onPages[index % 10]));
  const withUser = Array.from({ length: 1000 }, (_, index) =>
    row(index, 'named', onPages[index % 10], { userId: `user-${String(index % 50).padStart(3, '0')}` }),
  );
  log('Measuring the cost of calls...');
  await measured('1,000 rows on existing items', plain, 'imported');
  await measured('1,000 rows on existing items, with a userId', withUser, 'imported');
  await measured('the same 1,000 rows again (duplicates: a retry)', plain, 'duplicate');
  await measured(
    '100 rows on 100 new keys',
    Array.from({ length: 100 }, (_, index) => row(index, 'new', `https://docs.example/new-${String(index).padStart(3, '0')}`)),
    'imported',
  );

  for (const entry of cost) log(`  ${entry.name}: ${entry.requests} requests, ${entry.write} WRU (${entry.writePerRow} per row), ${entry.read} RRU`);
  log(`Importing ${total.toLocaleString('en')} rows in ${order} order...`);
  const speedSet = await newSet('speed');
  const onHundred = pages(100);
  const loadAtStart = load();
  // A year's history as a file might list it: row i on day i mod 365, its page and hour spread.
  const history = Array.from({ length: total }, (_, index) => ({
    row: {
      ...row(index, 'speed', onHundred[spread(index, 1, 100)]),
      createdAt: new Date(Date.UTC(2025, 0, 1) + (index % 365) * DAY_MS + spread(index, 2, 24) * 3_600_000).toISOString(),
    },
  }));
  const sent = (order === 'time' ? inTimeOrder(history) : history).map((entry) => entry.row);
  const started = performance.now();
  const calls = Math.ceil(total / 1000);
  let next = 0;
  let resent = 0;
  await Promise.all(
    Array.from({ length: CONCURRENT_CALLS }, async () => {
      for (let call = next++; call < calls; call = next++) {
        const rows = sent.slice(call * 1000, (call + 1) * 1000);
        let answer = await importResponses(store, account.id, speedSet.id, rows, new Date());
        // A row refused as `unavailable` (DynamoDB Local overloaded on a busy machine) is sent
        // again, as its error says; the retried rows are counted and reported.
        for (let attempt = 1; attempt <= 3 && answer.rows.some((entry) => entry.error?.error === 'unavailable'); attempt++) {
          const again = answer.rows.filter((entry) => entry.error?.error === 'unavailable').map((entry) => entry.index);
          resent += again.length;
          const retried = await importResponses(
            store,
            account.id,
            speedSet.id,
            again.map((index) => rows[index]),
            new Date(),
          );
          answer = {
            rows: answer.rows.map((entry) => (again.includes(entry.index) ? { ...retried.rows[again.indexOf(entry.index)], index: entry.index } : entry)),
          };
        }
        // A row sent again after its write landed unanswered is a duplicate: imported once all the same.
        const missed = answer.rows.find((entry) => entry.status === 'refused');
        if (missed) throw new Error(`call ${call}: row ${missed.index} ${missed.status}: ${JSON.stringify(missed.error)}`);
        if (call % 10 === 9) log(`  ${((call + 1) * 1000).toLocaleString('en')} rows`);
      }
    }),
  );
  const imported = performance.now();
  const loadAfterImport = load();
  // The consumer starts after the import, from the stream's start: the count is timed on its own.
  log('Counting...');
  const beforeCounting = meter.snapshot();
  const consumers = startStreamConsumers(client, TABLE_NAME);
  for (let attempt = 1; ; attempt++) {
    try {
      await consumers.drain();
      break;
    } catch (error) {
      // A batch past the local handler's 60 s (a slow machine): read again, and the watermarks skip what was counted.
      if (attempt >= 30) throw error;
      log(`  draining again after: ${(error as Error).message}`);
    }
  }
  const counted = performance.now();
  const loadAfterCounting = load();
  const counting = meter.since(beforeCounting);
  await consumers.stop();
  const lifetime = await contentSetStats(store, account.id, speedSet.id, { period: 'lifetime' }, new Date());
  if (lifetime.count !== total) throw new Error(`counted ${lifetime.count} of ${total} rows`);

  const perSecond = (ms: number) => Math.round(total / (ms / 1000));
  const perRow = (value: number) => Math.round((value / total) * 1000) / 1000;
  const speed = {
    rows: total,
    order,
    calls,
    importSeconds: Math.round((imported - started) / 100) / 10,
    importRowsPerSecond: perSecond(imported - started),
    countSeconds: Math.round((counted - imported) / 100) / 10,
    countRowsPerSecond: perSecond(counted - imported),
    counterWritesPerRow: perRow(counting.commands.UpdateItemCommand ?? 0),
    countWriteUnitsPerRow: perRow(counting.estimated.write),
    counted: lifetime.count,
    resent,
  };
  const machine = { cores: cpus().length, loadAverage: { atStart: loadAtStart, afterImport: loadAfterImport, afterCounting: loadAfterCounting } };
  const results: ImportResults = { date: now.toISOString(), machine, cost, speed };
  if (write) writeFileSync(IMPORT_RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  const figure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
  return [
    '## Cost per call (counted: the same on every machine)',
    '',
    markdownTable(
      ['call', 'rows', 'requests', 'WRU', 'WRU per row', 'RRU'],
      cost.map((entry) => [entry.name, String(entry.rows), String(entry.requests), figure(entry.write), figure(entry.writePerRow), figure(entry.read)]),
      [false, true, true, true, true, true],
    ),
    '',
    '## Speed (timed: depends on the machine)',
    '',
    `Load average (1 minute) on ${machine.cores} cores: ${loadAtStart} at the start, ${loadAfterImport} after the import, ${loadAfterCounting} after counting.`,
    '',
    markdownTable(
      [
        'rows',
        'order',
        'calls',
        'import s',
        'import rows/s',
        'count s',
        'count rows/s',
        'counter writes per row',
        'count WRU per row',
        'lifetime count',
        'rows sent again',
      ],
      [
        [
          speed.rows.toLocaleString('en'),
          speed.order,
          String(speed.calls),
          String(speed.importSeconds),
          String(speed.importRowsPerSecond),
          String(speed.countSeconds),
          String(speed.countRowsPerSecond),
          figure(speed.counterWritesPerRow),
          figure(speed.countWriteUnitsPerRow),
          speed.counted.toLocaleString('en'),
          speed.resent.toLocaleString('en'),
        ],
      ],
      [true, false, true, true, true, true, true, true, true, true, true],
    ),
    ...(write ? ['', `Written to ${IMPORT_RESULTS}.`] : []),
  ];
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`bench:import failed: ${(error as Error).stack ?? (error as Error).message}`);
    // DynamoDB Local is stopped by now; the stream consumers' timers would keep the process alive.
    process.exit(1);
  },
);
