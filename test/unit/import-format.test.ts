import { parse } from 'csv-parse/sync';
import { csvHeader, csvRow, exportRecord, type ExportedResponse } from '../../functions/domain/export-format';
import { inTimeOrder, rowOfCsvRecord, rowOfJson, unguardedCell } from '../../functions/domain/import-format';
import { normalizeValue, parseSchemaConfig, SCHEMAS, type AnySchemaConfig, type Schema } from '../../functions/domain/schemas';

/** Stored values of every schema, with the text a spreadsheet would run as a formula. */
const STORED: Record<Schema, unknown[]> = {
  pulse: ['+'],
  'yes-no': ['y', 'n'],
  reaction: ['+1', '-1', 'heart'],
  rating: [1, 2.5, 5],
  message: ['=HYPERLINK("x")', '-2+3', 'plain, "quoted"\r\nline', '@SUM(1)', '\uFF1Dwide', "'kept"],
  'tagged-message': [{ tag: 'idea' }, { tag: 'error', message: '+cmd' }, { tag: 'other', message: 'ok' }],
};
const config = (schema: Schema) => {
  const parsed = parseSchemaConfig(schema, schema === 'rating' ? { min: 1, max: 5, step: 0.5 } : {});
  if (!parsed.success) throw new Error(`config of ${schema}`);
  return parsed.data as AnySchemaConfig;
};

function exported(schema: Schema, value: unknown, extra: Partial<ExportedResponse> = {}): Record<string, string> {
  const response: ExportedResponse = {
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    createdAt: '2025-01-02T03:04:05.678Z',
    updatedAt: '2025-01-02T03:04:05.678Z',
    state: 'active',
    projectId: 'p',
    contentSetId: 's',
    contentItemId: 'c',
    schema,
    value,
    context: { plan: '=pro', n: 3 },
    profiling: { userId: '-ann', browser: 'Chrome' },
    ...extra,
  };
  const [record] = parse<Record<string, string>>(csvHeader() + csvRow(exportRecord(response, { contentKey: '=page', contentTitle: 'T' })), {
    columns: true,
  });
  return record;
}

describe('an exported CSV row read back for responses/import', () => {
  it.each(SCHEMAS)('gives %s values that store as they were, with key, date, user, context and the response id as importId', (schema) => {
    for (const value of STORED[schema]) {
      const read = rowOfCsvRecord(schema, exported(schema, value));
      if (!('row' in read)) throw new Error(JSON.stringify(read));
      const stored = normalizeValue(schema, config(schema), read.row.value);
      expect(stored).toMatchObject({ ok: true, value });
      expect(read.row).toMatchObject({
        key: '=page',
        createdAt: '2025-01-02T03:04:05.678Z',
        userId: '-ann',
        context: { plan: '=pro', n: 3 },
        importId: 'AAAAAAAAAAAAAAAAAAAAAA',
      });
      expect(read.row.contentId).toBeUndefined();
    }
  });

  it('skips revoked responses, names the item by id without a key, and prefers an importId column', () => {
    expect(rowOfCsvRecord('yes-no', exported('yes-no', 'y', { state: 'revoked' }))).toEqual({ skipped: 'state revoked' });
    const noKey = { ...exported('yes-no', 'y'), contentKey: '', importId: 'mine' };
    expect(rowOfCsvRecord('yes-no', noKey)).toMatchObject({ row: { contentId: 'c', importId: 'mine' } });
    expect(rowOfCsvRecord('yes-no', { key: 'k', value: 'yes', createdAt: '2024-01-01T00:00:00Z' })).toEqual({
      problem: 'no importId (nor a responseId to use as one)',
    });
    expect(rowOfCsvRecord('yes-no', { ...noKey, context: '{oops' })).toEqual({ problem: 'context is not JSON' });
  });

  it('takes off the formula guard only where the export put it', () => {
    expect(unguardedCell("'=1")).toBe('=1');
    expect(unguardedCell("'-1")).toBe('-1');
    expect(unguardedCell("'kept")).toBe("'kept");
    expect(unguardedCell('plain')).toBe('plain');
  });
});

describe('an NDJSON line read back', () => {
  it('is the response view with its id as importId and its item by id', () => {
    const line = { id: 'R', contentItemId: 'C', createdAt: '2025-01-01T00:00:00.000Z', state: 'active', value: { tag: 'idea' }, profiling: { userId: 'u' } };
    expect(rowOfJson(line)).toEqual({ row: { contentId: 'C', value: { tag: 'idea' }, createdAt: '2025-01-01T00:00:00.000Z', userId: 'u', importId: 'R' } });
    expect(rowOfJson({ ...line, state: 'revoked' })).toEqual({ skipped: 'state revoked' });
  });
});

describe('inTimeOrder', () => {
  const entry = (line: number, createdAt: string) => ({ line, row: { createdAt } });

  it('sends the oldest first, by the instant (offsets and date-only dates read as the API reads them)', () => {
    const rows = [entry(2, '2025-03-01T00:00:00Z'), entry(3, '2025-01-01'), entry(4, '2025-03-01T01:30:00+02:00'), entry(5, '2024-12-31T23:59:59.999Z')];
    expect(inTimeOrder(rows).map(({ line }) => line)).toEqual([5, 3, 4, 2]);
  });

  it('keeps the file order of rows at the same instant, and puts rows whose date does not parse last, in their order', () => {
    const rows = [
      entry(2, 'not a date'),
      entry(3, '2025-01-01T00:00:00Z'),
      entry(4, '2025-01-01T00:00:00.000Z'),
      entry(5, ''),
      entry(6, '2024-06-01T00:00:00Z'),
      entry(7, '2025-01-01T01:00:00+01:00'),
    ];
    expect(inTimeOrder(rows).map(({ line }) => line)).toEqual([6, 3, 4, 7, 2, 5]);
  });

  it('leaves its argument as it was', () => {
    const rows = [entry(2, '2025-02-01'), entry(3, '2025-01-01')];
    inTimeOrder(rows);
    expect(rows.map(({ line }) => line)).toEqual([2, 3]);
  });
});
