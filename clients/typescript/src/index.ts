import { OPERATIONS, type ApiErrorBody, type OperationName, type Operations } from './generated.js';

export type * from './generated.js';
export { OPERATIONS } from './generated.js';

/**
 * A typed client of the Feedback API, for servers (Node 20+) and browsers. It needs
 * nothing but `fetch`. Every operation of the API is a method: `client.projects.create({ name })`,
 * `client.sets.getStats(id, { period: 'week' })`; arguments and results are typed from the
 * service's operation registry (src/generated.ts).
 */

export interface ClientOptions {
  /** The API's base URL, ending in `/v0` (e.g. `http://localhost:3000/v0`). */
  baseUrl: string;
  /** Sent as `Authorization: API-KEY <key>`; leave out for the anonymous operations. Keep keys on servers. */
  apiKey?: string;
  /**
   * A signed-in person's OpenID Connect token, sent as `Authorization: Bearer <token>`
   * (instead of `apiKey`); a function is asked before every request, so it can hand out a
   * refreshed token.
   */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Milliseconds before a request is given up with an `ApiError` `timeout`; 0 waits forever. Default 10,000. */
  timeout?: number;
  /** `GET` sends read-only operations as `GET ...?$p=<arguments>` (cacheable, but bounded by URL length). Default `POST`. */
  readMethod?: 'POST' | 'GET';
  /** More headers for every request. */
  headers?: Record<string, string>;
}

/** The codes of the API's failures, plus the client's own: no answer in time, no answer at all, an answer that is not the API's. */
export type ApiErrorCode = ApiErrorBody['error'] | 'timeout' | 'network-error' | 'unexpected-response';

/** Every failure: an answer with status >= 400, or no usable answer (status 0). */
export class ApiError extends Error {
  /** Identifies the failure (`not-found`, `bad-request`, ..., or the client's `timeout`, `network-error`, `unexpected-response`). */
  readonly error: ApiErrorCode;
  /** `bad-request` lists the offending arguments in `data.fields` as `{ path, message }`. */
  readonly data?: Record<string, unknown>;
  /** The HTTP status; 0 when no answer arrived. */
  readonly status: number;

  constructor(status: number, body: { error: ApiErrorCode; message: string; data?: Record<string, unknown> }, options?: { cause?: unknown }) {
    super(body.message, options);
    this.name = 'ApiError';
    this.error = body.error;
    this.data = body.data;
    this.status = status;
  }
}

type Resource = OperationName extends `${infer R}/${string}` ? R : never;

/** The methods of one resource: `projects` has `get`, `lookup`, `create`, `save`, `getStats`. */
export type ResourceClient<R extends Resource> = {
  [Name in OperationName as Name extends `${R}/${infer Operation}` ? Operation : never]: (
    ...args: Operations[Name]['args']
  ) => Promise<Operations[Name]['result']>;
};

export type FeedbackClient = { readonly [R in Resource]: ResourceClient<R> };

const DEFAULT_TIMEOUT_MS = 10_000;

function isApiErrorBody(body: unknown): body is ApiErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as ApiErrorBody).error === 'string' && typeof (body as ApiErrorBody).message === 'string';
}

/** A client for one base URL and key. */
export function createClient(options: ClientOptions): FeedbackClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  if (typeof fetchImplementation !== 'function') throw new TypeError('No fetch: pass options.fetch or use Node 20+ or a browser');
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;

  async function call(name: OperationName, args: unknown[]): Promise<unknown> {
    // Trailing undefined arguments are left out, as if not given.
    let length = args.length;
    while (length > 0 && args[length - 1] === undefined) length--;
    const payload = JSON.stringify(args.slice(0, length));
    const asGet = OPERATIONS[name].readOnly && options.readMethod === 'GET';
    const headers: Record<string, string> = { accept: 'application/json', ...(asGet ? {} : { 'content-type': 'application/json' }), ...options.headers };
    const token = typeof options.token === 'function' ? await options.token() : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    else if (options.apiKey) headers.authorization = `API-KEY ${options.apiKey}`;
    const url = `${baseUrl}/${name}${asGet ? `?$p=${encodeURIComponent(payload)}` : ''}`;
    const controller = new AbortController();
    const timer = timeout > 0 ? setTimeout(() => controller.abort(), timeout) : undefined;
    let response: Response;
    let text: string;
    try {
      response = await fetchImplementation(url, { method: asGet ? 'GET' : 'POST', headers, body: asGet ? undefined : payload, signal: controller.signal });
      text = await response.text();
    } catch (cause) {
      if (controller.signal.aborted) {
        throw new ApiError(0, { error: 'timeout', message: `${name}: no answer within ${timeout} ms`, data: { timeout } }, { cause });
      }
      throw new ApiError(0, { error: 'network-error', message: `${name}: ${(cause as Error)?.message ?? 'the request failed'}` }, { cause });
    } finally {
      clearTimeout(timer);
    }
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ApiError(response.status, {
        error: 'unexpected-response',
        message: `${name}: the answer (status ${response.status}) is not JSON`,
        data: { body: text.slice(0, 1000) },
      });
    }
    if (response.ok) return response.status === 204 ? undefined : body;
    if (isApiErrorBody(body)) throw new ApiError(response.status, body);
    throw new ApiError(response.status, {
      error: 'unexpected-response',
      message: `${name}: status ${response.status} without an API error body`,
      data: { body },
    });
  }

  const client: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const name of Object.keys(OPERATIONS) as OperationName[]) {
    const [resource, operation] = name.split('/') as [string, string];
    client[resource] ??= {};
    client[resource][operation] = (...args: unknown[]) => call(name, args);
  }
  return client as unknown as FeedbackClient;
}
