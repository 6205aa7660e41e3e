/**
 * THE ONE DOOR OF THE CONSOLE TO THE API.
 *
 * This is a stand-in for the typed TypeScript client that is being built on another branch
 * (`clients/typescript`: `createClient({ baseUrl, apiKey?, fetch? })`, `client.<resource>.<op>(...args)`,
 * failures thrown as `ApiError` with `error`, `message`, `data`, `status`). It has exactly that
 * interface. Every other file of the console imports the client, its types and `ApiError` from
 * here and from nowhere else, so once the real client is merged this file shrinks to
 *
 *   export * from '../../../clients/typescript/src/index';
 *
 * plus the few type aliases below that the console names (Project, ContentSet, ...), taken from
 * the real client's generated types. That is a one-file change.
 *
 * The stand-in sends `POST {baseUrl}/<resource>/<op>` with the JSON array of arguments
 * (trailing `undefined` arguments left out), `Authorization: API-KEY <key>` when a key is
 * given, answers `undefined` for 204, and throws `ApiError` for any status >= 400 (or no
 * usable answer, status 0). Its types come from the server's own result and argument types
 * (type-only imports: nothing of the server is bundled); the operations that other branches
 * add (responses/export and /erase, cursor paging and userId of responses/list, keys/*,
 * webhooks/*) are typed by hand from their documented shapes.
 */
import type * as z from 'zod';
import type {
  ContentCreateModel,
  ContentFilters,
  ContentSaveModel,
  ContentSetCreateModel,
  ContentSetFilters,
  ContentSetSaveModel,
  ProjectCreateModel,
  ProjectFilters,
  ProjectSaveModel,
} from '../../../functions/api/models';
import type { ContentSetTopQueryModel, ContentTopQueryModel, StatsFilter } from '../../../functions/api/aggregate-models';
import type { ResponseCreateModel } from '../../../functions/api/response-models';
import type { ResponseAggregation } from '../../../functions/domain/aggregation';
import type { StatPeriod } from '../../../functions/domain/periods';
import type { ProfilingField } from '../../../functions/domain/profiling';
import type { AnySchemaConfig, Schema } from '../../../functions/domain/schema-options';
import type { CONTENT_STATES, PROJECT_STATES, RESPONSE_STATES } from '../../../functions/domain/states';
import type { ResponseWriteResult } from '../../../functions/operations/response-collection';
import type { AggregatedData as ServerAggregatedData } from '../../../functions/operations/stats';

/* ---------------------------------------------------------------- result types */

export type ProjectState = (typeof PROJECT_STATES)[number];
export type ContentState = (typeof CONTENT_STATES)[number];
export type ResponseState = (typeof RESPONSE_STATES)[number];
export type { Schema, StatPeriod, ResponseAggregation, ResponseWriteResult };

export interface Project {
  id: string;
  name: string;
  accountId: string;
  createdAt: string;
  updatedAt: string;
  state: ProjectState;
  metadata: { description?: string };
}

export interface ContentSet {
  id: string;
  name: string;
  key: string;
  accountId: string;
  projectId: string;
  createdAt: string;
  updatedAt: string;
  state: ContentState;
  schema: Schema;
  schemaConfig: AnySchemaConfig;
  metadata: { description?: string; disallowAutoContentCreation: boolean; publicAggregates: boolean; revokeWindow: number };
}

export interface ContentItem {
  id: string;
  key: string;
  accountId: string;
  projectId: string;
  contentSetId: string;
  createdAt: string;
  updatedAt: string;
  state: ContentState;
  metadata: { title?: string; description?: string; url?: string };
}

export type ContentItemLookupEntry = Pick<ContentItem, 'id' | 'key' | 'projectId' | 'contentSetId' | 'metadata'>;

export type AggregatedData = ServerAggregatedData;

export type ResponseValue = string | number | { tag: string; message?: string };

export interface FeedbackResponse {
  id: string;
  accountId: string;
  projectId: string;
  contentSetId: string;
  contentItemId: string;
  createdAt: string;
  updatedAt: string;
  state: ResponseState;
  value: ResponseValue;
  context?: Record<string, string | number | boolean>;
  profiling?: Partial<Record<ProfilingField, string>>;
}

/** responses/list: `page` with `$page` paging (today), `cursor` with cursor paging (after the data-rights merge). */
export interface ResponsePage {
  items: FeedbackResponse[];
  page?: number;
  size: number;
  hasMore: boolean;
  cursor?: string;
}

