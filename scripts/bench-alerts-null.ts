/**
 * `npm run bench:alerts-null`: do alerts stay quiet on stable pages and find the pages that
 * dropped? A simulation (docs/api.md "Alerts"), in two parts:
 *
 * 1. End to end on DynamoDB Local, through the real import, counting consumer and alerts
 *    job: per schema (yes-no, rating, reaction) an account with `--stable` stable pages and
 *    `--dropping` pages of each dropping kind, 35 days of history imported, then a week of
 *    live responses (responses/create's domain function, at their simulated times) with the
 *    job run every simulated hour (168 runs, and the next day's first). The clock is
 *    simulated (scripts/simulated-clock.ts): the service's code sees the week pass. The
 *    job's alerts must equal, one for one, the replay's over the same responses
 *    (scripts/alerts-simulation.ts): that is what lets the replay stand for the job.
 * 2. The replay at full scale, 1,000 stable pages and 20 of each dropping kind, over
 *    `--replications` seeds: the job as built, and for comparison the two-sided p-values it
 *    had before, the one-sided Newcombe p-value it does not use, the same decision on hourly
 *    sliding windows and the per-page rule the job had before those.
 *
 * Pages: stable at 80% good every day; `droppedBefore` at 50% in the 7 days before the week
 * (their drop fills the window at the week's first evaluation); `dropsInWeek` at 50% from
 * the day before the week (their window is wholly dropped from day 6 on, when the goal is to
 * alert within a day). Half of each kind get 5 responses a day, half 10. A response is good
 * with the day's share, from a seeded mulberry32 generator (32-bit integer arithmetic).
 *
 * Why not 1,000 pages on DynamoDB Local: each response is a row, and 1,040 pages at 5 and
 * 10 a day over 42 days are 330,000 rows per schema; the local import writes about 100 to
 * 250 rows a second. The history days that stay in the earlier window all week (days -28 to
 * -8) are imported on one day of them (-18), which changes no window's count and lets the
 * counting consumer coalesce them (one counter write per page and batch instead of per day).
 *
 *   npm run bench:alerts-null
 *   npm run bench:alerts-null -- --stable 20 --dropping 4 --replications 10 --write
 *   npm run bench:alerts-null -- --replay-only --write        # part 2 alone
 *   npm run bench:alerts-null -- --end-to-end-only --write    # part 1 alone
 *
 * `--write` stores the figures in docs/bench-alerts-null.json, each part's in its own
 * section (a part run alone keeps the other's): the two may run at once on two cores.
 */
import { advanceClockTo } from './simulated-clock';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  HISTORY_DAYS,
  LAST_RUN,
  type Outcome,
  outcomeOf,
  type ReplayOptions,
  replayAlerts,
  responseTime,
  responseValue,
  runOf,
  runTime,
  SIMULATED_SCHEMAS,
  type SimulatedAlert,
  type SimulatedResponse,
  type SimulatedSchema,
  simulatedPages,
  simulatedResponses,
} from './alerts-simulation';
import { benchOnDynamoDbLocal, markdownTable, positiveInteger } from './bench-lib';
import type { ResponseCreateModel } from '../functions/api/response-models';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';

const TABLE_NAME = 'bench_alerts_null';
const RESULTS = 'docs/bench-alerts-null.json';
const DAY_MS = 86_400_000;
const SCHEMAS = Object.keys(SIMULATED_SCHEMAS) as SimulatedSchema[];
const FULL = { stable: 1000, dropping: 20 };
const RATE = 0.05;
/** The history days in the earlier window at every day's evaluation, days 0 to 7, and the one day they are imported on. */
const COMPACTED = { from: -28, to: -8, on: -18 };
const log = (text: string) => process.stderr.write(`${text}\n`);

interface EndToEnd {
  schema: SimulatedSchema;
  pages: number;
  rowsImported: number;
  responsesLive: number;
  seconds: { importAndCount: number; week: number };
  /** The job's tests (of the three accounts together) by each day's first run, and by the other runs: 0 when each entity is tested once a day. */
  tests: { firstOfDay: number; later: number };
  outcome: Outcome;
  /** The job's alerts equal the replay's, entity and run. */
  agrees: boolean;
  onlyJob: string[];
  onlyReplay: string[];
}

