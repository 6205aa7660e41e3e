/**
 * `npm run bench:rankings`: what the rankings cost, counted (not timed) on an in-memory
 * DynamoDB Local started for the run.
 *
 *   npm run bench:rankings
 *   npm run bench:rankings -- --items 2000 --write
 *
 * Five yes-no sets: one of 100 items, whose responses go through the real write path and
 * the real stream consumer, and four whose history is seeded: one of 1,000 items, one of
 * `--items` items (default 20,000), one of 100 aged items, and the quiet site's: 100 pages
 * answered once a minute for the last 5 weeks and once an hour for a year before (its
 * day items in every ranked window as full as such a site's, which is what a run reads
 * to recount the set and a page). Seeded are their items,
 * their counter items as the consumer would have written them (store/counters.ts's own
 * functions) and change records naming them, since counting tens of thousands of
 * responses through DynamoDB Local's stream takes hours (docs/bench-import.json). Most
 * items have 1 response an hour ago, every tenth 12 (so that `$minCount` 10 ranks some),
 * yes with a share that differs per item; an aged item has 12 responses over 500 days, so
 * its counts and scores differ from period to period, as a site's do after a year. Then the ranker runs
 * (functions/jobs/ranker.ts) and `top` reads. It reports, per ranker run: DynamoDB
 * requests, read and write units by the published rules, for the first run after the seed
 * (every seeded item recounted), an idle run (nothing changed since the last
 * run), quiet runs (one response each on one of 6 items of a set whose list holds 100
 * items, summed, and the same on the aged set and on the quiet site's: what `npm run cost`
 * charges the quiet site), a busy
 * run (100 responses over 20 items), a daily recount (the first run of the next day, every
 * member of every list recounted); and per `contents/top` call of each set, of the project
 * and of the account, sorted by count, best and worst: requests and read units. The same
 * counts at 1,000 and 20,000 items show that a call does not depend on the number of
 * items. The runs are a minute apart, as on AWS, so the bench takes several minutes.
 * `--write` stores the figures in docs/bench-rankings.json, which `npm run cost` prices.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchAccount, benchOnDynamoDbLocal, markdownTable } from './bench-lib';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';

const TABLE_NAME = 'bench_rankings';
const DAY_MS = 86_400_000;
const RANKINGS_RESULTS = 'docs/bench-rankings.json';
/** The ranker's schedule on AWS (lib/ranker-job.ts), and the second of the minute runs are measured at. */
const RUN_EVERY_MS = 60_000;
const RUN_SECOND_MS = 20_000;
/** The pages a quiet run's response lands on, one run each (spread over the list's parts). */
const QUIET_PAGES = [7, 23, 42, 61, 88, 95];
const sleep = (ms: number) => new Promise((settled) => setTimeout(settled, Math.max(0, ms)));

interface RankerRun {
  name: string;
  /** Runs summed in this row (a quiet row sums several, each a minute apart). */
  runs: number;
  responses: number;
  requests: number;
  read: number;
  write: number;
}

interface RankingsResults {
  date: string;
  runs: RankerRun[];
  top: { name: string; items: number; sort: 'count' | 'best' | 'worst'; requests: number; read: number }[];
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { items: { type: 'string' }, write: { type: 'boolean', default: false } } });
  const large = Number(values.items ?? 20_000);
  if (!Number.isInteger(large) || large < 100) throw new Error('--items must be an integer of at least 100');
  return benchOnDynamoDbLocal('Rankings on the local runtime', TABLE_NAME, () => run(large, values.write ?? false));
}

