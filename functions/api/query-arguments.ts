import type { APIGatewayProxyEvent } from 'aws-lambda';
import { restoreWidgetTarget } from '../domain/widget-query';
import { badRequest } from './errors';

/**
 * Bounds on reading `$p`, which happens before authentication: a query string may hold
 * at most `maxBytes` (names and values, decoded) in at most `maxParameters` parameters,
 * else it is refused with `bad-request` before anything is parsed. Rejoining keeps at
 * most `maxCandidates` spellings at a time and parses at most `maxRejoinBytes` of
 * candidate text in all; past that, `$p` is read as sent (a bad-request when that is not
 * JSON). The widgets' longest real queries (a page URL as key) are far below each.
 */
export const QUERY_LIMITS = {
  maxBytes: 16 * 1024,
  maxParameters: 64,
  maxCandidates: 64,
  maxRejoinBytes: 256 * 1024,
} as const;

/** What reading one query cost: the tests prove the bounds by counting it. */
export interface QueryWork {
  /** Candidate texts handed to the JSON parser or the widgets' repair. */
  attempts: number;
  /** Characters of those candidates. */
  bytes: number;
}

type QueryParameters = Record<string, (string | undefined)[] | undefined>;

function queryParameters(event: APIGatewayProxyEvent): QueryParameters {
  return (
    event.multiValueQueryStringParameters ?? Object.fromEntries(Object.entries(event.queryStringParameters ?? {}).map(([name, value]) => [name, [value ?? '']]))
  );
}

function querySize(parameters: QueryParameters): { size: number; count: number } {
  let size = 0;
  let count = 0;
  for (const [name, values] of Object.entries(parameters)) {
    for (const value of values ?? []) {
      size += name.length + (value ?? '').length + 2;
      count += 1;
    }
  }
  return { size, count };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The `$p` query parameter as JSON text, or undefined when absent. The published widgets
 * write the JSON into the URL without encoding it, so an `&` inside a content key splits
 * it into several parameters: those are joined back, in order, until the text is valid
 * JSON again. A parameter without a value arrives the same whether it was written `flag`
 * or `flag=`; the bare spelling, the common one, is tried first. API Gateway groups
 * repeated parameter names, so a key that repeats a name around another one
 * (`?a=1&b=2&a=3`) or ends a parameter with a bare `=` before another parameter cannot be
 * restored exactly.
 *
 * The parameters arrive percent-decoded (API Gateway decodes them; the local server does
 * the same), so a key holding escapes (`caf%C3%A9`) is read in its decoded form: the store
 * resolves that form through the key's alias (operations/content-keys.ts). Rejoining keeps
 * that form, since the split happens on the raw `&` before decoding (`%26` stays inside
 * its parameter). A decoded `%22` or control character makes the widgets' JSON invalid;
 * restoreWidgetTarget repairs their one target shape when that is unambiguous.
 *
 * All of this runs before authentication, so its work is bounded by QUERY_LIMITS.
 */
export function queryArguments(event: APIGatewayProxyEvent, work: QueryWork = { attempts: 0, bytes: 0 }): string | undefined {
  const parameters = queryParameters(event);
  const { size, count } = querySize(parameters);
  if (size > QUERY_LIMITS.maxBytes) {
    throw badRequest(`The query string must be at most ${QUERY_LIMITS.maxBytes} characters; send larger arguments as a POST body`, [
      { path: 'query', message: `${size} characters, at most ${QUERY_LIMITS.maxBytes}` },
    ]);
  }
  if (count > QUERY_LIMITS.maxParameters) {
    throw badRequest(`The query string must hold at most ${QUERY_LIMITS.maxParameters} parameters`, [
      { path: 'query', message: `${count} parameters, at most ${QUERY_LIMITS.maxParameters}` },
    ]);
  }
  const first = parameters.$p?.[0];
  if (first === undefined) return first;
  const asArguments = (text: string): string | undefined => {
    work.attempts += 1;
    work.bytes += text.length;
    return isJson(text) ? text : restoreWidgetTarget(text);
  };
  const direct = asArguments(first);
  if (direct !== undefined) return direct;
  let candidates = [first];
  for (const [name, values] of Object.entries(parameters)) {
    for (const value of name === '$p' ? (values ?? []).slice(1) : (values ?? [])) {
      const spellings = value === '' || value === undefined ? [name, `${name}=`] : [`${name}=${value}`];
      candidates = candidates.flatMap((candidate) => spellings.map((spelling) => `${candidate}&${spelling}`)).slice(0, QUERY_LIMITS.maxCandidates);
      for (const candidate of candidates) {
        if (work.bytes + candidate.length > QUERY_LIMITS.maxRejoinBytes) return first;
        const restored = asArguments(candidate);
        if (restored !== undefined) return restored;
      }
    }
  }
  return first;
}