interface Replayed {
  schema: SimulatedSchema;
  looks: ReplayOptions['looks'];
  pValue: NonNullable<ReplayOptions['pValue']>;
  falseDiscoveryRate: number;
  replications: number;
  /** Sums over the replications. */
  total: Outcome;
  /** The most false alerts in one week. */
  mostFalseInWeek: number;
  /** Alerts of all kinds at the week's first evaluation, summed. */
  alertsAtFirst: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      stable: { type: 'string' },
      dropping: { type: 'string' },
      replications: { type: 'string' },
      seed: { type: 'string' },
      'replay-only': { type: 'boolean', default: false },
      'end-to-end-only': { type: 'boolean', default: false },
      write: { type: 'boolean', default: false },
    },
  });
  const local = { stable: positiveInteger('stable', values.stable, 20), dropping: positiveInteger('dropping', values.dropping, 4) };
  const replications = positiveInteger('replications', values.replications, 10);
  const seed = positiveInteger('seed', values.seed, 1);
  const started = new Date();
  const load = os.loadavg()[0];
  const machine = { cores: os.cpus().length, loadAverageAtStart: load };
  const replayed = values['end-to-end-only'] ? undefined : replays(replications, seed);
  let endToEnd: EndToEnd[] | undefined;
  const report = async () => {
    const lines = reportLines(local, endToEnd, replayed, load);
    if (values.write) {
      const before = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>) : {};
      const parts = {
        ...(replayed ? { replay: { date: started.toISOString(), machine, scenario: FULL, replications, seed, results: replayed } } : {}),
        ...(endToEnd ? { endToEnd: { date: started.toISOString(), machine, scenario: local, seed, results: endToEnd } } : {}),
      };
      writeFileSync(RESULTS, `${JSON.stringify({ ...before, ...parts }, null, 2)}\n`);
      lines.push('', `Written to ${RESULTS}.`);
    }
    return lines;
  };
  if (values['replay-only']) {
    for (const line of await report()) console.log(line);
    return 0;
  }
  return benchOnDynamoDbLocal('Alerts on stable pages: the null simulation', TABLE_NAME, async () => {
    endToEnd = await endToEndRuns(local, seed);
    return report();
  });
}

/**
 * The replay at full scale: the job as built at 0.05 and 0.1; the p-values it replaces (the
 * two-sided p-value for every schema) and the one-sided half of Newcombe's it does not use;
 * and the two ways of looking it replaces.
 */
function replays(replications: number, seed: number): Replayed[] {
  const pages = simulatedPages({ ...FULL, seed });
  const weekStart = Date.UTC(2027, 0, 4);
  const variants: Pick<Replayed, 'looks' | 'pValue' | 'falseDiscoveryRate'>[] = [
    { looks: 'daily', pValue: 'drop', falseDiscoveryRate: RATE },
    { looks: 'daily', pValue: 'drop', falseDiscoveryRate: 0.1 },
    { looks: 'daily', pValue: 'twoSided', falseDiscoveryRate: RATE },
    { looks: 'daily', pValue: 'halved', falseDiscoveryRate: RATE },
    { looks: 'daily', pValue: 'fisherRandomized', falseDiscoveryRate: RATE },
    { looks: 'hourly', pValue: 'drop', falseDiscoveryRate: RATE },
    { looks: 'hourlyUnadjusted', pValue: 'twoSided', falseDiscoveryRate: RATE },
  ];
  const results: Replayed[] = [];
  for (const schema of SCHEMAS) {
    // For a mean the halved p-value is the job's own (Welch's one-sided); Fisher's test is of shares.
    const forShares: NonNullable<ReplayOptions['pValue']>[] = ['halved', 'fisherRandomized'];
    const ofSchema = variants.filter((variant) => !forShares.includes(variant.pValue) || SIMULATED_SCHEMAS[schema].method === 'Newcombe');
    const sums = ofSchema.map((variant) => ({ ...variant, schema, replications, total: emptyOutcome(), mostFalseInWeek: 0, alertsAtFirst: 0 }));
    for (let replication = 0; replication < replications; replication++) {
      const responses = simulatedResponses(pages, seed + replication);
      for (const sum of sums) {
        const alerts = replayAlerts(pages, responses, weekStart, {
          schema,
          falseDiscoveryRate: sum.falseDiscoveryRate,
          looks: sum.looks,
          pValue: sum.pValue,
          seed: seed + replication,
        });
        const outcome = outcomeOf(pages, alerts);
        for (const field of Object.keys(outcome) as (keyof Outcome)[]) sum.total[field] += outcome[field];
        sum.mostFalseInWeek = Math.max(sum.mostFalseInWeek, outcome.falseInWeek);
        sum.alertsAtFirst += alerts.filter((alert) => alert.hour === 0).length;
      }
      log(`Replayed ${schema}, week ${replication + 1} of ${replications}`);
    }
    results.push(...sums);
  }
  return results;
}

