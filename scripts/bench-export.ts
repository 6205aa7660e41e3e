/**
 * `npm run bench:export`: memory and speed of exporting many responses with the export CLI.
 *
 *   npm run bench:export
 *   npm run bench:export -- --responses 100000 --small 10000 --format csv
 *
 * On an in-memory DynamoDB Local started for the run it seeds responses fast (BatchWriteItem
 * of Response items, exactly what createResponse stores, with context and profiling so rows
 * have a realistic size) in two sets: `--small` in one, the rest in the other. Then the
 * local API server runs in a child process (no stream consumer: nothing is counted, so the
 * CLI shows no total) and the CLI (bin/export.ts) exports the small set, then the whole
 * project, in another child. It reports for each export: rows, calls, MiB, seconds, the
 * CLI's peak RSS (its own `process.resourceUsage().maxRSS`), and the server's RSS before
 * and at its peak during the export (sampled from /proc every 50 ms): the server answers
 * one call at a time, as a Lambda container does, so that peak bounds one call's memory.
 *
 * Flat memory means the peaks of the small and the large export are about the same.
 * Nothing is asserted; numbers depend on the machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { benchAccount, killLeftoverDynamoLocal, log, markdownTable, positiveInteger } from './bench-lib';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';

const ROOT = resolve(__dirname, '..');
const TABLE_NAME = 'bench_export';

/** Resident set size and its high-water mark of a process, in MiB (Linux /proc). */
function memoryOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS until stopped; returns the highest RSS seen. */
function sampleRss(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    const memory = memoryOf(pid);
    if (memory && memory.rss > peak) peak = memory.rss;
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      const memory = memoryOf(pid);
      return Math.max(peak, memory?.rss ?? 0);
    },
  };
}

