import { parse } from 'csv-parse/sync';
import {
  CSV_COLUMNS,
  csvHeader,
  csvRow,
  exportRecord,
  jsonBytes,
  ndjsonLine,
  PROFILING_COLUMNS,
  type ExportedResponse,
  type ExportLabels,
} from '../../functions/domain/export-format';
import { readableValue, type Schema } from '../../functions/domain/schemas';
import { PROFILING_FIELDS } from '../../functions/domain/profiling';

const base: ExportedResponse = {
  id: 'r1',
  createdAt: '2025-01-02T03:04:05.678Z',
  updatedAt: '2025-01-02T03:04:06.000Z',
  state: 'active',
  projectId: 'p1',
  contentSetId: 's1',
  contentItemId: 'c1',
  schema: 'yes-no',
  value: 'y',
};
const labels = { contentSetKey: 'faq', contentKey: 'https://site.example/a?b=1&c=2', contentTitle: 'A page' };

/** The one row a record becomes, parsed back. */
function roundTrip(response: ExportedResponse, rowLabels: ExportLabels = labels): Record<string, string> {
  const [row] = parse<Record<string, string>>(csvHeader() + csvRow(exportRecord(response, rowLabels)), { columns: true, record_delimiter: '\r\n' });
  return row;
}

describe('CSV columns', () => {
  it('are the documented 27, in order, ending with every profiling field', () => {
    expect(CSV_COLUMNS).toEqual([
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
    ]);
    expect([...PROFILING_COLUMNS].sort()).toEqual([...PROFILING_FIELDS].sort());
    expect(csvHeader()).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
  });
});

describe('values as a person reads them', () => {
  it.each([
    ['pulse', '+', { value: '+', tag: '', message: '' }],
    ['yes-no', 'y', { value: 'yes', tag: '', message: '' }],
    ['yes-no', 'n', { value: 'no', tag: '', message: '' }],
    ['reaction', 'heart', { value: 'heart', tag: '', message: '' }],
    ['reaction', '+1', { value: '+1', tag: '', message: '' }],
    ['rating', 4, { value: '4', tag: '', message: '' }],
    ['rating', 2.5, { value: '2.5', tag: '', message: '' }],
    ['rating', -2, { value: '-2', tag: '', message: '' }],
    ['message', 'Nice page', { value: '', tag: '', message: 'Nice page' }],
    ['tagged-message', { tag: 'idea' }, { value: '', tag: 'idea', message: '' }],
    ['tagged-message', { tag: 'error', message: 'Broken link' }, { value: '', tag: 'error', message: 'Broken link' }],
  ])('%s %j', (schema, value, expected) => {
    expect(readableValue(schema as Schema, value)).toEqual(expected);
  });

  it('fills every column of a full response', () => {
    const row = roundTrip({
      ...base,
      schema: 'tagged-message',
      value: { tag: 'idea', message: 'More examples, please' },
      context: { $user: 'ann@example.com', plan: 'pro', seats: 3, beta: true },
      profiling: Object.fromEntries(PROFILING_FIELDS.map((field) => [field, `${field} value`])),
    });
    expect(row).toEqual({
      responseId: 'r1',
      createdAt: base.createdAt,
      updatedAt: base.updatedAt,
      state: 'active',
      projectId: 'p1',
      contentSetId: 's1',
      contentSetKey: 'faq',
      contentItemId: 'c1',
      contentKey: labels.contentKey,
      contentTitle: 'A page',
      schema: 'tagged-message',
      value: '',
      tag: 'idea',
      message: 'More examples, please',
      context: '{"$user":"ann@example.com","plan":"pro","seats":3,"beta":true}',
      ...Object.fromEntries(PROFILING_FIELDS.map((field) => [field, `${field} value`])),
    });
  });

  it('leaves cells of absent data empty (no context, no profiling, no labels)', () => {
    const row = roundTrip(base, {});
    expect(row.context).toBe('');
    expect(row.contentTitle).toBe('');
    expect(row.contentSetKey).toBe('');
    for (const field of PROFILING_FIELDS) expect(row[field]).toBe('');
    expect(csvRow(exportRecord(base, {}))).toBe('r1,2025-01-02T03:04:05.678Z,2025-01-02T03:04:06.000Z,active,p1,s1,,c1,,,yes-no,yes,,,,,,,,,,,,,,,\r\n');
  });
});

describe('RFC 4180', () => {
  it('quotes cells with commas, quotes and line breaks, doubling quotes, and ends rows with CRLF', () => {
    const message = 'She said "no", then\r\nleft;\nreally';
    const line = csvRow(exportRecord({ ...base, schema: 'message', value: message }, labels));
    expect(line.endsWith('\r\n')).toBe(true);
    expect(line).toContain('"She said ""no"", then\r\nleft;\nreally"');
    expect(roundTrip({ ...base, schema: 'message', value: message }).message).toBe(message);
    expect(roundTrip(base, { ...labels, contentKey: 'a,b' }).contentKey).toBe('a,b');
  });

  it('keeps Unicode intact (accents, CJK, emoji, RTL, combining marks)', () => {
    const text = 'Ça marche très bien — 很好 👍🏽 مرحبا é\u0301';
    const row = roundTrip({ ...base, schema: 'message', value: text, profiling: { city: 'Zürich' } }, { ...labels, contentTitle: '日本語のページ' });
    expect([row.message, row.city, row.contentTitle]).toEqual([text, 'Zürich', '日本語のページ']);
  });
});

describe('formula injection', () => {
  it.each(['=SUM(A1:A2)', '+1+1', '-1+1', '@cmd', '\tfoo', '\rfoo', '=HYPERLINK("http://evil.example","click")'])(
    'prefixes a cell beginning %j with a quote',
    (text) => {
      const row = roundTrip({ ...base, schema: 'message', value: text }, { ...labels, contentTitle: text });
      expect(row.message).toBe(`'${text}`);
      expect(row.contentTitle).toBe(`'${text}`);
    },
  );

  it('prefixes values, keys, context-free profiling cells alike, and leaves other cells alone', () => {
    const row = roundTrip({ ...base, schema: 'reaction', value: '-1', profiling: { userId: '@ann', sessionId: 'plain' } }, { ...labels, contentKey: '=1' });
    expect([row.value, row.userId, row.contentKey, row.sessionId]).toEqual(["'-1", "'@ann", "'=1", 'plain']);
    expect(roundTrip({ ...base, schema: 'pulse', value: '+' }).value).toBe("'+");
    expect(roundTrip({ ...base, schema: 'rating', value: -2 }).value).toBe("'-2");
    expect(roundTrip({ ...base, schema: 'message', value: 'a = b' }).message).toBe('a = b');
    expect(roundTrip({ ...base, schema: 'message', value: "'quoted" }).message).toBe("'quoted");
  });
});

describe('NDJSON and sizes', () => {
  it('writes one JSON document per line', () => {
    const view = { id: 'r1', value: { tag: 'idea', message: 'two\nlines' } };
    const line = ndjsonLine(view);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toEqual(view);
  });

  it('counts bytes as the JSON answer encodes them', () => {
    expect(jsonBytes('abc')).toBe(3);
    expect(jsonBytes('"')).toBe(2);
    expect(jsonBytes('é')).toBe(2);
    expect(jsonBytes('\r\n')).toBe(4);
    expect(jsonBytes('\u0001')).toBe(6);
  });
});