function emptyOutcome(): Outcome {
  return { falseAtFirst: 0, droppedAlertedAtFirst: 0, falseInWeek: 0, dropsAlertedWithinADay: 0, setAlerts: 0 };
}

/** The end-to-end run on DynamoDB Local: every schema's account, history, week and comparison. */
async function endToEndRuns(scenario: { stable: number; dropping: number }, seed: number): Promise<EndToEnd[]> {
  const { defaultStore } = await import('../functions/store/entity-store');
  const { ensureTable } = await import('../functions/store/setup');
  const { ensureAccount } = await import('../functions/operations/api-keys');
  const { createProject } = await import('../functions/operations/projects');
  const { createContentSet } = await import('../functions/operations/sets');
  const { importResponses } = await import('../functions/operations/response-import');
  const { createResponse } = await import('../functions/operations/response-collection');
  const { listAlerts } = await import('../functions/operations/alerts');
  const { runAlerts } = await import('../functions/jobs/alerts');
  const { ANONYMOUS } = await import('../functions/api/auth');
  const { startStreamConsumers } = await import('../local/stream-consumers');

  // Day 0 of the week: a UTC midnight 40 days ahead, so every simulated time is the clock's future.
  const weekStart = Math.ceil(Date.now() / DAY_MS) * DAY_MS + 40 * DAY_MS;
  advanceClockTo(weekStart + 5_000);
  const { store, client } = defaultStore();
  await ensureTable(client, TABLE_NAME);
  const pages = simulatedPages({ ...scenario, seed });
  const responses = simulatedResponses(pages, seed);
  const sets = new Map<SimulatedSchema, { accountId: string; setId: string }>();
  for (const schema of SCHEMAS) {
    const now = new Date();
    const account = await ensureAccount(store, `bench-alerts-null-${schema}`, now);
    const project = await createProject(store, account.id, { name: `Null simulation (${schema})` }, now);
    const set = await createContentSet(
      store,
      account.id,
      { projectId: project.id, key: schema, schema, schemaConfig: SIMULATED_SCHEMAS[schema].config, metadata: { name: `${schema} pages` } },
      now,
    );
    sets.set(schema, { accountId: account.id, setId: set.id });
  }
  const consumers = startStreamConsumers(client, TABLE_NAME);
  const drain = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await consumers.drain();
      } catch (error) {
        // A batch past the local handler's 30 s (a busy machine): read again; the watermarks skip what was counted.
        if (attempt >= 30) throw error;
        log(`  draining again after: ${(error as Error).message}`);
      }
    }
  };
  // Day 0's first run: nothing watched yet; it sets the checkpoint the next runs read from.
  await runAlerts(store, new Date());

  const started = performance.now();
  const history = responses.filter((response) => response.day < 0);
  const rows = SCHEMAS.flatMap((schema) =>
    history.map((response, index) => {
      const day = response.day >= COMPACTED.from && response.day <= COMPACTED.to ? COMPACTED.on : response.day;
      return {
        schema,
        row: {
          key: pages[response.page].key,
          value: responseValue(schema, response),
          createdAt: new Date(weekStart + day * DAY_MS + response.minute * 60_000).toISOString(),
          importId: `history-${index}`,
        },
      };
    }),
  );
  // Page by page, so that a call's rows share their counter items.
  rows.sort((a, b) => a.schema.localeCompare(b.schema) || a.row.key.localeCompare(b.row.key));
  log(`Importing ${rows.length.toLocaleString('en')} rows of history (${HISTORY_DAYS} days, ${pages.length} pages a schema)...`);
  const calls: { schema: SimulatedSchema; rows: (typeof rows)[number]['row'][] }[] = [];
  for (let start = 0; start < rows.length; start += 1000) {
    const chunk = rows.slice(start, start + 1000);
    for (const schema of SCHEMAS) {
      const ofSchema = chunk.filter((entry) => entry.schema === schema).map((entry) => entry.row);
      if (ofSchema.length > 0) calls.push({ schema, rows: ofSchema });
    }
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let call = next++; call < calls.length; call = next++) {
        const { accountId, setId } = sets.get(calls[call].schema)!;
        let pending = calls[call].rows;
        // A row refused as `unavailable` (DynamoDB Local overloaded) is sent again, as its error says.
        for (let attempt = 1; pending.length > 0; attempt++) {
          const answer = await importResponses(store, accountId, setId, pending, new Date());
          const refused = answer.rows.filter((entry) => entry.status === 'refused');
          if (refused.some((entry) => entry.error?.error !== 'unavailable') || attempt > 5) throw new Error(`import refused: ${JSON.stringify(refused[0])}`);
          pending = refused.map((entry) => pending[entry.index]);
        }
        if (call % 20 === 19) log(`  ${call + 1} of ${calls.length} calls`);
      }
    }),
  );
  await drain();
  const imported = performance.now();

  log('Living the week: responses as they come, the job every hour...');
  const live = responses.filter((response) => response.day >= 0);
  const byRun = Array.from({ length: LAST_RUN + 1 }, () => [] as SimulatedResponse[]);
  for (const response of live) byRun[runOf(response)].push(response);
  const raisedAt = new Map<string, number>();
  const tests = { firstOfDay: 0, later: 0 };
  for (let hour = 0; hour <= LAST_RUN; hour++) {
    advanceClockTo(runTime(weekStart, hour) - 60_000);
    let index = 0;
    const writes = byRun[hour].flatMap((response) => SCHEMAS.map((schema) => ({ schema, response })));
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let write = writes[index++]; write; write = writes[index++]) {
          const { schema, response } = write;
          const input: ResponseCreateModel = { contentSetId: sets.get(schema)!.setId, key: pages[response.page].key, value: responseValue(schema, response) };
          await createResponse(store, ANONYMOUS, input, { headers: {} }, new Date(responseTime(weekStart, response)));
        }
      }),
    );
    await drain();
    advanceClockTo(runTime(weekStart, hour));
    const result = await runAlerts(store, new Date());
    if (hour % 24 === 0) tests.firstOfDay += result.tested;
    else tests.later += result.tested;
    for (const id of result.alerts) raisedAt.set(id, hour);
    if (hour % 24 === 0) log(`  day ${hour / 24}: ${result.tested} tested, ${result.alerts.length} alerts`);
  }
  const week = performance.now();
  await consumers.stop();

  const results: EndToEnd[] = [];
  for (const schema of SCHEMAS) {
    const { accountId } = sets.get(schema)!;
    const raised: SimulatedAlert[] = [];
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = await listAlerts(store, accountId, { $size: 100, ...(cursor ? { cursor } : {}) });
      for (const alert of page.items) raised.push({ entity: alert.entity === 'contentSet' ? 'set' : alert.name, hour: raisedAt.get(alert.id) ?? -1 });
      cursor = page.cursor;
    }
    const replayed = replayAlerts(pages, responses, weekStart, { schema, falseDiscoveryRate: RATE, looks: 'daily', pValue: 'drop' });
    const names = (alerts: SimulatedAlert[]) => alerts.map((alert) => `${alert.entity}@${alert.hour}`).sort();
    const job = names(raised);
    const replay = names(replayed);
    results.push({
      schema,
      pages: pages.length,
      rowsImported: history.length,
      responsesLive: live.length,
      seconds: { importAndCount: Math.round((imported - started) / 1000), week: Math.round((week - imported) / 1000) },
      tests,
      outcome: outcomeOf(pages, raised),
      agrees: job.join() === replay.join(),
      onlyJob: job.filter((alert) => !replay.includes(alert)),
      onlyReplay: replay.filter((alert) => !job.includes(alert)),
    });
  }
  return results;
}

