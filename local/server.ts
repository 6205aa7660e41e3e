import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { localLambdaContext } from './lambda-context';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_SECURITY_HEADERS } from '../functions/api/adapter';
import { bodyLimit } from '../functions/api/limits';
import { preflightHeaders, corsHeaders } from '../functions/api/cors';
import { ApiError } from '../functions/api/errors';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER, VISITOR_KEY_HEADER } from '../functions/api/client-address';
import { logger } from '../functions/observability/logger';
import { anonymousWriteOperations } from '../functions/api/rate-limits';
import { operationRoutes } from '../functions/api/routes';
import { operationList } from '../functions/api/registry';
import { defaultStore } from '../functions/store/entity-store';
import { docsPath, docsResponse, isDocsPath } from '../functions/reference-page/pages';
import { UNSUBSCRIBE_PATH } from '../functions/mail/settings';
import { handler as unsubscribeHandler } from '../functions/unsubscribe/handler';
import { localDocsPages } from '../functions/reference-page/local';
import { serveConsoleFile } from './console-files';
import { operationModule } from './operation-modules';
import { AnonymousWriteLimiter, clientAddress, type LocalRateLimitSettings } from './rate-limiter';

export const BASE_PATH = '/v0';

type Declaration = (typeof operationList)[number];

/** Every path of each operation (operationRoutes: `/v0/<resource>/<name>` and the widgets' `/v0/feelbacks/<name>`) to its declaration. */
function routeTable(): Map<string, Declaration> {
  const routes = new Map<string, Declaration>();
  for (const declaration of operationList) {
    for (const route of operationRoutes(declaration)) routes.set(`${BASE_PATH}/${route}`, declaration);
  }
  return routes;
}

class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`body over ${limit} bytes`);
  }
}

async function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) throw new BodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Query parameters as API Gateway passes them: percent-decoded, but with `+` kept as is
 * (URLSearchParams would turn the `+` of a value such as "+1" into a space).
 */
function queryParameters(search: string): [string, string][] {
  return search
    .replace(/^\?/, '')
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const separator = pair.indexOf('=');
      return separator < 0 ? [decodeComponent(pair), ''] : [decodeComponent(pair.slice(0, separator)), decodeComponent(pair.slice(separator + 1))];
    });
}

/** Headers CloudFront sets on AWS; none reaches the handlers from a local client (Node lower-cases header names). */
const EDGE_ONLY_HEADERS = new Set([VIEWER_ADDRESS_HEADER, ORIGIN_VERIFY_HEADER, VISITOR_KEY_HEADER]);

/**
 * The API Gateway REST proxy event for a Node request, as Lambda would receive it. Its
 * `sourceIp` is the client's address as the per-visitor limit reads it (the socket's, or
 * what `TRUST_PROXY`'s proxies recorded): the audit log and `onePerVisitor` take it from there.
 */
/** The unsubscribe handler refuses more itself; the server reads no more than this. */
const UNSUBSCRIBE_BODY_LIMIT = 4096;

function proxyEvent(request: IncomingMessage, url: URL, body: string, requestId: string, trustedProxies: number): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    // Only the distribution on AWS may set these (functions/api/client-address.ts); here a client could.
    if (EDGE_ONLY_HEADERS.has(name)) continue;
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string[]> = {};
  for (const [name, value] of queryParameters(url.search)) {
    query[name] ??= [];
    query[name].push(value);
  }
  return {
    resource: url.pathname,
    path: url.pathname,
    httpMethod: request.method ?? 'GET',
    headers,
    multiValueHeaders: {},
    queryStringParameters: Object.keys(query).length > 0 ? Object.fromEntries(Object.entries(query).map(([name, values]) => [name, values.at(-1)!])) : null,
    multiValueQueryStringParameters: Object.keys(query).length > 0 ? query : null,
    pathParameters: null,
    stageVariables: null,
    body: body === '' ? null : body,
    isBase64Encoded: false,
    requestContext: {
      requestId,
      identity: { sourceIp: request.socket.remoteAddress ? clientAddress(request, trustedProxies) : '127.0.0.1' },
    } as APIGatewayProxyEvent['requestContext'],
  };
}