export interface ResponseListQuery {
  $size?: number;
  $page?: number;
  cursor?: string;
  projectId?: string;
  contentSetId?: string;
  contentId?: string;
  userId?: string;
  state?: 'active' | 'revoked' | 'all';
  from?: string;
  to?: string;
}

export type ExportFormat = 'csv' | 'ndjson';
export type ResponseExportQuery = Omit<ResponseListQuery, '$size' | '$page'> & { format: ExportFormat };
export interface ResponseExportChunk {
  format: ExportFormat;
  data: string;
  rows: number;
  cursor?: string;
}

export type KeyLevel = 'viewer' | 'admin';
export interface ApiKeyInfo {
  id: string;
  level: KeyLevel;
  label?: string;
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

export type WebhookEventType = 'response.created' | 'response.updated' | 'response.revoked' | 'response.deleted' | 'content.created';
export type WebhookFormat = 'standard' | 'slack' | 'discord';
export interface Webhook {
  id: string;
  accountId: string;
  projectId?: string;
  url: string;
  events: WebhookEventType[];
  format: WebhookFormat;
  description?: string;
  enabled: boolean;
  disabledReason?: string;
  createdAt: string;
  updatedAt: string;
}
export interface WebhookInput {
  url?: string;
  events?: WebhookEventType[];
  projectId?: string | null;
  format?: WebhookFormat;
  description?: string | null;
  enabled?: boolean;
}
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';
export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode?: number;
  lastError?: string;
  nextAttemptAt?: string;
  createdAt: string;
  updatedAt: string;
}
export interface WebhookTestResult {
  deliveryId: string;
  status: 'succeeded' | 'failed';
  statusCode?: number;
  error?: string;
  durationMs: number;
}

/* ---------------------------------------------------------------- operations */

type Top<T> = (T & { stats: AggregatedData })[];

/** Every operation as `{ args, result }`, named `<resource>/<op>`, like the real client's generated map. */
export interface Operations {
  'projects/get': { args: [id: string]; result: Project };
  'projects/lookup': { args: [text: string, filters?: ProjectFilters | null]; result: Project[] };
  'projects/create': { args: [project: ProjectCreateModel]; result: Project };
  'projects/save': { args: [id: string, changes: ProjectSaveModel]; result: Project };
  'projects/getStats': { args: [id: string, filter?: StatsFilter | null]; result: AggregatedData };
  'sets/get': { args: [id: string]; result: ContentSet };
  'sets/lookup': { args: [text: string, filters?: ContentSetFilters | null]; result: ContentSet[] };
  'sets/create': { args: [set: ContentSetCreateModel]; result: ContentSet };
  'sets/save': { args: [id: string, changes: ContentSetSaveModel]; result: ContentSet };
  'sets/exists': { args: [key: { projectId: string; key: string }]; result: boolean };
  'sets/top': { args: [query?: z.input<typeof ContentSetTopQueryModel> | null]; result: Top<ContentSet> };
  'sets/getStats': { args: [id: string, filter?: StatsFilter | null]; result: AggregatedData };
  'contents/get': { args: [id: string]; result: ContentItem };
  'contents/lookup': { args: [text: string, filters?: ContentFilters | null]; result: ContentItemLookupEntry[] };
  'contents/create': { args: [item: ContentCreateModel]; result: ContentItem };
  'contents/save': { args: [id: string, changes: ContentSaveModel]; result: ContentItem };
  'contents/exists': { args: [key: { contentSetId: string; key: string }]; result: boolean };
  'contents/top': { args: [query?: z.input<typeof ContentTopQueryModel> | null]; result: Top<ContentItem> };
  'contents/getStats': { args: [id: string, filter?: StatsFilter | null]; result: AggregatedData };
  'responses/get': { args: [id: string]; result: FeedbackResponse };
  'responses/list': { args: [query: ResponseListQuery]; result: ResponsePage };
  'responses/create': { args: [response: ResponseCreateModel]; result: ResponseWriteResult };
  'responses/edit': { args: [edit: { responseId?: string; feelbackId?: string; revokeToken: string; value: unknown }]; result: ResponseWriteResult };
  'responses/remove': { args: [remove: { responseId?: string; feelbackId?: string; revokeToken: string }]; result: void };
  'responses/getAggregates': { args: [target: string | { contentSetId: string; key: string }, period?: StatPeriod | null]; result: number[] };
  'responses/export': { args: [query: ResponseExportQuery]; result: ResponseExportChunk };
  'responses/erase': { args: [target: { userId: string } | { responseIds: string[] }]; result: { erased: number; more?: boolean } };
  'keys/list': { args: [query?: { $size?: number; cursor?: string } | null]; result: { items: ApiKeyInfo[]; cursor?: string } };
  'keys/create': { args: [key: { level: KeyLevel; label?: string }]; result: { id: string; key: string; level: KeyLevel; label?: string; createdAt: string } };
  'keys/revoke': { args: [id: string]; result: void };
  'webhooks/create': { args: [webhook: WebhookInput & { url: string }]; result: Webhook & { secret: string } };
  'webhooks/get': { args: [id: string]; result: Webhook };
  'webhooks/list': { args: [query?: { projectId?: string; $size?: number; cursor?: string } | null]; result: { items: Webhook[]; cursor?: string } };
  'webhooks/save': { args: [id: string, changes: WebhookInput]; result: Webhook };
  'webhooks/remove': { args: [id: string]; result: void };
  'webhooks/rotateSecret': { args: [id: string]; result: { secret: string } };
  'webhooks/test': { args: [id: string]; result: WebhookTestResult };
  'webhooks/deliveries': {
    args: [query: { webhookId: string; status?: DeliveryStatus; $size?: number; cursor?: string }];
    result: { items: Delivery[]; cursor?: string };
  };
  'webhooks/redeliver': { args: [deliveryId: string]; result: Delivery };
}