function collect(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { responses: { type: 'string' }, small: { type: 'string' }, format: { type: 'string', default: 'csv' } },
  });
  const total = positiveInteger('responses', values.responses, 100_000);
  const small = Math.min(total, positiveInteger('small', values.small, 10_000));
  const format = values.format === 'ndjson' ? 'ndjson' : 'csv';

  const { startDynamoDbLocal, freePort } = await import('../local/dynamodb-local');
  log('Starting DynamoDB Local (in memory)...');
  // A busy machine can make its start miss the 30 s deadline: try again a few times.
  let dynamo: Awaited<ReturnType<typeof startDynamoDbLocal>> | undefined;
  for (let attempt = 1; !dynamo; attempt++) {
    try {
      dynamo = await startDynamoDbLocal();
    } catch (error) {
      if (attempt >= 3) throw error;
      log(`  ${(error as Error).message}; retrying`);
    }
  }
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = TABLE_NAME;
  const workDir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  let server: ChildProcess | undefined;
  try {
    const { issueApiKey } = await import('../functions/operations/api-keys');
    const { createContentSet } = await import('../functions/operations/sets');
    const { newContentItem } = await import('../functions/operations/contents');
    const { normalizeValue } = await import('../functions/domain/schemas');
    const { newId } = await import('../functions/domain/text');
    const { userIndexAttributes } = await import('../functions/store/items');
    const now = new Date();
    const { store, account, project } = await benchAccount(TABLE_NAME, 'bench-export', now);
    const viewer = (await issueApiKey(store, { accountId: account.id, level: 'viewer' }, now)).key;
    const sets = [
      await createContentSet(store, account.id, { projectId: project.id, key: 'small', schema: 'tagged-message', metadata: { name: 'Small' } }, now),
      await createContentSet(store, account.id, { projectId: project.id, key: 'large', schema: 'tagged-message', metadata: { name: 'Large' } }, now),
    ];

    async function batchWrite(items: Record<string, unknown>[], concurrency = 8): Promise<void> {
      let next = 0;
      const worker = async () => {
        while (next < items.length) {
          const start = next;
          next += 25;
          let pending = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
          while (pending.length > 0) {
            const answer = await store.documentClient.send(new BatchWriteCommand({ RequestItems: { [TABLE_NAME]: pending } }));
            pending = (answer.UnprocessedItems?.[TABLE_NAME] ?? []) as typeof pending;
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
    }

    log(`Seeding ${total.toLocaleString('en')} responses (${small.toLocaleString('en')} in the small set)...`);
    const seedStarted = performance.now();
    const itemsPerSet = 50;
    const contentItems = sets.map((set) =>
      Array.from({ length: itemsPerSet }, (_, index) =>
        newContentItem(
          { id: set.id, accountId: account.id, projectId: project.id },
          `https://example.com/${set.key}/page-${index}`,
          { title: `Page ${index} — ${set.key}` },
          now,
        ),
      ),
    );
    await batchWrite(contentItems.flat().map((item) => store.entities.ContentItem.put(item).params().Item as Record<string, unknown>));
    const tags = ['idea', 'error', 'other'];
    const SEED_BATCH = 5000;
    for (let offset = 0; offset < total; offset += SEED_BATCH) {
      const batch = Array.from({ length: Math.min(SEED_BATCH, total - offset) }, (_, local) => {
        const index = offset + local;
        const setIndex = index < small ? 0 : 1;
        const set = sets[setIndex];
        const normalized = normalizeValue('tagged-message', set.schemaConfig as never, {
          tag: tags[index % 3],
          message: `Feedback number ${index}: the page was ${index % 2 ? 'helpful' : 'confusing'}, thanks ✓`,
        });
        if (!normalized.ok) throw new Error(normalized.reason);
        const createdAt = new Date(now.getTime() - index * 1000).toISOString();
        const id = newId();
        const userId = index % 5 === 0 ? `user-${index % 1000}@example.com` : undefined;
        return store.entities.Response.put({
          id,
          accountId: account.id,
          projectId: project.id,
          contentSetId: set.id,
          contentItemId: contentItems[setIndex][index % itemsPerSet].id,
          schema: 'tagged-message',
          state: 'active',
          value: normalized.value,
          contribution: normalized.contribution,
          context: { plan: 'pro', seats: index % 50 },
          profiling: {
            os: 'Windows',
            osVersion: '10',
            browser: 'Chrome',
            browserVersion: '120.0.0.0',
            formFactor: 'desktop',
            language: 'en-GB',
            ...(userId ? { userId } : {}),
          },
          createdAt,
          updatedAt: createdAt,
          ...userIndexAttributes({ accountId: account.id, userId, createdAt, id }),
        }).params().Item as Record<string, unknown>;
      });
      await batchWrite(batch);
      process.stderr.write(`\r  ${(offset + batch.length).toLocaleString('en')} written`);
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    log(`\r  ${total.toLocaleString('en')} written in ${seedSeconds.toFixed(1)} s (${Math.round(total / seedSeconds).toLocaleString('en')}/s)`);

    // The API in a child process of its own, so its memory is measured apart from the seeding.
    const port = await freePort();
    const serverScript = `
      const { startLocalRuntime } = require('./local/runtime');
      startLocalRuntime({ port: ${port}, dynamoEndpoint: ${JSON.stringify(dynamo.endpoint)}, tableName: ${JSON.stringify(TABLE_NAME)}, devKeys: {}, consumeStream: false })
        .then((runtime) => process.stdout.write('READY ' + runtime.baseUrl + '\\n'), (error) => { console.error(error); process.exit(1); });`;
    server = spawn(process.execPath, ['--import', 'tsx', '-e', serverScript], {
      cwd: ROOT,
      env: { ...process.env, CURSOR_SECRET: 'bench-export cursor secret, 32+ characters long' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const baseUrl = await new Promise<string>((ready, failed) => {
      let text = '';
      server!.stdout!.on('data', (chunk) => {
        text += chunk;
        const match = /READY (\S+)/.exec(text);
        if (match) ready(match[1]);
      });
      server!.once('exit', (code) => failed(new Error(`the API server exited (${code})`)));
    });

    const rows: string[][] = [];
    const runs = [
      // `--option=value`: ids may begin with "-".
      { name: `set of ${small.toLocaleString('en')}`, args: [`--set=${sets[0].id}`] },
      { name: `project of ${total.toLocaleString('en')}`, args: [`--project=${project.id}`] },
    ];
    for (const run of runs) {
      const out = join(workDir, `export.${format}`);
      // A warm-up call, so the server's baseline includes its loaded modules and clients.
      await fetch(`${baseUrl}/responses/export`, {
        method: 'POST',
        headers: { authorization: `API-KEY ${viewer}` },
        body: JSON.stringify([{ contentSetId: sets[0].id, format }]),
      }).then((answer) => answer.text());
      const serverBefore = memoryOf(server.pid!)!.rss;
      const serverSampler = sampleRss(server.pid!);
      log(`Exporting the ${run.name}...`);
      const cli = spawn(
        process.execPath,
        ['--import', 'tsx', 'bin/export.ts', `--url=${baseUrl}`, `--key=${viewer}`, ...run.args, '--format', format, '--out', out, '--stats'],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const cliSampler = sampleRss(cli.pid!);
      const result = await collect(cli);
      const cliSampled = cliSampler.stop();
      const serverPeak = serverSampler.stop();
      if (result.code !== 0) throw new Error(`the export CLI failed (${result.code}): ${result.stderr}`);
      const stats = JSON.parse(result.stderr.trim().split('\n').at(-1)!) as { rows: number; calls: number; bytes: number; seconds: number; peakRssMiB: number };
      rows.push([
        run.name,
        stats.rows.toLocaleString('en'),
        String(stats.calls),
        (statSync(out).size / 1024 / 1024).toFixed(1),
        stats.seconds.toFixed(1),
        Math.round(stats.rows / stats.seconds).toLocaleString('en'),
        stats.peakRssMiB.toFixed(0),
        cliSampled.toFixed(0),
        serverBefore.toFixed(0),
        serverPeak.toFixed(0),
        (serverPeak - serverBefore).toFixed(0),
      ]);
      rmSync(out, { force: true });
    }
    const header = [
      'export',
      'rows',
      'calls',
      'file MiB',
      's',
      'rows/s',
      'CLI peak RSS MiB',
      'CLI RSS sampled MiB',
      'server RSS before MiB',
      'server peak RSS MiB',
      'server growth MiB',
    ];
    process.stdout.write(`\n## Export (${format}), ${total.toLocaleString('en')} responses seeded in ${seedSeconds.toFixed(0)} s\n\n`);
    process.stdout.write(
      `${markdownTable(
        header,
        rows,
        header.map((_, index) => index > 0),
      )}\n`,
    );
    return 0;
  } finally {
    server?.kill('SIGTERM');
    await dynamo.stop();
    killLeftoverDynamoLocal(dynamo.port);
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`bench:export failed: ${(error as Error).stack ?? error}`);
    process.exit(1);
  },
);
