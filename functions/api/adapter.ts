import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { restoreWidgetTarget } from '../domain/widget-query';
import type { TableClient } from '../store/dynamo';
import type { Store } from '../store/entities';
import { authenticate, authorize } from './auth';
import { corsHeaders } from './cors';
import { ApiError, badRequest, invalidFields } from './errors';
import { MAX_BODY_BYTES } from './limits';
import { logger } from './logger';
import { answersNoContent, type OperationDeclaration, operationPath, type RequestInfo, type RunnableOperation } from './operation';

export { MAX_BODY_BYTES };

export interface AdapterDependencies<S extends TableClient = Store> {
  store: S;
  now?: () => Date;
}

/** API answers are not cached unless the operation says otherwise (responseHeaders). */
const NOT_CACHED = { 'Cache-Control': 'no-store' };

function lowerCaseHeaders(headers: APIGatewayProxyEvent['headers'] | null): Record<string, string | undefined> {
  const lowered: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers ?? {})) lowered[name.toLowerCase()] = value ?? undefined;
  return lowered;
}

function rawArguments(event: APIGatewayProxyEvent, operation: Pick<OperationDeclaration, 'readOnly' | 'resource' | 'name'>): string | undefined {
  if (event.httpMethod === 'GET') {
    if (!operation.readOnly) {
      throw new ApiError('method-not-allowed', `${operationPath(operation)} changes data and is only served on POST`);
    }
    return queryArguments(event);
  }
  if (event.httpMethod !== 'POST') {
    throw new ApiError('method-not-allowed', `Use POST${operation.readOnly ? ' or GET' : ''} for ${operationPath(operation)}`);
  }
  if (event.body === null || event.body === undefined) return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Bounds the rejoining below: each bare parameter doubles the candidates. */
const MAX_REJOIN_CANDIDATES = 64;

/** The text itself when it is JSON, else the widgets' target repaired (see restoreWidgetTarget), else undefined. */
function asArguments(text: string): string | undefined {
  return isJson(text) ? text : restoreWidgetTarget(text);
}

/**
 * The `$p` query parameter. The published widgets write the JSON into the URL without
 * encoding it, so an `&` inside a content key splits it into several parameters: those
 * are joined back, in order, until the text is valid JSON again. A parameter without a
 * value arrives the same whether it was written `flag` or `flag=`; the bare spelling, the
 * common one, is tried first. API Gateway groups repeated parameter names, so a key that
 * repeats a name around another one (`?a=1&b=2&a=3`) or ends a parameter with a bare `=`
 * before another parameter cannot be restored exactly.
 *
 * The parameters arrive percent-decoded (API Gateway decodes them; the local server does
 * the same), so a key holding escapes (`caf%C3%A9`) is read in its decoded form: the store
 * resolves that form through the key's alias (operations/content-keys.ts). Rejoining keeps
 * that form, since the split happens on the raw `&` before decoding (`%26` stays inside
 * its parameter). A decoded `%22` or control character makes the widgets' JSON invalid;
 * restoreWidgetTarget repairs their one target shape when that is unambiguous.
 */
function queryArguments(event: APIGatewayProxyEvent): string | undefined {
  const parameters =
    event.multiValueQueryStringParameters ??
    Object.fromEntries(Object.entries(event.queryStringParameters ?? {}).map(([name, value]) => [name, [value ?? '']]));
  const first = parameters.$p?.[0];
  if (first === undefined) return first;
  const direct = asArguments(first);
  if (direct !== undefined) return direct;
  let candidates = [first];
  for (const [name, values] of Object.entries(parameters)) {
    for (const value of name === '$p' ? (values ?? []).slice(1) : (values ?? [])) {
      const spellings = value === '' ? [name, `${name}=`] : [`${name}=${value}`];
      candidates = candidates.flatMap((candidate) => spellings.map((spelling) => `${candidate}&${spelling}`)).slice(0, MAX_REJOIN_CANDIDATES);
      for (const candidate of candidates) {
        const restored = asArguments(candidate);
        if (restored !== undefined) return restored;
      }
    }
  }
  return first;
}

function checkSize(event: APIGatewayProxyEvent): void {
  const size = event.body ? Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : 0;
  if (size > MAX_BODY_BYTES) {
    throw new ApiError('payload-too-large', `The request body must be at most ${MAX_BODY_BYTES} bytes`, {
      limit: MAX_BODY_BYTES,
      size,
    });
  }
}

function parseArguments(raw: string | undefined): unknown[] {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest('The arguments are not valid JSON', [{ path: 'args', message: 'invalid JSON' }]);
  }
  if (!Array.isArray(parsed)) {
    throw badRequest('The arguments must be a JSON array', [{ path: 'args', message: 'expected an array' }]);
  }
  return parsed;
}

function json(status: number, body: unknown, headers: Record<string, string>): APIGatewayProxyResult {
  return { statusCode: status, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/**
 * Runs one operation for one API Gateway proxy event: size check, authentication,
 * argument parsing and validation, authorization, then the operation's handler.
 * Identical on Lambda, in the local server and in tests.
 */
export async function handleApiEvent<S extends TableClient>(
  operation: RunnableOperation<S>,
  event: APIGatewayProxyEvent,
  dependencies: AdapterDependencies<S>,
): Promise<APIGatewayProxyResult> {
  const started = performance.now();
  const headers = lowerCaseHeaders(event.headers);
  const request: RequestInfo = {
    requestId: event.requestContext?.requestId ?? randomUUID(),
    method: event.httpMethod,
    headers,
    sourceIp: event.requestContext?.identity?.sourceIp ?? undefined,
  };
  const cors = { ...corsHeaders(headers.origin), ...NOT_CACHED };
  const responseHeaders: Record<string, string> = {};
  let result: APIGatewayProxyResult;
  let errorCode: string | undefined;
  try {
    checkSize(event);
    const raw = rawArguments(event, operation);
    const now = dependencies.now?.() ?? new Date();
    const caller = await authenticate(dependencies.store, headers.authorization, now);
    authorize(caller, operation.level);
    const parsed = operation.args.safeParse(parseArguments(raw));
    if (!parsed.success) {
      throw badRequest(`Invalid arguments for ${operationPath(operation)}`, invalidFields(parsed.error.issues));
    }
    const value = await operation.handler(parsed.data, {
      caller,
      store: dependencies.store,
      now,
      request,
      responseHeaders,
    });
    result = answersNoContent(operation)
      ? { statusCode: 204, headers: { ...cors, ...responseHeaders }, body: '' }
      : json(200, value ?? null, { ...cors, ...responseHeaders });
  } catch (error) {
    if (error instanceof ApiError) {
      errorCode = error.code;
      result = json(error.status, error.toBody(), cors);
    } else {
      errorCode = 'internal-error';
      logger.error('operation failed', { requestId: request.requestId, operation: operationPath(operation), error: error as Error });
      result = json(500, { error: 'internal-error', message: `Internal error; request id ${request.requestId}`, data: { requestId: request.requestId } }, cors);
    }
  }
  logger.info('request', {
    method: event.httpMethod,
    path: event.path,
    operation: operationPath(operation),
    status: result.statusCode,
    ms: Math.round((performance.now() - started) * 10) / 10,
    requestId: request.requestId,
    ...(errorCode ? { error: errorCode } : {}),
  });
  return result;
}
