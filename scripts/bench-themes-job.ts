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
 * steadier figure, wall time is printed too. `npm run cost` turns the figures into dollars.
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
const IMPORT_CHUNK = 1000;

export interface Measured {
  requests: number;
  read: number;
  write: number;
  cpuSeconds: number;
  seconds: number;
}

export interface SizeResult {
  messages: number;
  firstRun: Measured;
  newMessages: Measured & { count: number };
  discovery: Measured;
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
  const { ANONYMOUS } = await import('../functions/api/auth');
  const { startStreamConsumers } = await import('../local/stream-consumers');

  const now = new Date();
  const { store, client, meter, account, project } = await benchAccount(TABLE_NAME, 'bench-themes', now);
  const consumers = startStreamConsumers(client, TABLE_NAME);
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
    for (let start = 0; start < size; start += IMPORT_CHUNK) {
      const rows = texts.slice(start, start + IMPORT_CHUNK).map((text, offset) => {
        const index = start + offset;
        // Spread over the 30 days before today, a fifth of them "yes".
        const createdAt = new Date(now.getTime() - DAY_MS - Math.floor((index * 30 * DAY_MS) / size)).toISOString();
        return { key: `/page-${index % 25}`, value: { tag: index % 5 === 0 ? 'yes' : 'no', message: text }, createdAt, importId: `m-${index}` };
      });
      await importResponses(store, account.id, set.id, rows as never, now);
    }
    await consumers.drain();
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
    await consumers.drain();
    const [, newMessages] = await measure(() => runThemes(store, new Date()));
    const state = (await readThemeState(store, set.id))!;
    const model = await readModel(store, set.id, state.modelId!);
    process.stderr.write('A discovery again...\n');
    const [, discovery] = await measure(() => discover(store, state, new Date(Date.now() + DAY_MS), model));
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
      discovery,
      themesCall: { requests: themesCall.requests, read: themesCall.read },
      listByTheme: { requests: listByTheme.requests, read: listByTheme.read },
    });
  }
  await consumers.stop();

  if (write) writeFileSync(RESULTS, `${JSON.stringify({ date: now.toISOString(), sizes: results }, null, 2)}\n`);
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
    'Per 1,000: the run divided by the messages it handled (all of the set for the first run and a discovery, the new ones for a run after them).',
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
