/**
 * `npm run import -- --set <id> <file.csv|file.ndjson>`: imports past responses through the
 * HTTP API (responses/import, up to 1,000 rows a call), locally or into a deployed stack.
 * Reads the columns of responses/export (functions/domain/import-format.ts), so an exported
 * file imports back as it was; every row carries an importId (the exported response id when
 * the file has no importId column), so running it again adds nothing.
 * Run with --help for usage.
 *
 * Exit codes: 0 done, 1 failed (API error, network, file) or rows refused, 2 wrong usage.
 */
import { SingleBar } from 'cli-progress';
import { parse as parseCsv } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import { EARLIEST_IMPORT, ImportRowModel, MAX_IMPORT_ROWS } from '../functions/api/response-models';
import { IMPORT_MAX_BODY_BYTES } from '../functions/api/limits';
import { type ImportRow, inTimeOrder, type ReadRow, rowOfCsvRecord, rowOfJson } from '../functions/domain/import-format';
import { type AnySchemaConfig, normalizeValue, type Schema } from '../functions/domain/schemas';
import { Failure, requestOrExitCode, runCli, UsageError, parseCommandLine } from './cli';
import { type ApiTarget, callApi, DEFAULT_URL, devKey } from './http-api';

const USAGE = `Usage: npm run import -- --set <id> [options] <file.csv | file.ndjson>

Imports past responses into a content set through the API's responses/import (up to
${MAX_IMPORT_ROWS.toLocaleString('en')} rows a call), with a progress bar on stderr and a summary at the end.
Imported responses are counted at their createdAt and are not sent to webhooks. Rows are
sent oldest first, whatever the file's order: a history in time order is counted in fewer writes.

The file: CSV with a header row, or NDJSON (one object a line; by the name's .ndjson or
.jsonl). The columns of responses/export are read (a file it wrote imports back as it was):
  the item     key or contentKey (any set), else contentId or contentItemId (an item of --set)
  the value    value (NDJSON: as is; CSV: the value, tag and message cells, read by the set's schema)
  createdAt    ISO 8601, from 2000 on and not in the future
  importId     the row's id for this set (default: responseId / id): a row is imported once
  userId, context (CSV: JSON)   optional
Rows whose state is not active (revoked) are skipped.

Options:
  --set <id>            The content set to import into (write --set=<id> when it begins with "-")
  --dry-run             Read and check every row (shape, value, date) without writing anything
  --url <base URL>      The API, ending in /v0 (default: $FEEDBACK_API_URL, else ${DEFAULT_URL})
  --key <API key>       An admin key (default: $FEEDBACK_API_KEY, else for the local default URL
                        the dev admin key from $DATA_DIR/dev-keys.json, DATA_DIR=.data)
  --stats               Print a JSON summary on stderr at the end (rows, calls, seconds)

Exit codes: 0 done, 1 failed or rows refused (listed), 2 wrong usage.

Examples:
  npm run import -- --set <id> history.csv
  npm run import -- --set <id> --dry-run responses.ndjson
`;

interface Settings extends ApiTarget {
  contentSetId: string;
  file: string;
  dryRun: boolean;
  stats: boolean;
}