function send(response: ServerResponse, result: APIGatewayProxyResult, requestId: string): void {
  response.writeHead(result.statusCode, { ...(result.headers as Record<string, string>), ...API_SECURITY_HEADERS, 'X-Request-Id': requestId });
  response.end(result.body);
}

function sendError(response: ServerResponse, error: ApiError, origin: string | undefined, requestId: string): void {
  send(
    response,
    { statusCode: error.status, headers: { 'Content-Type': 'application/json', ...corsHeaders(origin) }, body: JSON.stringify(error.toBody()) },
    requestId,
  );
}

async function health(): Promise<{ status: number; body: unknown }> {
  const { client, settings } = defaultStore();
  try {
    await client.send(new DescribeTableCommand({ TableName: settings.tableName }));
    return { status: 200, body: { status: 'ok' } };
  } catch {
    return { status: 503, body: new ApiError('unavailable', 'The store is not reachable').toBody() };
  }
}

export interface ApiServerOptions {
  /** The built console (console/build.ts), served at `/` (every path outside /v0), as CloudFront serves it on AWS. */
  consoleDir?: string;
  /** The per-visitor limit on anonymous writes (WAF's part on AWS); none when omitted. `npm start` sets it from the environment. */
  anonymousRateLimit?: LocalRateLimitSettings;
}

/**
 * Invitation links point at the console this process serves (`http://<host>:<port>`), unless
 * CONSOLE_URL names another: the API takes the console's URL from its configuration only
 * (functions/operations/members.ts `consoleBase`), as on AWS, where the stack sets it.
 */
export function linkInvitationsTo(consoleUrl: string): void {
  if (!process.env.CONSOLE_URL?.trim()) process.env.CONSOLE_URL = consoleUrl;
}

function tooManyRequests(retryAfterSeconds: number): ApiError {
  return new ApiError('too-many-requests', `Too many responses from this address; retry in ${retryAfterSeconds} s`, { retryAfterSeconds });
}

/**
 * The local HTTP front: plays API Gateway's part (routing, CORS preflight, proxy events)
 * and the WAF's per-visitor limit, and hands each request to the same Lambda handler the
 * stack deploys.
 */
