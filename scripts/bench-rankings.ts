/**
 * `npm run bench:rankings`: what the rankings cost, counted (not timed) on an in-memory
 * DynamoDB Local started for the run.
 *
 *   npm run bench:rankings
 *   npm run bench:rankings -- --items 2000 --write
 *
 * Responses go through the real write path and the real stream consumer (the local event
 * source mapping); then the ranker runs (functions/jobs/ranker.ts) and `top` reads. It
 * reports, per ranker run: DynamoDB requests, read and write units by the published
 * rules, for an idle run (nothing changed since the last run), a quiet run (one response on one item of a set whose list holds 100 items),
 * a busy run (100 responses over 20 items), a daily recount (the first run of the next
 * day, every member of the list recounted); and per `contents/top` call of a set, of a
 * project and of an account: requests and read units, for a set of 100 items and one of
 * `--items` items: the same counts for both show that a call does not depend on the
 * number of items. The runs are a minute apart, as on AWS, so the bench takes about five
 * minutes. `--write` stores the figures in docs/bench-rankings.json, which
 * `npm run cost` prices.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchOnDynamoDbLocal, markdownTable } from './bench-lib';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';

const TABLE_NAME = 'bench_rankings';
const DAY_MS = 86_400_000;
const RANKINGS_RESULTS = 'docs/bench-rankings.json';
/** The ranker's schedule on AWS (lib/ranker-job.ts), and the second of the minute runs are measured at. */
const RUN_EVERY_MS = 60_000;
const RUN_SECOND_MS = 20_000;
const sleep = (ms: number) => new Promise((settled) => setTimeout(settled, Math.max(0, ms)));

interface RankerRun {
  name: string;
  responses: number;
  requests: number;
  read: number;
  write: number;
}

interface RankingsResults {
  date: string;
  runs: RankerRun[];
  top: { name: string; items: number; requests: number; read: number }[];
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { items: { type: 'string' }, write: { type: 'boolean', default: false } } });
  const large = Number(values.items ?? 1000);
  if (!Number.isInteger(large) || large < 100) throw new Error('--items must be an integer of at least 100');
  return benchOnDynamoDbLocal('Rankings on the local runtime', TABLE_NAME, () => run(large, values.write ?? false));
}

async function run(large: number, write: boolean): Promise<string[]> {
  const { defaultStore } = await import('../functions/store/entity-store');
  const { ensureTable } = await import('../functions/store/setup');
  const { meterClient } = await import('./dynamo-meter');
  const { ensureAccount } = await import('../functions/operations/api-keys');
  const { createProject } = await import('../functions/operations/projects');
  const { createContentSet } = await import('../functions/operations/sets');
  const { createResponse } = await import('../functions/operations/response-collection');
  const { topContentItems } = await import('../functions/operations/top');
  const { runRanker, OVERLAP_MS } = await import('../functions/jobs/ranker');
  const { ANONYMOUS } = await import('../functions/api/auth');
  const { startStreamConsumers } = await import('../local/stream-consumers');

  const { store, client } = defaultStore();
  await ensureTable(client, TABLE_NAME);
  const meter = meterClient(client);
  const consumers = startStreamConsumers(client, TABLE_NAME);
  const now = new Date();
  const account = await ensureAccount(store, 'bench-rankings', now);
  const project = await createProject(store, account.id, { name: 'Bench' }, now);
  const newSet = (key: string) => createContentSet(store, account.id, { projectId: project.id, key, schema: 'pulse', metadata: { name: key } }, now);
  const small = await newSet('small');
  const big = await newSet('big');
  const vote = async (contentSetId: string, key: string) => {
    await createResponse(store, ANONYMOUS, { contentSetId, key, value: '+' }, { headers: {} }, new Date());
  };
  const inParallel = async (count: number, work: (index: number) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < count) await work(next++);
      }),
    );
  };
  const log = (text: string) => process.stderr.write(`${text}\n`);

  log(`Writing responses on 100 + ${large} items...`);
  await inParallel(100, (index) => vote(small.id, `page-${index}`));
  await inParallel(large, (index) => vote(big.id, `page-${index}`));
  await consumers.drain();
  await runRanker(store, new Date());
  // The checkpoint keeps the records read in the last OVERLAP_MS (so that the next run skips
  // them); a run after that margin leaves it as small as a steady minute does.
  await sleep(OVERLAP_MS + 1000);
  // Runs are measured a minute apart, as EventBridge runs the ranker on AWS, and 20 s past
  // a minute: each one's window (the minute since the last and the overlap) then spans
  // two minutes of change-record partitions, whatever the machine's speed.
  await sleep(60_000 - ((Date.now() - RUN_SECOND_MS) % 60_000));
  await runRanker(store, new Date());
  let lastRun = Date.now();

  const measured = async (name: string, responses: number, before: () => Promise<void>, shiftMs = 0): Promise<RankerRun> => {
    await before();
    await consumers.drain();
    await sleep(lastRun + RUN_EVERY_MS - Date.now());
    const start = meter.snapshot();
    lastRun = Date.now();
    await runRanker(store, new Date(lastRun + shiftMs));
    const used = meter.since(start);
    return { name, responses, requests: used.requests, read: used.estimated.read, write: used.estimated.write };
  };
  const runs: RankerRun[] = [];
  // What every run costs with nothing to do (its checkpoint, the change records' empty
  // partitions): paid each minute whatever the traffic, so npm run cost charges it as
  // fixed and the other runs' cost above it to their responses.
  runs.push(await measured('idle: no response since the last run', 0, async () => {}));
  runs.push(await measured('quiet: one response on one item of a list of 100', 1, () => vote(small.id, 'page-7')));
  runs.push(await measured('busy: 100 responses over 20 items of a list of 100', 100, () => inParallel(100, (index) => vote(small.id, `page-${index % 20}`))));
  runs.push(await measured('daily recount (next day: every member of every list)', 0, async () => {}, DAY_MS));

  const top: RankingsResults['top'] = [];
  for (const [name, query, items] of [
    ['a set of 100 items', { contentSetId: small.id }, 100],
    [`a set of ${large} items`, { contentSetId: big.id }, large],
    [`a project (both sets, ${100 + large} items)`, { projectId: project.id }, 100 + large],
    ['the account', {}, 100 + large],
  ] as const) {
    const start = meter.snapshot();
    await topContentItems(store, account.id, { ...query, period: 'rolling7d', $size: 10, $sort: 'count', $minCount: 1 }, new Date());
    const used = meter.since(start);
    top.push({ name, items, requests: used.requests, read: used.estimated.read });
  }
  await consumers.stop();

  const results: RankingsResults = { date: now.toISOString(), runs, top };
  if (write) writeFileSync(RANKINGS_RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  const figure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
  return [
    '## The ranker, per run',
    '',
    markdownTable(
      ['run', 'responses', 'requests', 'RRU', 'WRU'],
      runs.map((entry) => [entry.name, String(entry.responses), String(entry.requests), figure(entry.read), figure(entry.write)]),
      [false, true, true, true, true],
    ),
    '',
    '## contents/top (rolling7d, $size 10), per call',
    '',
    markdownTable(
      ['top of', 'items', 'requests', 'RRU'],
      top.map((entry) => [entry.name, String(entry.items), String(entry.requests), figure(entry.read)]),
      [false, true, true, true],
    ),
    ...(write ? ['', `Written to ${RANKINGS_RESULTS}.`] : []),
  ];
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`bench:rankings failed: ${(error as Error).stack ?? (error as Error).message}`);
    process.exitCode = 1;
  },
);
