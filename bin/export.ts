/**
 * `npm run export -- <options>`: exports responses as CSV or NDJSON through the HTTP API
 * (responses/export, page by page with its cursor), locally or from a deployed stack.
 * Pages are written to the output as they arrive, so memory stays flat whatever the size.
 * Run with --help for usage.
 *
 * Exit codes: 0 done, 1 failed (API error, network, file), 2 wrong usage.
 */
import { SingleBar } from 'cli-progress';
import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { Failure, requestOrExitCode, runCli, UsageError, parseCommandLine } from './cli';
import { callApi, DEFAULT_URL, devKey } from './http-api';

const USAGE = `Usage: npm run export -- (--project <id> | --set <id> | --item <id> | --user <id>) [options]

Exports responses, newest first, through the API's responses/export (one call per chunk of
up to 5,000 rows or about 4 MB), with a progress bar on stderr.

Selection (at least one; --project, --set and --item may be combined when they agree;
--user alone exports a person's responses across the account). Ids may begin with "-":
write them as --project=<id>.
  --project <id>        Responses of a project
  --set <id>            Responses of a content set
  --item <id>           Responses of a content item
  --user <id>           Responses naming this user id (profiling.userId or context.$user)
  --from <ISO date>     Created at or after (e.g. 2026-01-01T00:00:00Z)
  --to <ISO date>       Created before
  --state <state>       active (default), revoked or all

Output:
  --format csv|ndjson   Default csv (RFC 4180, UTF-8, CRLF; columns in docs/api.md)
  --out <file>          Write to this file (written as <file>.partial, renamed when complete);
                        default stdout (with npm, use "npm run -s export" to keep npm's banner out)
  --stats               Print a JSON summary on stderr at the end (rows, calls, bytes, peak RSS)

Where:
  --url <base URL>      The API, ending in /v0 (default: $FEEDBACK_API_URL, else ${DEFAULT_URL})
  --key <API key>       A viewer or admin key (default: $FEEDBACK_API_KEY, else for the local
                        default URL the dev viewer key from $DATA_DIR/dev-keys.json, DATA_DIR=.data)

Exit codes: 0 done, 1 failed, 2 wrong usage.

Examples:
  npm run export -- --project <id> --out responses.csv
  npm run export -- --user ann@example.com --state all --format ndjson --out ann.ndjson
  npm run export -- --url https://abc.execute-api.eu-west-1.amazonaws.com/v0 --key fbk_... --set <id> --out set.csv
`;

interface ExportQuery {
  projectId?: string;
  contentSetId?: string;
  contentId?: string;
  userId?: string;
  from?: string;
  to?: string;
  state: 'active' | 'revoked' | 'all';
  format: 'csv' | 'ndjson';
}

interface Settings {
  query: ExportQuery;
  url: string;
  key: string;
  out?: string;
  stats: boolean;
}