export function createApiServer(options: ApiServerOptions = {}): Server {
  const routes = routeTable();
  const limiter = options.anonymousRateLimit ? new AnonymousWriteLimiter(options.anonymousRateLimit) : undefined;
  const limited = new Set(anonymousWriteOperations(operationList));
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, async (request, response) => {
    const requestId = randomUUID();
    const started = performance.now();
    const origin = request.headers.origin;
    const url = new URL(request.url ?? '/', 'http://localhost');
    /** The call's line, as the stage's access log records it on AWS (lib/access-log.ts). */
    const logAccess = (status: number, error?: string) =>
      logger.info('access', {
        method: request.method,
        path: url.pathname,
        status,
        ms: Math.round(performance.now() - started),
        requestId,
        ...(error ? { error } : {}),
      });
    try {
      if (options.consoleDir && url.pathname !== BASE_PATH && !url.pathname.startsWith(`${BASE_PATH}/`)) {
        request.resume();
        serveConsoleFile(options.consoleDir, request, response, url.pathname);
        return;
      }
      if (request.method === 'OPTIONS') {
        response.writeHead(204, { ...preflightHeaders(origin), ...API_SECURITY_HEADERS });
        response.end();
        return;
      }
      if (url.pathname === `${BASE_PATH}/health`) {
        const { status, body } = await health();
        send(response, { statusCode: status, headers: { 'Content-Type': 'application/json', ...corsHeaders(origin) }, body: JSON.stringify(body) }, requestId);
        return;
      }
      if (url.pathname.startsWith(`${BASE_PATH}/`) && isDocsPath(docsPath(url.pathname, BASE_PATH))) {
        // The OpenAPI document and the reference page, as the stack's docs function serves them.
        request.resume();
        const headers = { origin, 'if-none-match': request.headers['if-none-match'] };
        send(response, docsResponse(localDocsPages(), { method: request.method ?? 'GET', path: docsPath(url.pathname, BASE_PATH), headers }), requestId);
        return;
      }
      if (url.pathname === UNSUBSCRIBE_PATH) {
        // The mails' unsubscribe link: the stack's function of its own, under the same per-visitor limit.
        const decision = limiter ? await limiter.check(request) : undefined;
        if (decision?.limited) {
          request.resume();
          send(
            response,
            { statusCode: 429, headers: { 'Content-Type': 'text/plain', 'Retry-After': String(decision.retryAfterSeconds) }, body: 'Too many requests' },
            requestId,
          );
          logAccess(429, 'too-many-requests');
          return;
        }
        const body = await readBody(request, UNSUBSCRIBE_BODY_LIMIT);
        const result = await unsubscribeHandler(proxyEvent(request, url, body, requestId, options.anonymousRateLimit?.trustedProxies ?? 0));
        send(response, result, requestId);
        logAccess(result.statusCode);
        return;
      }
      const route = routes.get(url.pathname);
      if (!route) {
        request.resume();
        sendError(response, new ApiError('not-found', `No operation at ${url.pathname}`, { path: url.pathname }), origin, requestId);
        logAccess(404, 'not-found');
        return;
      }
      const decision = limiter && limited.has(route) ? await limiter.check(request) : undefined;
      if (decision?.limited) {
        request.resume();
        const error = tooManyRequests(decision.retryAfterSeconds);
        const headers = { 'Content-Type': 'application/json', 'Retry-After': String(decision.retryAfterSeconds), ...corsHeaders(origin) };
        send(response, { statusCode: error.status, headers, body: JSON.stringify(error.toBody()) }, requestId);
        logAccess(429, error.code);
        return;
      }
      const body = await readBody(request, bodyLimit(route));
      const event = proxyEvent(request, url, body, requestId, options.anonymousRateLimit?.trustedProxies ?? 0);
      const result = await operationModule(route).handler(event, localLambdaContext(`local-${route.resource}-${route.name}`, requestId));
      send(response, result, requestId);
      logAccess(result.statusCode);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        sendError(
          response,
          new ApiError('payload-too-large', `The request body must be at most ${error.limit} bytes`, { limit: error.limit }),
          origin,
          requestId,
        );
        return;
      }
      logger.error('local server failure', { requestId, error: error as Error });
      sendError(response, new ApiError('internal-error', `Internal error; request id ${requestId}`, { requestId }), origin, requestId);
    }
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerUnparsable(error, socket));
  return server;
}

/**
 * Room for the request line and headers: the adapter's own limit on the query string (16
 * KiB, QUERY_LIMITS) answers before Node's default of 16 KiB for all of them would.
 */
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * A request Node cannot parse (headers beyond MAX_HEADER_BYTES, a malformed request line)
 * never reaches a handler; it is answered with an ApiError body like every other refusal
 * (Node's own answer is a bare status line), and the connection closed.
 */
function answerUnparsable(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) return;
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const refusal = new ApiError(
    'bad-request',
    tooLarge
      ? `The request line and headers must be at most ${MAX_HEADER_BYTES} bytes; send larger arguments as a POST body`
      : 'The request could not be parsed as HTTP',
    tooLarge ? { limit: MAX_HEADER_BYTES } : undefined,
  );
  const body = JSON.stringify(refusal.toBody());
  const headers = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close', ...API_SECURITY_HEADERS };
  socket.end(
    `HTTP/1.1 400 Bad Request\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n')}\r\n\r\n${body}`,
  );
}
