/**
 * `npm run bench:themes-job`: what themes cost on the table and in the job's Lambda (issue 40
 * §4, "When and at what cost"), on DynamoDB Local with the metered client
 * (scripts/dynamo-meter.ts; units by AWS's published rules): per message-set size,
 *
 * - the job's first run after an import (every day read from the list index, each message
 *   placed and kept, day records written, the first discovery), its requests, RRU and WRU,
 *   and the job process's CPU seconds (DynamoDB Local is another process), per 1,000 messages;
 * - a run after 50 new messages of today (their day read again, each assigned);
 * - a discovery again (the daily one, or after a curation): the newest messages read, moves
 *   and their days rewritten, the model;
 * - a themes call (sets/themes, the last 7 days with compare) and responses/list by the
 *   largest theme: requests and RRU, which must not grow with the messages.
 *
 *   npm run bench:themes-job
 *   npm run bench:themes-job -- --sizes 1000,10000 --write   # docs/bench-themes-job.json
 *
 * CPU seconds are the job process's own (user + system); on a shared machine they are the
 * steadier figure, wall time is printed too. Memory: the process's peak resident set
 * (resourceUsage's maxRSS) after each run, an upper bound of the run's own (the process also
 * holds the seeding). `npm run cost` turns the figures into dollars.
 *
 * The set is seeded as an import writes it, without the import's round trip per row: the
 * pages (content items) by `responses/import` itself (one row per page), every other response
 * as the import builds it (`validValue`, `responseItem`, its id `importedResponseId`) and
 * written 25 to a BatchWriteItem. The counting consumer is not run (it takes about 20 s per
 * 1,000 rows on DynamoDB Local, half an hour at 100,000): the job reads of the counters only
 * each day's write count `v` (it reads a day again when `v` moved), so the set's day counter
 * items are written with their day's count as `v`, and the 50 new messages move today's `v`
 * and ask for a sync (`requestThemesSync`, as an import does) where the consumer's change
 * records would have named the set. The job, the calls and their reads are the real code
 * paths; only the seeding differs from an import and the consumer (and is not measured).
 *
 *   npm run bench:themes-job -- --sizes 1000,10000,20000,100000 --write
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchAccount, benchOnDynamoDbLocal, markdownTable } from './bench-lib';
import { EVALUATION_SITES, loadEvaluationSite } from './themes-evaluation';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';

const TABLE_NAME = 'bench_themes_job';
const RESULTS = 'docs/bench-themes-job.json';
const DAY_MS = 86_400_000;
const NEW_MESSAGES = 50;
/** Responses written at once while seeding (40 BatchWriteItems in parallel). */
const SEED_CHUNK = 1000;
const PAGES = 25;

export interface Measured {
  requests: number;
  read: number;
  write: number;
  cpuSeconds: number;
  seconds: number;
}

export interface SizeResult {
  messages: number;
  /** Wall seconds to seed the set and to count it (the stream drained). */
  seeding?: { seconds: number; countingSeconds: number };
  firstRun: Measured;
  newMessages: Measured & { count: number };
  discovery: Measured & { messagesRead?: number; peakRssMb?: number };
  themesCall: Pick<Measured, 'requests' | 'read'>;
  listByTheme: Pick<Measured, 'requests' | 'read'>;
}

/** The evaluation set's texts, varied so that a large set is not a few texts repeated. */
function benchTexts(count: number): string[] {
  const texts = EVALUATION_SITES.flatMap((site) => loadEvaluationSite(site).map((message) => message.text));
  const additions = ['', ' please', ' again', ' today', ' thanks', '!!', ' seriously', ' since monday', ' asap'];
  return Array.from({ length: count }, (_, i) => `${texts[i % texts.length]}${additions[Math.floor(i / texts.length) % additions.length]}`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { sizes: { type: 'string' }, write: { type: 'boolean', default: false } } });
  const sizes = (values.sizes ?? '1000,10000').split(',').map((size) => Number.parseInt(size, 10));
  if (sizes.some((size) => !Number.isInteger(size) || size < 100)) throw new Error('--sizes: message counts of at least 100, comma separated');
  return benchOnDynamoDbLocal('Themes: the job and the calls on the local runtime', TABLE_NAME, () => run(sizes, values.write ?? false));
}