function parse(argv: string[]): Settings | 'help' {
  const parsed = parseCommandLine({
    args: argv,
    allowPositionals: false,
    options: {
      project: { type: 'string' },
      set: { type: 'string' },
      item: { type: 'string' },
      user: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      state: { type: 'string', default: 'active' },
      format: { type: 'string', default: 'csv' },
      out: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      stats: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const { values } = parsed;
  if (values.help) return 'help';
  if (!values.project && !values.set && !values.item && !values.user) throw new UsageError('Give --project, --set, --item or --user');
  if (!['active', 'revoked', 'all'].includes(values.state!)) throw new UsageError(`--state must be active, revoked or all, not "${values.state}"`);
  if (!['csv', 'ndjson'].includes(values.format!)) throw new UsageError(`--format must be csv or ndjson, not "${values.format}"`);
  for (const bound of ['from', 'to'] as const) {
    if (values[bound] !== undefined && Number.isNaN(Date.parse(values[bound]!))) throw new UsageError(`--${bound} must be an ISO date-time`);
  }
  const url = (values.url ?? process.env.FEEDBACK_API_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  const key = values.key ?? process.env.FEEDBACK_API_KEY ?? (url === DEFAULT_URL ? devKey('viewer') : undefined);
  if (!key) throw new UsageError('Give --key (or FEEDBACK_API_KEY): a viewer or admin key of the account');
  return {
    query: {
      projectId: values.project,
      contentSetId: values.set,
      contentId: values.item,
      userId: values.user,
      from: values.from,
      to: values.to,
      state: values.state as ExportQuery['state'],
      format: values.format as ExportQuery['format'],
    },
    url,
    key,
    out: values.out,
    stats: values.stats!,
  };
}

/** Active responses of one project, set or item are counted by getStats: a cheap total for the progress bar. */
async function knownTotal(settings: Settings): Promise<number | undefined> {
  const { query } = settings;
  if (query.state !== 'active' || query.from || query.to || query.userId) return undefined;
  const [operation, id] = query.contentId
    ? ['contents/getStats', query.contentId]
    : query.contentSetId
      ? ['sets/getStats', query.contentSetId]
      : ['projects/getStats', query.projectId!];
  try {
    return (await callApi<{ count: number }>(settings, operation, [id])).count;
  } catch {
    return undefined;
  }
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((done, failed) => {
    const onError = (error: Error) => failed(error);
    stream.once('error', onError);
    if (stream.write(text)) {
      stream.off('error', onError);
      done();
    } else {
      stream.once('drain', () => {
        stream.off('error', onError);
        done();
      });
    }
  });
}

function close(stream: WriteStream): Promise<void> {
  return new Promise((done, failed) => stream.end((error?: Error | null) => (error ? failed(error) : done())));
}

interface ExportChunk {
  data: string;
  rows: number;
  cursor?: string;
}

async function main(argv: string[]): Promise<number> {
  const settings = requestOrExitCode('export', USAGE, argv, parse);
  if (typeof settings === 'number') return settings;
  const started = performance.now();
  const total = await knownTotal(settings);
  const bar = new SingleBar({
    stream: process.stderr,
    hideCursor: true,
    format:
      total === undefined
        ? 'Exporting {value} rows | {duration_formatted} | {calls} calls'
        : 'Exporting [{bar}] {percentage}% | {value}/{total} rows | ETA {eta_formatted} | {calls} calls',
    barCompleteChar: '\u2588',
    barIncompleteChar: '\u2591',
    etaBuffer: 20,
  });
  const partial = settings.out ? `${settings.out}.partial` : undefined;
  const output = partial ? createWriteStream(partial) : process.stdout;
  let rows = 0;
  let calls = 0;
  let bytes = 0;
  let cursor: string | undefined;
  bar.start(total ?? 0, 0, { calls });
  try {
    do {
      const chunk = await callApi<ExportChunk>(settings, 'responses/export', [{ ...settings.query, ...(cursor ? { cursor } : {}) }]);
      calls++;
      rows += chunk.rows;
      bytes += Buffer.byteLength(chunk.data);
      await write(output, chunk.data);
      cursor = chunk.cursor;
      // Rows may outnumber the active total while the export runs; the bar grows with them.
      if (total !== undefined && rows > bar.getTotal()) bar.setTotal(rows);
      bar.update(rows, { calls });
    } while (cursor);
    bar.stop();
    if (partial) {
      await close(output as WriteStream);
      renameSync(partial, settings.out!);
    }
  } catch (error) {
    bar.stop();
    if (partial) {
      (output as WriteStream).destroy();
      rmSync(partial, { force: true });
    }
    throw error instanceof Failure ? error : new Failure((error as Error).message);
  }
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(
    `Exported ${rows} rows (${(bytes / 1024 / 1024).toFixed(1)} MiB, ${calls} calls) in ${seconds.toFixed(1)} s${settings.out ? ` to ${settings.out}` : ''}\n`,
  );
  if (settings.stats) {
    const peakRssMiB = Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
    process.stderr.write(`${JSON.stringify({ rows, calls, bytes, seconds: Math.round(seconds * 10) / 10, peakRssMiB })}\n`);
  }
  return 0;
}

runCli('export', async (argv) => {
  try {
    return await main(argv);
  } catch (error) {
    if (error instanceof Failure) {
      process.stderr.write(`export: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
});
