import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ApiError } from '../../functions/api/errors';
import { QUERY_LIMITS, type QueryWork, queryArguments } from '../../functions/api/query-arguments';

/** A GET event as API Gateway hands it over: parameters decoded and grouped by name, in order. */
function getEvent(parameters: [string, string][]): APIGatewayProxyEvent {
  const grouped: Record<string, string[]> = {};
  for (const [name, value] of parameters) grouped[name] = [...(grouped[name] ?? []), value];
  return { httpMethod: 'GET', multiValueQueryStringParameters: grouped } as unknown as APIGatewayProxyEvent;
}

function read(parameters: [string, string][]): { text: string | undefined; work: QueryWork } {
  const work: QueryWork = { attempts: 0, bytes: 0 };
  return { text: queryArguments(getEvent(parameters), work), work };
}

function refusal(parameters: [string, string][]): { error: ApiError; work: QueryWork } {
  const work: QueryWork = { attempts: 0, bytes: 0 };
  try {
    queryArguments(getEvent(parameters), work);
  } catch (error) {
    if (error instanceof ApiError) return { error, work };
    throw error;
  }
  throw new Error('expected a refusal');
}

const invalidJson = `["${'a'.repeat(2000)}`;

describe('queryArguments', () => {
  test('reads valid JSON in one attempt', () => {
    const { text, work } = read([['$p', '[{"contentSetId":"s","key":"k"}]']]);
    expect(text).toBe('[{"contentSetId":"s","key":"k"}]');
    expect(work.attempts).toBe(1);
  });

  test("rejoins a widget key that an unencoded '&' split", () => {
    const { text } = read([
      ['$p', '[{"contentSetId":"s","key":"https://blog.example/?a=1'],
      ['b', '2"}]'],
    ]);
    expect(JSON.parse(text ?? '')).toEqual([{ contentSetId: 's', key: 'https://blog.example/?a=1&b=2' }]);
  });

  test("refuses the review's query (thousands of bare parameters) before parsing anything", () => {
    const parameters: [string, string][] = [['$p', invalidJson], ...Array.from({ length: 3900 }, (): [string, string] => ['b', ''])];
    const { error, work } = refusal(parameters);
    expect(error.code).toBe('bad-request');
    expect(error.message).toMatch(/at most 64 parameters/);
    expect(work).toEqual({ attempts: 0, bytes: 0 });
  });

  test('refuses a query string over the size limit before parsing anything', () => {
    const { error, work } = refusal([['$p', `[${'1,'.repeat(QUERY_LIMITS.maxBytes / 2)}1]`]]);
    expect(error.code).toBe('bad-request');
    expect(error.toBody().data).toEqual({ fields: [{ path: 'query', message: expect.stringMatching(/at most 16384/) }] });
    expect(work.attempts).toBe(0);
  });

  test('bounds the rejoining of the largest query it accepts', () => {
    // As many bare parameters as allowed, each doubling the spellings, after a $p as long as the size limit leaves.
    const others = QUERY_LIMITS.maxParameters - 1;
    const longest = `["${'a'.repeat(QUERY_LIMITS.maxBytes - others * 4 - 8)}`;
    const parameters: [string, string][] = [['$p', longest], ...Array.from({ length: others }, (_, i): [string, string] => [`b${i % 10}`, ''])];
    const { text, work } = read(parameters);
    expect(text).toBe(longest);
    expect(work.bytes).toBeLessThanOrEqual(QUERY_LIMITS.maxRejoinBytes);
    expect(work.attempts).toBeLessThanOrEqual(QUERY_LIMITS.maxRejoinBytes / longest.length + 1);
  });

  test('bounds the rejoining of many short parameters by the candidates kept', () => {
    const parameters: [string, string][] = [['$p', '['], ...Array.from({ length: QUERY_LIMITS.maxParameters - 1 }, (_, i): [string, string] => [`p${i}`, ''])];
    const { text, work } = read(parameters);
    expect(text).toBe('[');
    expect(work.attempts).toBeLessThanOrEqual(1 + (QUERY_LIMITS.maxParameters - 1) * QUERY_LIMITS.maxCandidates);
    expect(work.bytes).toBeLessThanOrEqual(QUERY_LIMITS.maxRejoinBytes);
  });
});