async function run(sizes: number[], write: boolean): Promise<string[]> {
  const { createContentSet } = await import('../functions/operations/sets');
  const { importResponses } = await import('../functions/operations/response-import');
  const { createResponse } = await import('../functions/operations/response-collection');
  const { scopeThemes } = await import('../functions/operations/themes');
  const { listResponses } = await import('../functions/operations/response-queries');
  const { discover, runThemes } = await import('../functions/jobs/themes');
  const { readModel, readThemeState } = await import('../functions/store/themes');
  const { importedResponseId } = await import('../functions/operations/response-import');
  const { validValue } = await import('../functions/operations/response-targets');
  const { responseItem, keys } = await import('../functions/store/items');
  const { getRawItemsChunked, putItemsBatched } = await import('../functions/store/batch');
  const { ANONYMOUS } = await import('../functions/api/auth');
  const { aggregatePk, daySk } = await import('../functions/store/counters');
  const { requestThemesSync } = await import('../functions/store/themes');
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');

  const now = new Date();
  const { store, meter, account, project } = await benchAccount(TABLE_NAME, 'bench-themes', now);
  /** Moves the set's day counter as the counting consumer would: its write count `v`, all the job reads of it. */
  const countDay = (setId: string, day: string, count: number) =>
    store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { pk: aggregatePk('contentSet', setId), sk: daySk(day) },
        UpdateExpression: 'ADD v :count',
        ExpressionAttributeValues: { ':count': count },
      }),
    );
  const measure = async <T>(work: () => Promise<T>): Promise<[T, Measured]> => {
    const start = meter.snapshot();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await work();
    const { user, system } = process.cpuUsage(cpu);
    const used = meter.since(start);
    return [
      result,
      {
        requests: used.requests,
        read: used.estimated.read,
        write: used.estimated.write,
        cpuSeconds: (user + system) / 1e6,
        seconds: (performance.now() - started) / 1000,
      },
    ];
  };

  const results: SizeResult[] = [];
  for (const size of sizes) {
    process.stderr.write(`Importing ${size} messages...\n`);
    const set = await createContentSet(
      store,
      account.id,
      {
        projectId: project.id,
        key: `themes-${size}`,
        schema: 'tagged-message',
        schemaConfig: {
          tags: [
            { value: 'no', sentiment: -1 },
            { value: 'yes', sentiment: 1 },
          ],
        },
        metadata: { name: `Themes ${size}` },
      },
      now,
    );
    const texts = benchTexts(size);
    const seedStarted = performance.now();
    // Spread over the 30 days before today, a fifth of them "yes".
    const row = (index: number) => ({
      key: `/page-${index % PAGES}`,
      value: { tag: index % 5 === 0 ? 'yes' : 'no', message: texts[index] },
      createdAt: new Date(now.getTime() - DAY_MS - Math.floor((index * 30 * DAY_MS) / size)).toISOString(),
      importId: `m-${index}`,
    });
    // The pages, by the import itself: one row each.
    const first = Array.from({ length: PAGES }, (_, index) => row(index));
    await importResponses(store, account.id, set.id, first as never, now);
    const pageOf = new Map(
      (
        await getRawItemsChunked(
          store,
          first.map((entry) => keys.response(importedResponseId(set.id, entry.importId))),
        )
      ).map((item, index) => [first[index].key, String(item!.contentItemId)]),
    );
    for (let start = PAGES; start < size; start += SEED_CHUNK) {
      const items = Array.from({ length: Math.min(SEED_CHUNK, size - start) }, (_, offset) => {
        const entry = row(start + offset);
        const value = validValue(set, entry.value);
        const id = importedResponseId(set.id, entry.importId);
        return responseItem({
          id,
          accountId: set.accountId,
          projectId: set.projectId,
          contentSetId: set.id,
          contentItemId: pageOf.get(entry.key)!,
          schema: set.schema,
          state: 'active',
          value: value.value,
          contribution: value.contribution,
          importId: entry.importId,
          createdAt: entry.createdAt,
          updatedAt: entry.createdAt,
        } as never);
      });
      await putItemsBatched(store, items);
    }
    const seeded = performance.now();
    const perDay = new Map<string, number>();
    for (let index = 0; index < size; index++) {
      const day = row(index).createdAt.slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    await Promise.all([...perDay].map(([day, count]) => countDay(set.id, day, count)));
    const seeding = { seconds: (seeded - seedStarted) / 1000, countingSeconds: (performance.now() - seeded) / 1000 };
    process.stderr.write(`Seeded in ${seeding.seconds.toFixed(1)} s, counted in ${seeding.countingSeconds.toFixed(1)} s.\n`);
    process.stderr.write('The first run...\n');
    const [, firstRun] = await measure(() => runThemes(store, new Date()));
    for (let index = 0; index < NEW_MESSAGES; index++) {
      await createResponse(
        store,
        ANONYMOUS,
        { contentSetId: set.id, key: `/page-${index % 25}`, value: { tag: 'no', message: texts[(index * 7) % texts.length] } },
        { headers: {} },
        new Date(),
      );
    }
    await countDay(set.id, new Date().toISOString().slice(0, 10), NEW_MESSAGES);
    await requestThemesSync(store, set.id, new Date(), {});
    const [, newMessages] = await measure(() => runThemes(store, new Date()));
    const state = (await readThemeState(store, set.id))!;
    const model = await readModel(store, set.id, state.modelId!);
    process.stderr.write('A discovery again...\n');
    const [, discovery] = await measure(() => discover(store, state, new Date(Date.now() + DAY_MS), model));
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    const messagesRead = (await readThemeState(store, set.id))!.discoveredMessages;
    const [answer, themesCall] = await measure(() =>
      scopeThemes(store, account.id, { kind: 'sets', id: set.id }, { period: 'rolling7d', compare: 'previous', $size: 10, $examples: 3 } as never, new Date()),
    );
    const [, listByTheme] = await measure(() =>
      listResponses(store, account.id, {
        contentSetId: set.id,
        theme: answer.themes[0]?.id ?? 'other',
        from: answer.from,
        to: answer.to,
        state: 'active',
        $size: 10,
      }),
    );
    results.push({
      messages: size,
      firstRun,
      newMessages: { ...newMessages, count: NEW_MESSAGES },
      seeding,
      discovery: { ...discovery, messagesRead, peakRssMb },
      themesCall: { requests: themesCall.requests, read: themesCall.read },
      listByTheme: { requests: listByTheme.requests, read: listByTheme.read },
    });
    // After each size: a long run stopped later keeps the sizes it finished.
    if (write) writeFileSync(RESULTS, `${JSON.stringify({ date: now.toISOString(), sizes: results }, null, 2)}\n`);
  }

  const figure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
  const per1000 = (value: number, messages: number) => figure((value * 1000) / messages);
  return [
    '## The themes job, per message-set size',
    '',
    markdownTable(
      ['messages', 'run', 'requests', 'RRU', 'WRU', 'CPU s', 'wall s', 'RRU / 1,000', 'WRU / 1,000', 'CPU s / 1,000'],
      results.flatMap((result) =>
        (
          [
            ['first run (import)', result.firstRun, result.messages],
            [`${NEW_MESSAGES} new messages`, result.newMessages, NEW_MESSAGES],
            ['discovery again', result.discovery, result.messages],
          ] as const
        ).map(([name, entry, count]) => [
          String(result.messages),
          name,
          String(entry.requests),
          figure(entry.read),
          figure(entry.write),
          figure(entry.cpuSeconds),
          figure(entry.seconds),
          per1000(entry.read, count),
          per1000(entry.write, count),
          per1000(entry.cpuSeconds, count),
        ]),
      ),
      [true, false, true, true, true, true, true, true, true, true],
    ),
    '',
    '## A themes call and a list by theme (must not grow with the messages)',
    '',
    markdownTable(
      ['messages', 'sets/themes requests', 'sets/themes RRU', 'responses/list by theme requests', 'its RRU'],
      results.map((result) => [
        String(result.messages),
        String(result.themesCall.requests),
        figure(result.themesCall.read),
        String(result.listByTheme.requests),
        figure(result.listByTheme.read),
      ]),
      [true, true, true, true, true],
    ),
    '',
    '## A discovery: time, memory and units per 1,000 messages read (one Lambda: <= 1,769 MB, <= 60 s)',
    '',
    markdownTable(
      ['messages in the set', 'messages read', 'CPU s', 'wall s', 'peak RSS MB', 'CPU s / 1,000', 'RRU / 1,000', 'WRU / 1,000'],
      results.map((result) => {
        const read = result.discovery.messagesRead ?? result.messages;
        return [
          String(result.messages),
          String(read),
          figure(result.discovery.cpuSeconds),
          figure(result.discovery.seconds),
          String(result.discovery.peakRssMb ?? ''),
          per1000(result.discovery.cpuSeconds, read),
          per1000(result.discovery.read, read),
          per1000(result.discovery.write, read),
        ];
      }),
      [true, true, true, true, true, true, true, true],
    ),
    '',
    'Per 1,000: the run divided by the messages it handled (all of the set for the first run and a discovery, the new ones for a run after them).',
    "Peak RSS: the bench process's peak resident set after the discovery (resourceUsage maxRSS), an upper bound of the discovery's own: the process also seeded the set and holds the earlier sizes' garbage; DynamoDB Local is another process.",
    `Seeding (not measured): the pages by responses/import, the other responses as the import builds them, 25 to a BatchWriteItem, each day's counter write count set (${results.map((result) => `${result.messages.toLocaleString('en-US')}: ${figure(result.seeding?.seconds ?? 0)} s + ${figure(result.seeding?.countingSeconds ?? 0)} s for the counters`).join('; ')}).`,
    "Requests and units are counts that do not depend on the machine; CPU and wall seconds do: measured on a shared 2-core machine (other engineers' tests and benches running), so they are high.",
    ...(write ? ['', `Written to ${RESULTS}.`] : []),
  ];
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`bench:themes-job failed: ${(error as Error).stack ?? (error as Error).message}`);
    process.exit(1);
  },
);
