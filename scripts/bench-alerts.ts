/**
 * `npm run bench:alerts`: what the alerts job costs, counted (not timed) on an in-memory
 * DynamoDB Local started for the run.
 *
 *   npm run bench:alerts
 *   npm run bench:alerts -- --items 200 --write
 *
 * Responses go through the real write path and stream consumer; then the alerts job
 * (functions/jobs/alerts.ts) runs. It reports DynamoDB requests and read and write units
 * by the published rules for: a run with nothing to do (an hour of change records to read,
 * as the hourly schedule on AWS has, none of them there); a run after responses on
 * `--items` items of one set (each item and the set evaluated, the watch list written),
 * per evaluated entity; a run after more responses on the same items that day (their watch
 * entries read, not written again; evaluated again, having too few responses to be tested);
 * and the daily re-evaluation of every watched entity, per entity.
 * `--write` stores the figures in docs/bench-alerts.json.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchAccount, benchOnDynamoDbLocal, markdownTable, positiveInteger } from './bench-lib';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';

const TABLE_NAME = 'bench_alerts';
const RESULTS = 'docs/bench-alerts.json';
const HOUR_MS = 3_600_000;

interface Run {
  name: string;
  evaluated: number;
  requests: number;
  read: number;
  write: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { items: { type: 'string' }, write: { type: 'boolean', default: false } } });
  const items = positiveInteger('--items', values.items, 100);
  return benchOnDynamoDbLocal('The alerts job on the local runtime', TABLE_NAME, () => run(items, values.write ?? false));
}

async function run(items: number, write: boolean): Promise<string[]> {
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
  const { createContentSet } = await import('../functions/operations/sets');
  const { createResponse } = await import('../functions/operations/response-collection');
  const { runAlerts } = await import('../functions/jobs/alerts');
  const { ANONYMOUS } = await import('../functions/api/auth');
  const { startStreamConsumers } = await import('../local/stream-consumers');

  const now = new Date();
  const { store, client, meter, account, project } = await benchAccount(TABLE_NAME, 'bench-alerts', now);
  const consumers = startStreamConsumers(client, TABLE_NAME);
  const today = now.toISOString().slice(0, 10);
  const set = await createContentSet(store, account.id, { projectId: project.id, key: 'helpful', schema: 'yes-no', metadata: { name: 'Helpful?' } }, now);
  /** The checkpoint as an hourly run finds it: the last run an hour ago, today's daily evaluation done or not. */
  const checkpoint = (evaluatedDay?: string) =>
    store.documentClient.send(
      new PutCommand({
        TableName: TABLE_NAME,
        Item: { pk: 'alerts', sk: 'checkpoint', through: new Date(Date.now() - HOUR_MS).toISOString(), seen: [], ...(evaluatedDay ? { evaluatedDay } : {}) },
      }),
    );
  const measured = async (name: string): Promise<Run> => {
    const start = meter.snapshot();
    const result = await runAlerts(store, new Date(), { consoleUrl: 'https://console.example' });
    const used = meter.since(start);
    return { name, evaluated: result.evaluated, requests: used.requests, read: used.estimated.read, write: used.estimated.write };
  };

  const runs: Run[] = [];
  await checkpoint(today);
  runs.push(await measured('nothing to do (an hour of empty change records)'));
  process.stderr.write(`Writing responses on ${items} items...\n`);
  for (let index = 0; index < items; index++) {
    await createResponse(store, ANONYMOUS, { contentSetId: set.id, key: `page-${index}`, value: index % 3 ? 'y' : 'n' }, { headers: {} }, new Date());
  }
  await consumers.drain();
  await checkpoint(today);
  runs.push(await measured(`after responses on ${items} items (their set too)`));
  // The same pages answered again later that day: their watch entries are read, not written again.
  for (let index = 0; index < items; index++) {
    await createResponse(store, ANONYMOUS, { contentSetId: set.id, key: `page-${index}`, value: index % 3 ? 'n' : 'y' }, { headers: {} }, new Date());
  }
  await consumers.drain();
  await checkpoint(today);
  runs.push(await measured(`the same ${items} items answered again that day (watch entries read, not written)`));
  await checkpoint();
  runs.push(await measured('daily re-evaluation of every watched entity'));
  await consumers.stop();

  if (write) writeFileSync(RESULTS, `${JSON.stringify({ date: now.toISOString(), runs }, null, 2)}\n`);
  const idle = runs[0];
  const figure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
  const per = (entry: Run, value: number, base: number) => (entry.evaluated === 0 ? '-' : figure((value - base) / entry.evaluated));
  return [
    '## The alerts job, per run (an hourly run on AWS)',
    '',
    markdownTable(
      ['run', 'evaluated', 'requests', 'RRU', 'WRU', 'requests / entity', 'RRU / entity', 'WRU / entity'],
      runs.map((entry) => [
        entry.name,
        String(entry.evaluated),
        String(entry.requests),
        figure(entry.read),
        figure(entry.write),
        per(entry, entry.requests, idle.requests),
        per(entry, entry.read, idle.read),
        per(entry, entry.write, idle.write),
      ]),
      [false, true, true, true, true, true, true, true],
    ),
    '',
    'Per entity: the run beyond the run with nothing to do, divided by the entities evaluated.',
    ...(write ? ['', `Written to ${RESULTS}.`] : []),
  ];
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`bench:alerts failed: ${(error as Error).stack ?? (error as Error).message}`);
    // DynamoDB Local is stopped by now; the stream consumers' timers would keep the process alive.
    process.exit(1);
  },
);
