import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { TableClient } from '../store/dynamodb-clients';
import type { Store } from '../store/entities';
import { recordAudit } from './audit';
import { authenticate, authorize, type Caller } from './auth';
import { callerAddress } from './client-address';
import { corsHeaders } from './cors';
import { ApiError, badRequest, invalidFields } from './errors';
import { bodyLimit, MAX_BODY_BYTES } from './limits';
import { logger } from '../observability/logger';
import { queryArguments } from './query-arguments';
import { checkJsonInput } from './json-input';
import { answersNoContent, type OperationDeclaration, operationPath, type RequestInfo, type RunnableOperation } from './operation';

export { MAX_BODY_BYTES };

export interface AdapterDependencies<S extends TableClient = Store> {
  store: S;
  now?: () => Date;
}

/** API answers are not cached unless the operation says otherwise (responseHeaders). */
const NOT_CACHED = { 'Cache-Control': 'no-store' };

/**
 * On every API answer, from the handler and the local server alike: JSON is never sniffed
 * as HTML. HSTS is CloudFront's (lib/edge.ts): only it knows the answer goes over HTTPS.
 */
export const API_SECURITY_HEADERS = { 'X-Content-Type-Options': 'nosniff' };

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

function checkSize(event: APIGatewayProxyEvent, limit: number): void {
  const size = event.body ? Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : 0;
  if (size > limit) {
    throw new ApiError('payload-too-large', `The request body must be at most ${limit} bytes`, { limit, size });
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

/** The argument array for the audit entry of a call refused before its arguments were parsed; undefined unless it is one. */
function argumentsForAudit(raw: string | undefined): unknown[] | undefined {
  try {
    return parseArguments(raw);
  } catch {
    return undefined;
  }
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
    sourceIp: callerAddress(headers, event.requestContext?.identity?.sourceIp ?? undefined),
  };
  const cors = { ...corsHeaders(headers.origin), ...NOT_CACHED, ...API_SECURITY_HEADERS };
  const responseHeaders: Record<string, string> = {};
  const touched: string[] = [];
  const counts: Record<string, number> = {};
  let result: APIGatewayProxyResult;
  let errorCode: string | undefined;
  const now = dependencies.now?.() ?? new Date();
  // What the audit entry needs, as far as the call got (functions/api/audit.ts).
  let raw: string | undefined;
  let caller: Caller | undefined;
  let args: unknown[] | undefined;
  let value: unknown;
  try {
    checkSize(event, bodyLimit(operation));
    raw = rawArguments(event, operation);
    caller = await authenticate(dependencies.store, headers.authorization, now);
    authorize(caller, operation.level);
    args = parseArguments(raw);
    checkJsonInput(args);
    const parsed = operation.args.safeParse(args);
    if (!parsed.success) {
      throw badRequest(`Invalid arguments for ${operationPath(operation)}`, invalidFields(parsed.error.issues));
    }
    value = await operation.handler(parsed.data, {
      caller,
      store: dependencies.store,
      now,
      request,
      responseHeaders,
      touched,
      counts,
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
  // After the answer is known, for keyed callers of audited operations only; never fails the call.
  await recordAudit(dependencies.store, {
    operation,
    caller,
    args: args ?? argumentsForAudit(raw),
    result: errorCode === undefined ? value : undefined,
    touched,
    counts,
    outcome: errorCode ?? 'ok',
    request,
    at: now,
  });
  // Failures only: the stage's access log has every call (lib/access-log.ts), but not which
  // error a call was answered with; a line per success would repeat the access log's.
  if (errorCode) {
    logger.info('request', {
      method: event.httpMethod,
      path: event.path,
      operation: operationPath(operation),
      status: result.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
      requestId: request.requestId,
      error: errorCode,
    });
  }
  return result;
}