export type OperationName = keyof Operations;
type Resource = OperationName extends `${infer R}/${string}` ? R : never;

export type ResourceClient<R extends Resource> = {
  [Name in OperationName as Name extends `${R}/${infer Operation}` ? Operation : never]: (
    ...args: Operations[Name]['args']
  ) => Promise<Operations[Name]['result']>;
};

export type FeedbackClient = { readonly [R in Resource]: ResourceClient<R> };

export interface ClientOptions {
  /** The API's base URL, ending in `/v0`. */
  baseUrl: string;
  /** Sent as `Authorization: API-KEY <key>`. */
  apiKey?: string;
  fetch?: typeof fetch;
}

export type ApiErrorCode =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  | 'conflict'
  | 'payload-too-large'
  | 'internal-error'
  | 'not-implemented'
  | 'unavailable'
  | 'network-error'
  | 'unexpected-response';

/** Every failure: an answer with status >= 400, or no usable answer (status 0). */
export class ApiError extends Error {
  readonly error: ApiErrorCode;
  readonly data?: Record<string, unknown>;
  readonly status: number;

  constructor(status: number, body: { error: ApiErrorCode; message: string; data?: Record<string, unknown> }, options?: { cause?: unknown }) {
    super(body.message, options);
    this.name = 'ApiError';
    this.error = body.error;
    this.data = body.data;
    this.status = status;
  }
}

function isErrorBody(body: unknown): body is { error: ApiErrorCode; message: string; data?: Record<string, unknown> } {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { error?: unknown }).error === 'string' &&
    typeof (body as { message?: unknown }).message === 'string'
  );
}

/** A client for one base URL and key: `client.<resource>.<op>(...args)` for every operation. */
export function createClient(options: ClientOptions): FeedbackClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImplementation = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));

  async function call(name: string, args: unknown[]): Promise<unknown> {
    let length = args.length;
    while (length > 0 && args[length - 1] === undefined) length--;
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
    if (options.apiKey) headers.authorization = `API-KEY ${options.apiKey}`;
    let response: Response;
    let text: string;
    try {
      response = await fetchImplementation(`${baseUrl}/${name}`, { method: 'POST', headers, body: JSON.stringify(args.slice(0, length)) });
      text = await response.text();
    } catch (cause) {
      throw new ApiError(0, { error: 'network-error', message: `${name}: ${(cause as Error)?.message ?? 'the request failed'}` }, { cause });
    }
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ApiError(response.status, { error: 'unexpected-response', message: `${name}: the answer (status ${response.status}) is not JSON` });
    }
    if (response.ok) return response.status === 204 ? undefined : body;
    if (isErrorBody(body)) throw new ApiError(response.status, body);
    throw new ApiError(response.status, { error: 'unexpected-response', message: `${name}: status ${response.status} without an API error body` });
  }

  const resources = new Map<string, object>();
  return new Proxy({} as FeedbackClient, {
    get(_target, resource) {
      // `then`: the client is not a promise (await on it must not call an operation).
      if (typeof resource !== 'string' || resource === 'then') return undefined;
      let methods = resources.get(resource);
      if (!methods) {
        methods = new Proxy(
          {},
          {
            get: (_methods, operation) =>
              typeof operation === 'string' && operation !== 'then' ? (...args: unknown[]) => call(`${resource}/${operation}`, args) : undefined,
          },
        );
        resources.set(resource, methods);
      }
      return methods;
    },
  });
}
