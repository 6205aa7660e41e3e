/**
 * The one machinery of the exports (responses/export, audit/export): a call writes rows
 * of an index into one chunk, and stops at whichever comes first: 5,000 rows, about 4 MB
 * of data (counted as it is encoded in the JSON answer, so the answer stays under
 * Lambda's 6 MB and API Gateway's 10 MB), or a time budget that keeps it well inside the
 * function's timeout however slow the reads are. At least one row is always taken, so
 * paging ends. The cursor is sealed for the account and the list (operations/paging.ts).
 */
import { jsonBytes } from '../domain/export-format';
import { type CursorScope, type IndexSource, openPosition, sealPosition, walkIndex } from './paging';

export const EXPORT_MAX_ROWS = 5000;
export const EXPORT_MAX_BYTES = 4 * 1024 * 1024;
/** API functions time out after 10 s; reads of a chunk take well under a second. */
export const EXPORT_TIME_BUDGET_MS = 6000;
/** Items read (and labelled) per round. */
const EXPORT_CHUNK = 500;

export interface ExportChunk {
  format: 'csv' | 'ndjson';
  /** CSV rows (the header row only in the first chunk) or NDJSON lines. */
  data: string;
  rows: number;
  /** Present while more rows remain. */
  cursor?: string;
}

/** What bounds one call; tests shrink them to exercise chunking on little data. */
export interface ExportLimits {
  maxRows: number;
  maxBytes: number;
  timeBudgetMs: number;
  clock: () => number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = {
  maxRows: EXPORT_MAX_ROWS,
  maxBytes: EXPORT_MAX_BYTES,
  timeBudgetMs: EXPORT_TIME_BUDGET_MS,
  clock: Date.now,
};

export interface ChunkOptions<T> {
  format: 'csv' | 'ndjson';
  list: CursorScope;
  cursor: string | undefined;
  /** The CSV header row, written in the first chunk only. */
  csvHeader: string;
  /** One item as a CSV row or an NDJSON line, in the chunk's format. */
  render: (item: T) => string;
  /** Runs before each read's items are rendered (e.g. batch-reads their labels). */
  prepare?: (items: T[]) => Promise<void>;
  limits?: Partial<ExportLimits>;
}

/** One chunk of an export: the source is read only when there is one (a list that selects nothing has none). */
export async function exportChunk<T>(source: IndexSource<T> | null | undefined, options: ChunkOptions<T>): Promise<ExportChunk> {
  const { maxRows, maxBytes, timeBudgetMs, clock } = { ...DEFAULT_EXPORT_LIMITS, ...options.limits };
  const started = clock();
  const start = await openPosition(options.list, options.cursor);
  const parts: string[] = options.format === 'csv' && options.cursor === undefined ? [options.csvHeader] : [];
  let bytes = parts.length > 0 ? jsonBytes(parts[0]) : 0;
  let rows = 0;
  if (!source) return { format: options.format, data: parts.join(''), rows };

  const walked = await walkIndex(source, {
    start,
    limit: maxRows,
    chunk: Math.min(EXPORT_CHUNK, maxRows),
    visit: async (items) => {
      await options.prepare?.(items);
      let taken = 0;
      for (const item of items) {
        const text = options.render(item);
        const size = jsonBytes(text);
        if (rows > 0 && (bytes + size > maxBytes || clock() - started > timeBudgetMs)) break;
        parts.push(text);
        bytes += size;
        rows++;
        taken++;
      }
      return taken;
    },
  });
  const cursor = walked.more && walked.next !== null ? await sealPosition(options.list, walked.next) : undefined;
  return { format: options.format, data: parts.join(''), rows, ...(cursor === undefined ? {} : { cursor }) };
}
