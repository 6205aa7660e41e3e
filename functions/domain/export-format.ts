/**
 * How responses/export writes a response: one CSV row (RFC 4180, UTF-8, CRLF) or one
 * NDJSON line. Pure: the caller supplies the response and the labels of its set and item.
 *
 * CSV cells hold values as a person reads them (yes/no, the option, the rating, tag and
 * message apart), and a cell that a spreadsheet would run as a formula (it begins with
 * `=`, `+`, `-`, `@`, a tab or a carriage return, or their full-width forms) is prefixed
 * with `'` (csv-stringify's `escape_formulas`).
 */
import { stringify } from 'csv-stringify/sync';
import { readableValue, type Schema } from './schemas';

export const CSV_COLUMNS = [
  'responseId',
  'createdAt',
  'updatedAt',
  'state',
  'projectId',
  'contentSetId',
  'contentSetKey',
  'contentItemId',
  'contentKey',
  'contentTitle',
  'schema',
  'value',
  'tag',
  'message',
  'context',
  'userId',
  'sessionId',
  'os',
  'osVersion',
  'browser',
  'browserVersion',
  'device',
  'deviceBrand',
  'formFactor',
  'country',
  'city',
  'language',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** The profiling columns: every field of ProfilingData (a unit test checks they match PROFILING_FIELDS). */
export const PROFILING_COLUMNS = CSV_COLUMNS.slice(CSV_COLUMNS.indexOf('userId'));

/** What a row needs of a stored response. */
export interface ExportedResponse {
  id: string;
  createdAt: string;
  updatedAt: string;
  state: string;
  projectId: string;
  contentSetId: string;
  contentItemId: string;
  schema: Schema;
  value: unknown;
  context?: Record<string, unknown>;
  profiling?: Record<string, unknown>;
}

/** The set key and the item key and title of a response (blank when the set or item is gone). */
export interface ExportLabels {
  contentSetKey?: string;
  contentKey?: string;
  contentTitle?: string;
}

/** The cells of one response, by column. */
export function exportRecord(response: ExportedResponse, labels: ExportLabels): Record<CsvColumn, string> {
  const readable = readableValue(response.schema, response.value);
  const profiling = response.profiling ?? {};
  const record = {
    responseId: response.id,
    createdAt: response.createdAt,
    updatedAt: response.updatedAt,
    state: response.state,
    projectId: response.projectId,
    contentSetId: response.contentSetId,
    contentSetKey: labels.contentSetKey ?? '',
    contentItemId: response.contentItemId,
    contentKey: labels.contentKey ?? '',
    contentTitle: labels.contentTitle ?? '',
    schema: response.schema,
    ...readable,
    context: response.context && Object.keys(response.context).length > 0 ? JSON.stringify(response.context) : '',
  } as Record<CsvColumn, string>;
  for (const column of PROFILING_COLUMNS) {
    const cell = profiling[column];
    record[column] = cell === undefined || cell === null ? '' : String(cell);
  }
  return record;
}

const CSV_OPTIONS = { record_delimiter: 'windows', escape_formulas: true } as const;

/**
 * One row of cells, CRLF-terminated: quoted where RFC 4180 needs it, formulas neutralized.
 * Every CSV export goes through it (responses/export, audit/export).
 */
export function csvCells(cells: readonly string[]): string {
  return stringify([[...cells]], CSV_OPTIONS);
}

/** The header row, CRLF-terminated. */
export function csvHeader(): string {
  return csvCells(CSV_COLUMNS);
}

/** One record as a CSV row, CRLF-terminated: quoted where RFC 4180 needs it, formulas neutralized. */
export function csvRow(record: Record<CsvColumn, string>): string {
  return csvCells(CSV_COLUMNS.map((column) => record[column]));
}

/** One NDJSON line (the Response as responses/get returns it), LF-terminated. */
export function ndjsonLine(response: unknown): string {
  return `${JSON.stringify(response)}\n`;
}

/** Bytes a text adds to a JSON answer body (its escaped form), which is what the per-call budget counts. */
export function jsonBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text)) - 2;
}