async function run(large: number, write: boolean): Promise<string[]> {
  const { createContentSet } = await import('../functions/operations/sets');
  const { createResponse } = await import('../functions/operations/response-collection');
  const { insertContentItem, newContentItem } = await import('../functions/operations/contents');
  const { normalizeValue } = await import('../functions/domain/schemas');
  const { changesPerItem, counterItem, emptyItemCounters, mergeItemCounters } = await import('../functions/store/counters');
  const { recordRankingChanges } = await import('../functions/store/top-lists');
  const { BatchWriteCommand, PutCommand } = await import('@aws-sdk/lib-dynamodb');
  const { topContentItems } = await import('../functions/operations/top');
  const { runRanker } = await import('../functions/jobs/ranker');
  const { CHANGE_READ_OVERLAP_MS } = await import('../functions/store/top-lists');
  const { ANONYMOUS } = await import('../functions/api/auth');
  const { startStreamConsumers } = await import('../local/stream-consumers');

  const now = new Date();
  const { store, client, meter, account, project } = await benchAccount(TABLE_NAME, 'bench-rankings', now);
  const consumers = startStreamConsumers(client, TABLE_NAME);
  const newSet = (key: string) => createContentSet(store, account.id, { projectId: project.id, key, schema: 'yes-no', metadata: { name: key } }, now);
  const small = await newSet('small');
  const thousand = await newSet('thousand');
  const big = await newSet('big');
  const year = await newSet('year');
  const site = await newSet('site');
  const vote = async (contentSetId: string, key: string) => {
    await createResponse(store, ANONYMOUS, { contentSetId, key, value: 'y' }, { headers: {} }, new Date());
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
  /** Item `index`'s history: 1 response, 12 for every tenth; yes with a share of its own (a fixed spread, so runs compare). */
  const history = (index: number) =>
    Array.from({ length: index % 10 === 0 ? 12 : 1 }, (_, vote) => ((index * 37 + vote * 11) % 100 < (index * 53) % 100 ? 'y' : 'n'));
  /**
   * An aged page's history: 12 responses, one in each of the ranked periods' differences
   * (today, this week, this month, the last 28 days, this year, the last 12 months, earlier),
   * so that its counts and scores differ between periods, as a site's after a year.
   */
  const AGES_DAYS = [0, 0.5, 2, 5, 9, 16, 24, 40, 90, 200, 300, 500];
  const aged = (index: number) => AGES_DAYS.map((_, vote) => ((index * 37 + vote * 11) % 100 < (index * 53) % 100 ? 'y' : 'n'));
  /**
   * The quiet site's history: one response a minute for the last 5 weeks and one an hour for
   * the year before, each on the next of its 100 pages in turn; yes with a share of the page's own.
   */
  const SITE_RECENT_MINUTES = 35 * 24 * 60;
  const SITE_EARLIER_HOURS = 365 * 24;
  const siteHistory = (index: number) => {
    const votes: { value: 'y' | 'n'; at: Date }[] = [];
    const value = (vote: number): 'y' | 'n' => ((index * 37 + vote * 11) % 100 < (index * 53) % 100 ? 'y' : 'n');
    for (let minute = 100 - index; minute <= SITE_RECENT_MINUTES; minute += 100)
      votes.push({ value: value(votes.length), at: new Date(now.getTime() - minute * 60_000) });
    for (let hour = 100 - index; hour <= SITE_EARLIER_HOURS; hour += 100)
      votes.push({ value: value(votes.length), at: new Date(now.getTime() - SITE_RECENT_MINUTES * 60_000 - hour * 3_600_000) });
    return votes;
  };
  /** Seeds the history of `items` items in each set, all an hour ago, `aged`, or the quiet `site`'s: in one pass, since the sets share their project's counter items. */
  const seed = async (seeded: { contentSet: typeof small; items: number; aged?: boolean; site?: boolean }[]) => {
    const hourAgo = new Date(now.getTime() - 3_600_000);
    const changes: Parameters<typeof changesPerItem>[0] = [];
    const bySet = new Map<string, string[]>();
    for (const { contentSet, items, aged: spread, site: quietSite } of seeded) {
      const ids: string[] = [];
      await inParallel(items, async (index) => {
        const item = newContentItem(contentSet, `page-${index}`, {}, now);
        await insertContentItem(store, item);
        ids[index] = item.id;
      });
      bySet.set(contentSet.id, ids);
      ids.forEach((contentItemId, index) => {
        const votes = quietSite
          ? siteHistory(index)
          : (spread ? aged(index) : history(index)).map((value, vote) => ({
              value,
              at: spread ? new Date(now.getTime() - AGES_DAYS[vote] * DAY_MS - 60_000) : hourAgo,
            }));
        votes.forEach(({ value, at }, vote) => {
          const result = normalizeValue('yes-no', {}, value);
          if (!result.ok) throw new Error(result.reason);
          const scope = { accountId: account.id, projectId: project.id, contentSetId: contentSet.id, contentItemId };
          changes.push({ eventId: `${contentItemId}-${vote}`, sequenceNumber: '', scope, createdAt: at, added: result.contribution });
        });
      });
    }
    const puts = changesPerItem(changes).map(({ pk, sk, changes: slot }) =>
      counterItem({ pk, sk }, slot.map((change) => change.counters).reduce(mergeItemCounters, emptyItemCounters()), undefined, now),
    );
    const batches = Array.from({ length: Math.ceil(puts.length / 25) }, (_, batch) => puts.slice(batch * 25, batch * 25 + 25));
    await inParallel(batches.length, async (batch) => {
      let requests = batches[batch].map((Item) => ({ PutRequest: { Item } }));
      while (requests.length > 0) {
        const output = await store.documentClient.send(new BatchWriteCommand({ RequestItems: { [TABLE_NAME]: requests } }));
        requests = (output.UnprocessedItems?.[TABLE_NAME] ?? []) as typeof requests;
      }
    });
    // The ranker's first run reads the records from here on, however long the seed took and
    // the votes after it take (with no checkpoint it would read only the last 10 minutes, and a
    // run reads at most an hour): on a loaded machine it would miss the seed. The item as
    // saveChangeCheckpoint writes it, under the ranker's key (functions/jobs/ranker.ts).
    await store.documentClient.send(
      new PutCommand({ TableName: TABLE_NAME, Item: { pk: 'ranker', sk: 'checkpoint', through: new Date(Date.now() - 1000).toISOString(), seen: [] } }),
    );
    // What the consumer records after its batches: the sets and items changed, a few thousand items a record (an item is at most 400 KB).
    for (const [contentSetId, ids] of bySet) {
      for (let chunk = 0; chunk < ids.length; chunk += 2000) {
        const change = { accountId: account.id, projectId: project.id, contentSetId, items: new Set(ids.slice(chunk, chunk + 2000)), from: '' };
        await recordRankingChanges(store, new Map([[contentSetId, change]]), `seed-${contentSetId}-${chunk}`);
      }
    }
  };
  log(`Seeding the history of 1,000 + ${large} + 100 aged items and the quiet site's 100 pages, writing responses on 100...`);
  await seed([
    { contentSet: thousand, items: 1000 },
    { contentSet: big, items: large },
    { contentSet: year, items: 100, aged: true },
    { contentSet: site, items: 100, site: true },
  ]);
  await inParallel(100, (index) => vote(small.id, `page-${index}`));
  await consumers.drain();
  log('Ranking...');
  const firstStart = meter.snapshot();
  await runRanker(store, new Date());
  const first = meter.since(firstStart);
  // The checkpoint keeps the records read in the last CHANGE_READ_OVERLAP_MS (so that the next run skips
  // them); a run after that margin leaves it as small as a steady minute does.
  await sleep(CHANGE_READ_OVERLAP_MS + 1000);
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
    return { name, runs: 1, responses, requests: used.requests, read: used.estimated.read, write: used.estimated.write };
  };
  /**
   * Quiet runs, one response each on QUIET_PAGES pages in turn, summed: which of the list's
   * parts holds the page decides a run's writes (parts differ in size), so one page would
   * measure its part's luck rather than the list.
   */
  const quiet = async (name: string, contentSetId: string): Promise<RankerRun> => {
    const each: RankerRun[] = [];
    for (const page of QUIET_PAGES) each.push(await measured(name, 1, () => vote(contentSetId, `page-${page}`)));
    const sum = (pick: (run: RankerRun) => number) => each.reduce((total, run) => total + pick(run), 0);
    return {
      name,
      runs: each.length,
      responses: each.length,
      requests: sum((run) => run.requests),
      read: sum((run) => run.read),
      write: sum((run) => run.write),
    };
  };
  const runs: RankerRun[] = [
    {
      name: `first run after the seed (${1300 + large} items recounted)`,
      runs: 1,
      responses: 0,
      requests: first.requests,
      read: first.estimated.read,
      write: first.estimated.write,
    },
  ];
  // What every run costs with nothing to do (its checkpoint, the change records' empty
  // partitions): paid each minute whatever the traffic, so npm run cost charges it as
  // fixed and the other runs' cost above it to their responses.
  runs.push(await measured('idle: no response since the last run', 0, async () => {}));
  runs.push(await quiet(`quiet: one response on one item of a list of 100, ${QUIET_PAGES.length} runs`, small.id));
  runs.push(await quiet(`quiet, a year on: one response on one item of a list of 100 aged pages, ${QUIET_PAGES.length} runs`, year.id));
  runs.push(
    await quiet(
      `quiet site: one response on one of 100 pages answered once a minute for 5 weeks and once an hour for a year before, ${QUIET_PAGES.length} runs`,
      site.id,
    ),
  );
  runs.push(await measured('busy: 100 responses over 20 items of a list of 100', 100, () => inParallel(100, (index) => vote(small.id, `page-${index % 20}`))));
  runs.push(await measured('daily recount (next day: every member of every list)', 0, async () => {}, DAY_MS));

  const top: RankingsResults['top'] = [];
  for (const [name, query, items] of [
    ['a set of 100 items', { contentSetId: small.id }, 100],
    ['a set of 1000 items', { contentSetId: thousand.id }, 1000],
    [`a set of ${large} items`, { contentSetId: big.id }, large],
    [`a project (all five sets, ${1300 + large} items)`, { projectId: project.id, schema: 'yes-no' as const }, 1300 + large],
    ['the account', { schema: 'yes-no' as const }, 1300 + large],
  ] as const) {
    for (const sort of ['count', 'best', 'worst'] as const) {
      const start = meter.snapshot();
      await topContentItems(store, account.id, { ...query, period: 'rolling7d', $size: 10, $sort: sort, $minCount: 10 }, new Date());
      const used = meter.since(start);
      top.push({ name, items, sort, requests: used.requests, read: used.estimated.read });
    }
  }
  await consumers.stop();

  const results: RankingsResults = { date: now.toISOString(), runs, top };
  if (write) writeFileSync(RANKINGS_RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  const figure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
  return [
    '## The ranker, per run',
    '',
    markdownTable(
      ['run', 'runs', 'responses', 'requests', 'RRU', 'WRU'],
      runs.map((entry) => [entry.name, String(entry.runs), String(entry.responses), String(entry.requests), figure(entry.read), figure(entry.write)]),
      [false, true, true, true, true, true],
    ),
    '',
    '## contents/top (rolling7d, $size 10, $minCount 10), per call',
    '',
    markdownTable(
      ['top of', 'items', '$sort', 'requests', 'RRU'],
      top.map((entry) => [entry.name, String(entry.items), entry.sort, String(entry.requests), figure(entry.read)]),
      [false, true, false, true, true],
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
    // DynamoDB Local is stopped by now; the stream consumers' timers would keep the process alive.
    process.exit(1);
  },
);
