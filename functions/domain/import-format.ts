/**
 * How `npm run import` reads a file into responses/import's rows: the columns of
 * responses/export (export-format.ts), so an exported file imports back as it was, and the
 * row's own names (key, contentId, value, createdAt, userId, context, importId) for files
 * made elsewhere. Pure: the CLI reads the file and sends the rows.
 *
 * - CSV: the value comes from the export's value, tag and message cells through the set's
 *   schema (`valueOfCells`), with the export's formula guard taken off (a cell a
 *   spreadsheet would run got a leading `'`; a text that really began with `'` and a
 *   formula character reads back without it: the one loss of the guard). NDJSON: `value`
 *   as it is.
 * - The item: `key` or the export's `contentKey` (which works in any set), else
 *   `contentId` or the export's `contentItemId` (an item of the set imported into).
 * - `importId`, else the export's response id (`responseId`, NDJSON `id`): importing the
 *   same file twice adds nothing.
 * - Rows whose `state` is not `active` are skipped: revoked responses count nowhere.
 * - Profiling other than userId (browser, country, ...) is not imported.
 */
import { type Schema, valueOfCells } from './schemas';

/** A row of responses/import, before the API checks it. */
export interface ImportRow {
  key?: string;
  contentId?: string;
  value: unknown;
  createdAt: string;
  userId?: string;
  context?: Record<string, unknown>;
  importId: string;
}

/** A row to send, one to skip (with why), or one the file gets wrong (with why). */
export type ReadRow = { row: ImportRow } | { skipped: string } | { problem: string };

/** The characters whose cells the export's CSV guards with a leading `'` (csv-stringify's `escape_formulas`). */
const GUARDED = new Set(['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);

/** A CSV cell without the export's formula guard. */
export function unguardedCell(cell: string): string {
  return cell.startsWith("'") && GUARDED.has(cell[1]) ? cell.slice(1) : cell;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function common(record: Record<string, unknown>, value: unknown, context: Record<string, unknown> | undefined, responseId: unknown): ReadRow {
  const state = text(record.state);
  if (state !== undefined && state !== 'active') return { skipped: `state ${state}` };
  const key = text(record.key) ?? text(record.contentKey);
  const contentId = key === undefined ? (text(record.contentId) ?? text(record.contentItemId)) : undefined;
  const importId = text(record.importId) ?? text(responseId);
  if (importId === undefined) return { problem: 'no importId (nor a responseId to use as one)' };
  if (key === undefined && contentId === undefined) return { problem: 'no key or contentId (nor contentKey, contentItemId)' };
  const createdAt = text(record.createdAt);
  if (createdAt === undefined) return { problem: 'no createdAt' };
  const profiling = record.profiling as { userId?: unknown } | undefined;
  const userId = text(record.userId) ?? text(profiling?.userId);
  return {
    row: {
      ...(key === undefined ? { contentId } : { key }),
      value,
      createdAt,
      ...(userId === undefined ? {} : { userId }),
      ...(context === undefined ? {} : { context }),
      importId,
    },
  };
}

/** A CSV record (cells by column name) as a row of a set of `schema`. */
export function rowOfCsvRecord(schema: Schema, cells: Record<string, string>): ReadRow {
  const record = Object.fromEntries(Object.entries(cells).map(([column, cell]) => [column, unguardedCell(cell)]));
  let context: Record<string, unknown> | undefined;
  if (text(record.context) !== undefined) {
    try {
      context = JSON.parse(record.context) as Record<string, unknown>;
    } catch {
      return { problem: 'context is not JSON' };
    }
  }
  const value = valueOfCells(schema, { value: record.value ?? '', tag: record.tag ?? '', message: record.message ?? '' });
  return common(record, value, context, record.responseId);
}

/** An NDJSON line's object (the export's Response, or a row) as a row. */
export function rowOfJson(record: Record<string, unknown>): ReadRow {
  return common(record, record.value, record.context as Record<string, unknown> | undefined, record.responseId ?? record.id);
}

/**
 * Rows in the order of their `createdAt` (oldest first; rows of the same instant, and rows
 * whose date does not parse, which the API refuses, keep the file's order), as the import
 * CLI sends them. Why: the counting consumer writes one counter update per counter item
 * and stream batch (stream/counting.ts), and an item's day counters are the most numerous
 * of them; a batch of history in time order spans a few days, one in the file's order may
 * span the whole year (docs/scaling.md, "Imported history").
 */
export function inTimeOrder<T extends { row: Pick<ImportRow, 'createdAt'> }>(entries: readonly T[]): T[] {
  const at = (entry: T) => {
    const time = Date.parse(entry.row.createdAt);
    return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
  };
  // Array.prototype.sort is stable (ES2019): equal dates keep their order.
  return entries
    .map((entry) => ({ entry, time: at(entry) }))
    .sort((a, b) => (a.time === b.time ? 0 : a.time < b.time ? -1 : 1))
    .map(({ entry }) => entry);
}
