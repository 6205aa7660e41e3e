import { CreateTableCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { KeyLevel } from '../../functions/api/auth';
import { startStreamConsumers } from '../../local/stream-consumers';
import { BASE_PATH, createApiServer, linkInvitationsTo } from '../../local/server';
import { ensureAccount, issueApiKey, revokeApiKey } from '../../functions/operations/api-keys';
import { defaultStore } from '../../functions/store/entity-store';
import { ensureTable } from '../../functions/store/setup';
import { createTableInput } from '../../functions/store/table';
import { runRanker } from '../../functions/jobs/ranker';
import { checkResult, watchResults } from './result-check';
import { anonymousVisitor, TEST_SERVER_ADDRESSES } from './visitors';

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApi {
  baseUrl: string;
  /**
   * POST /v0/<path> with the JSON array of arguments, optionally with an API key. A
   * successful answer of an operation is checked against its result model: a mismatch
   * throws (test/support/result-check.ts).
   */
  call<T = any>(
    path: string,
    args?: unknown,
    options?: { key?: string; method?: 'GET' | 'POST'; rawBody?: string; headers?: Record<string, string> },
  ): Promise<ApiAnswer<T>>;
  /** Waits until the stream consumer has counted every write made so far, then runs the ranker once (unless `rank` is false). */
  drainStream(options?: { rank?: boolean }): Promise<void>;
  /** Answers seen by the server that disagreed with their result model (close() fails on any). */
  resultMismatches: string[];
  /** Stops the server; fails when any answer (also to other clients, e.g. the widgets) disagreed with its result model. */
  close(): Promise<void>;
}

/**
 * The local HTTP server (same Lambda handlers as deployed) on a free port, over this
 * file's table, with the stream consumer reading DynamoDB Local's real stream; with a
 * `consoleDir`, it also serves that console build at `/`.
 *
 * `stream: false` is for files that check the API's answers only, never what the stream
 * consumers make of its writes (counts, webhooks, screening): their table has no stream and
 * no consumer runs. DynamoDB Local makes every write to a table with a stream pay for all
 * the stream records of its database (env.ts), so a file of thousands of writes (each
 * keyed call also writes its audit entry) slows down with every one of them.
 */
export async function startTestApi(options: { consoleDir?: string; stream?: boolean } = {}): Promise<TestApi> {
  const { client, settings } = defaultStore();
  const withStream = options.stream ?? true;
  if (withStream) await ensureTable(client, settings.tableName);
  else await client.send(new CreateTableCommand({ ...createTableInput(settings.tableName), StreamSpecification: undefined }));
  const streamConsumers = withStream ? startStreamConsumers(client, settings.tableName) : undefined;
  const server: Server = createApiServer({ consoleDir: options.consoleDir, anonymousRateLimit: TEST_SERVER_ADDRESSES });
  // fetch keeps connections for the server's keep-alive time less one second; on a loaded
  // machine that margin is too thin and a reused connection can be reset. A long keep-alive
  // leaves the client's own idle timeout to close them first.
  server.keepAliveTimeout = 60_000;
  // Every successful answer must match its operation's result model (see result-check.ts).
  const results = watchResults(server);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const baseUrl = `${origin}${BASE_PATH}`;
  // As under npm start: invitation links point at the console served here.
  if (options.consoleDir) linkInvitationsTo(origin);
  return {
    baseUrl,
    async call(path, args, options = {}) {
      const method = options.method ?? 'POST';
      const headers: Record<string, string> = { 'content-type': 'application/json', ...anonymousVisitor(options), ...options.headers };
      if (options.key) headers.authorization = `API-KEY ${options.key}`;
      const url = method === 'GET' && args !== undefined ? `${baseUrl}/${path}?$p=${encodeURIComponent(JSON.stringify(args))}` : `${baseUrl}/${path}`;
      const body = method === 'GET' ? undefined : (options.rawBody ?? (args === undefined ? undefined : JSON.stringify(args)));
      const response = await fetch(url, { method, headers, body });
      const text = await response.text();
      const answer = { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
      checkResult(path, answer.status, answer.body);
      return answer;
    },
    async drainStream({ rank = true } = {}) {
      if (!streamConsumers) throw new Error('drainStream: this file started its API without a stream (startTestApi({ stream: false }))');
      await streamConsumers.drain();
      // Rankings follow the counts by one run of the ranker (every minute on AWS).
      if (rank) await runRanker(defaultStore().store, new Date());
    },
    resultMismatches: results.mismatches,
    async close() {
      await new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeIdleConnections();
      });
      await streamConsumers?.stop();
      if (results.mismatches.length > 0) throw new Error(`Result check failed:\n${results.mismatches.join('\n')}`);
    },
  };
}