function reportLines(local: { stable: number; dropping: number }, endToEnd: EndToEnd[] | undefined, replayed: Replayed[] | undefined, load: number): string[] {
  const share = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);
  const mean = (value: number, count: number) => (value / count).toFixed(2);
  const looksName: Record<ReplayOptions['looks'], string> = {
    daily: 'once a day, complete days, Benjamini-Hochberg',
    hourly: 'hourly on windows to now, Benjamini-Hochberg',
    hourlyUnadjusted: 'hourly on windows to now, each page alone',
  };
  const pValueName: Record<Replayed['pValue'], string> = {
    drop: 'of a drop',
    twoSided: 'two-sided',
    halved: 'one-sided Newcombe',
    fisherRandomized: "of Fisher's randomized test (the yardstick: the most powerful unbiased test)",
  };
  const variantName = (entry: Replayed) => {
    if (entry.looks === 'daily' && entry.pValue === 'drop') return `as built: ${looksName.daily}, p ${pValueName.drop}`;
    if (entry.looks === 'daily' && entry.pValue === 'twoSided') return `before: ${looksName.daily}, p ${pValueName.twoSided}`;
    if (entry.looks === 'hourlyUnadjusted') return `before that: ${looksName.hourlyUnadjusted}, p two-sided`;
    return `${looksName[entry.looks]}, p ${pValueName[entry.pValue]}`;
  };
  const lines = [`Machine: ${os.cpus().length} cores, load average ${load.toFixed(1)} at the start (shared with other work: figures are counts, not times).`];
  if (replayed)
    lines.push(
      '',
      `## The replay at full scale: ${FULL.stable.toLocaleString('en')} stable pages, ${FULL.dropping} dropped before the week, ${FULL.dropping} dropping in it`,
      '',
      markdownTable(
        [
          'schema',
          'looks and p-value',
          'rate',
          'weeks',
          'false alerts, first evaluation (mean)',
          'dropped pages alerted, first evaluation',
          'false among its alerts',
          'false alerts in the week (mean, most)',
          'dropping pages alerted within a day',
        ],
        replayed.map((entry) => [
          `${entry.schema} (${SIMULATED_SCHEMAS[entry.schema].method})`,
          variantName(entry),
          String(entry.falseDiscoveryRate),
          String(entry.replications),
          mean(entry.total.falseAtFirst, entry.replications),
          share(entry.total.droppedAlertedAtFirst, FULL.dropping * entry.replications),
          share(entry.total.falseAtFirst, entry.alertsAtFirst),
          `${mean(entry.total.falseInWeek, entry.replications)}, ${entry.mostFalseInWeek}`,
          share(entry.total.dropsAlertedWithinADay, FULL.dropping * entry.replications),
        ]),
        [false, false, true, true, true, true, true, true, true],
      ),
      '',
      'Goals (issue 43), the job as built at the default rate 0.05: at most 5 false alerts in the week over the 1,000 stable pages; at least 80% of the dropped pages alerted within a day of the drop being in the window.',
      ...replayed
        .filter((entry) => entry.looks === 'daily' && entry.pValue === 'drop' && entry.falseDiscoveryRate === RATE)
        .map((entry) => {
          const falseInWeek = entry.total.falseInWeek / entry.replications;
          const found = Math.min(entry.total.dropsAlertedWithinADay, entry.total.droppedAlertedAtFirst) / (FULL.dropping * entry.replications);
          return `- ${entry.schema}: ${falseInWeek.toFixed(2)} false alerts a week (${falseInWeek <= 5 ? 'met' : 'NOT met'}); ${(100 * found).toFixed(1)}% of dropped pages alerted within a day, the lower of the two kinds (${found >= 0.8 ? 'met' : 'NOT met'}).`;
        }),
      ...replayed
        .filter((entry) => entry.pValue === 'fisherRandomized')
        .map(
          (entry) =>
            `- ${entry.schema}, the yardstick (Fisher's randomized test in the same daily Benjamini-Hochberg decision): ${share(entry.total.droppedAlertedAtFirst, FULL.dropping * entry.replications)} of dropped pages at the first evaluation, ${share(entry.total.dropsAlertedWithinADay, FULL.dropping * entry.replications)} within a day, ${mean(entry.total.falseInWeek, entry.replications)} false alerts a week. It is the most powerful unbiased test of one page's fall at any given threshold (Lehmann and Romano, section 4.5): what the procedure could reach with the best honest test of a page.`,
        ),
    );
  if (endToEnd) {
    lines.push(
      '',
      `## End to end on DynamoDB Local: ${local.stable} stable pages and ${local.dropping} of each dropping kind a schema, one account each`,
      '',
      markdownTable(
        [
          'schema',
          'rows imported',
          'live responses',
          'import and count s',
          'week s',
          'tests (3 accounts): first runs, later',
          'false, first evaluation',
          'dropped alerted, first',
          'false in the week',
          'dropping alerted within a day',
          'job = replay',
        ],
        endToEnd.map((entry) => [
          entry.schema,
          entry.rowsImported.toLocaleString('en'),
          entry.responsesLive.toLocaleString('en'),
          String(entry.seconds.importAndCount),
          String(entry.seconds.week),
          `${entry.tests.firstOfDay}, ${entry.tests.later}`,
          String(entry.outcome.falseAtFirst),
          `${entry.outcome.droppedAlertedAtFirst} of ${local.dropping}`,
          String(entry.outcome.falseInWeek),
          `${entry.outcome.dropsAlertedWithinADay} of ${local.dropping}`,
          entry.agrees ? 'yes' : `NO: job only ${entry.onlyJob.join(' ')}; replay only ${entry.onlyReplay.join(' ')}`,
        ]),
        [false, true, true, true, true, true, true, true, true, true, false],
      ),
      '',
      'Times are of a shared machine, for orientation only; the seconds are those of all three schemas together.',
    );
  }
  return lines;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`bench:alerts-null failed: ${(error as Error).stack ?? (error as Error).message}`);
    process.exit(1);
  },
);