function parse(argv: string[]): Settings | 'help' {
  const parsed = parseCommandLine({
    args: argv,
    allowPositionals: true,
    options: {
      set: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      url: { type: 'string' },
      key: { type: 'string' },
      stats: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (!values.set) throw new UsageError('Give --set <id>: the content set to import into');
  if (positionals.length !== 1) throw new UsageError('Give one file to import (.csv, or .ndjson / .jsonl)');
  const url = (values.url ?? process.env.FEEDBACK_API_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  const key = values.key ?? process.env.FEEDBACK_API_KEY ?? (url === DEFAULT_URL ? devKey('admin') : undefined);
  if (!key) throw new UsageError('Give --key (or FEEDBACK_API_KEY): an admin key of the account');
  return { contentSetId: values.set, file: positionals[0], dryRun: values['dry-run']!, stats: values.stats!, url, key };
}

/** The file's rows, each read into a row, a skip or a problem, with its line (CSV: record) number. */
function readFile(file: string, schema: Schema): { line: number; read: ReadRow }[] {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Failure(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (/\.(nd)?jsonl?$/i.test(file)) {
    return content.split('\n').flatMap((text, index) => {
      if (text.trim() === '') return [];
      try {
        const record = JSON.parse(text) as unknown;
        if (typeof record !== 'object' || record === null || Array.isArray(record)) return [{ line: index + 1, read: { problem: 'not a JSON object' } }];
        return [{ line: index + 1, read: rowOfJson(record as Record<string, unknown>) }];
      } catch {
        return [{ line: index + 1, read: { problem: 'not JSON' } }];
      }
    });
  }
  let records: Record<string, string>[];
  try {
    records = parseCsv(content, { columns: true, bom: true, skip_empty_lines: true });
  } catch (error) {
    throw new Failure(`${file} is not CSV: ${(error as Error).message}`);
  }
  // Line 1 is the header.
  return records.map((record, index) => ({ line: index + 2, read: rowOfCsvRecord(schema, record) }));
}

/** What the API would refuse of a row before writing it: its shape, date range and value (the target is checked by the call). */
function dryRunProblem(row: ImportRow, schema: Schema, config: AnySchemaConfig, now: string): string | undefined {
  const parsed = ImportRowModel.safeParse(row);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  if (parsed.data.createdAt < EARLIEST_IMPORT || parsed.data.createdAt > now) return `createdAt ${row.createdAt} is before 2000 or in the future`;
  const value = normalizeValue(schema, config, row.value);
  return value.ok ? undefined : `value: ${value.reason}`;
}

/** Calls of at most MAX_IMPORT_ROWS rows and, with room for the envelope, the body limit. */
function batches(rows: { line: number; row: ImportRow }[]): { line: number; row: ImportRow }[][] {
  const limit = IMPORT_MAX_BODY_BYTES - 1024;
  const out: { line: number; row: ImportRow }[][] = [];
  let current: { line: number; row: ImportRow }[] = [];
  let bytes = 0;
  for (const entry of rows) {
    const size = Buffer.byteLength(JSON.stringify(entry.row)) + 1;
    if (current.length === MAX_IMPORT_ROWS || (current.length > 0 && bytes + size > limit)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Calls in flight at once: the API writes each call's rows in parallel already. */
const CONCURRENT_CALLS = 4;

interface ImportAnswer {
  rows: {
    index: number;
    status: 'imported' | 'duplicate' | 'refused';
    error?: { error: string; message: string; data?: { fields?: { path: string; message: string }[] } };
  }[];
}

async function main(argv: string[]): Promise<number> {
  const settings = requestOrExitCode('import', USAGE, argv, parse);
  if (typeof settings === 'number') return settings;
  const started = performance.now();
  const set = await callApi<{ schema: Schema; schemaConfig: AnySchemaConfig; name: string }>(settings, 'sets/get', [settings.contentSetId]);
  const lines = readFile(settings.file, set.schema);
  const problems: string[] = [];
  const rows: { line: number; row: ImportRow }[] = [];
  let skipped = 0;
  const now = new Date().toISOString();
  for (const { line, read } of lines) {
    if ('skipped' in read) skipped++;
    else if ('problem' in read) problems.push(`line ${line}: ${read.problem}`);
    else {
      const problem = settings.dryRun ? dryRunProblem(read.row, set.schema, set.schemaConfig, now) : undefined;
      if (problem) problems.push(`line ${line}: ${problem}`);
      else rows.push({ line, row: read.row });
    }
  }

  const counts = { imported: 0, duplicate: 0, refused: problems.length, skipped };
  let calls = 0;
  if (!settings.dryRun && rows.length > 0) {
    const bar = new SingleBar({
      stream: process.stderr,
      hideCursor: true,
      format: 'Importing [{bar}] {percentage}% | {value}/{total} rows | ETA {eta_formatted} | {calls} calls',
      barCompleteChar: '\u2588',
      barIncompleteChar: '\u2591',
      etaBuffer: 20,
    });
    bar.start(rows.length, 0, { calls });
    // Oldest first: each stream batch of the rows then spans few days, so few counter writes.
    const pending = batches(inTimeOrder(rows));
    let done = 0;
    try {
      await Promise.all(
        Array.from({ length: Math.min(CONCURRENT_CALLS, pending.length) }, async () => {
          for (let batch = pending.shift(); batch; batch = pending.shift()) {
            const answer = await callApi<ImportAnswer>(settings, 'responses/import', [settings.contentSetId, batch.map((entry) => entry.row)]);
            calls++;
            for (const result of answer.rows) {
              if (result.status !== 'refused') counts[result.status]++;
              else {
                counts.refused++;
                const fields = result.error?.data?.fields?.map((field) => `${field.path.replace(/^args\.1\.\d+\./, '')}: ${field.message}`).join('; ');
                problems.push(`line ${batch[result.index].line}: ${result.error?.error}: ${result.error?.message}${fields ? ` (${fields})` : ''}`);
              }
            }
            done += batch.length;
            bar.update(done, { calls });
          }
        }),
      );
    } finally {
      bar.stop();
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const summary = settings.dryRun
    ? `Checked ${lines.length} rows of ${settings.file}: ${rows.length} to import, ${problems.length} refused, ${skipped} skipped (not active); nothing written`
    : `Imported ${counts.imported} rows into "${set.name}" (${counts.duplicate} duplicates, ${counts.refused} refused, ${skipped} skipped, ${calls} calls) in ${seconds.toFixed(1)} s`;
  process.stderr.write(`${summary}\n`);
  const shown = problems.sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0])).slice(0, 20);
  for (const problem of shown) process.stderr.write(`  ${problem}\n`);
  if (problems.length > shown.length) process.stderr.write(`  ... and ${problems.length - shown.length} more\n`);
  if (settings.stats) {
    process.stderr.write(`${JSON.stringify({ rows: lines.length, ...counts, calls, seconds: Math.round(seconds * 10) / 10 })}\n`);
  }
  return problems.length > 0 ? 1 : 0;
}

runCli('import', async (argv) => {
  try {
    return await main(argv);
  } catch (error) {
    if (error instanceof Failure) {
      process.stderr.write(`import: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
});