export type AccountKeys = Record<KeyLevel, string> & { accountId: string };

/** A fresh account with one admin and one viewer key. */
export async function createAccount(name: string): Promise<AccountKeys> {
  const { store } = defaultStore();
  const now = new Date();
  const account = await ensureAccount(store, `${name}-${Math.random().toString(36).slice(2)}`, now);
  const admin = await issueApiKey(store, { accountId: account.id, level: 'admin' }, now);
  const viewer = await issueApiKey(store, { accountId: account.id, level: 'viewer' }, now);
  return { accountId: account.id, admin: admin.key, viewer: viewer.key };
}

/** An admin key of the account that has been revoked: it must be refused like an unknown one. */
export async function revokedAdminKey(accountId: string): Promise<string> {
  const { store } = defaultStore();
  const revoked = await issueApiKey(store, { accountId, level: 'admin' }, new Date());
  await revokeApiKey(store, revoked.record.id, new Date());
  return revoked.key;
}

/** A value with the keys of every object in name order, so equal items print equally. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((name) => [name, canonical((value as Record<string, unknown>)[name])]),
  );
}

/**
 * Every item of this file's table, read with Scan. Only tests do this: it lets them check
 * that a refused request wrote nothing. An API key's `lastUsedAt` is left out: any
 * authenticated request may refresh it (at most once a minute), refused or not; and audit
 * entries are left out: a keyed call refused after authentication writes its entry
 * (functions/api/audit.ts), which test/integration/audit.test.ts checks. Attributes
 * are listed in name order, whatever order the store keeps them in.
 */
export async function tableSnapshot(): Promise<string[]> {
  const { client, settings } = defaultStore();
  const items: string[] = [];
  let start: Record<string, any> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: settings.tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const { lastUsedAt, ...item } of page.Items ?? []) {
      // The audit log and the ranker's checkpoint (which every run moves, changed or not) are bookkeeping.
      if (item.pk?.S?.startsWith('audit#') || item.pk?.S === 'ranker') continue;
      items.push(JSON.stringify(canonical(item)));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return items.sort();
}

/** An ApiError answer: the status, the code, and a body of exactly error, message and optional data. */
export function expectError(answer: ApiAnswer, status: number, error: string): void {
  expect([answer.status, answer.body?.error]).toEqual([status, error]);
  expect(typeof answer.body.message).toBe('string');
  expect(Object.keys(answer.body).every((name) => ['error', 'message', 'data'].includes(name))).toBe(true);
}

/** The argument paths a bad-request names in `data.fields`. */
export function fieldPaths(answer: ApiAnswer): string[] {
  return answer.body.data.fields.map((field: { path: string }) => field.path);
}

/** A call a test's setup relies on: its body, or an error naming the call and the answer it got. */
export async function succeeded<T = any>(api: TestApi, path: string, args: unknown[], key?: string): Promise<T> {
  const answer = await api.call<T>(path, args, { key });
  if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Runs `work` over `inputs`, `width` at a time (requests that wait on round trips, not on each other); the results in input order. */
export async function pool<T, R>(inputs: readonly T[], width: number, work: (input: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(inputs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < inputs.length) {
        const index = next++;
        results[index] = await work(inputs[index]);
      }
    }),
  );
  return results;
}

/** A few milliseconds, so that a following write gets a later timestamp. */
export const pause = () => new Promise((wait) => setTimeout(wait, 5));

/** A content set with a unique key (`<schema>-<random>`) in the project; fails the test unless created. */
export async function createContentSet(
  api: TestApi,
  adminKey: string,
  projectId: string,
  schema: string,
  options: { schemaConfig?: unknown; metadata?: Record<string, unknown> } = {},
): Promise<string> {
  const { status, body } = await api.call(
    'sets/create',
    [
      {
        projectId,
        key: `${schema}-${Math.random().toString(36).slice(2, 8)}`,
        schema,
        schemaConfig: options.schemaConfig,
        metadata: { name: schema, ...options.metadata },
      },
    ],
    { key: adminKey },
  );
  expect(status).toBe(200);
  return body.id as string;
}
