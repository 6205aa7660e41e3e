/**
 * The local server's per-visitor limit on anonymous writes (local/rate-limiter.ts),
 * the same rule the WAF applies on AWS: 429 `too-many-requests` with Retry-After past the
 * limit, a fresh allowance after the window, keyed calls and reads not counted, the
 * address taken from the socket unless TRUST_PROXY says which X-Forwarded-For entry to
 * believe, and IPv6 visitors counted by their /64.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import {
  anonymousRateLimit,
  anonymousWriteOperations,
  DEFAULT_ANONYMOUS_RATE_LIMIT,
  DEFAULT_ANONYMOUS_RATE_WINDOW_SECONDS,
} from '../../functions/api/rate-limits';
import { operationList } from '../../functions/api/registry';
import { rateLimitSettingsFromEnv, trustedProxies, type LocalRateLimitSettings } from '../../local/rate-limiter';
import { BASE_PATH, createApiServer } from '../../local/server';
import { defaultStore } from '../../functions/store/entity-store';
import { ensureTable } from '../../functions/store/setup';
import { createAccount, createContentSet, expectError, tableSnapshot, type AccountKeys } from '../support/api';

const servers: Server[] = [];
let owner: AccountKeys;
let contentSetId: string;

async function start(settings: LocalRateLimitSettings): Promise<string> {
  const server = createApiServer({ anonymousRateLimit: settings });
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`;
}

async function post(baseUrl: string, path: string, args: unknown[], headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(args),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
}

const respond = (baseUrl: string, headers: Record<string, string> = {}, key = 'page') =>
  post(baseUrl, 'responses/create', [{ contentSetId, key, value: '+', revokable: true }], headers);

beforeAll(async () => {
  const { client, settings } = defaultStore();
  await ensureTable(client, settings.tableName);
  owner = await createAccount('rate-limit');
  // Set up through an unlimited server.
  const setup = await start({ limit: 0, windowSeconds: 60, trustedProxies: 0 });
  const api = {
    baseUrl: setup,
    call: async (path: string, args?: unknown, options: { key?: string } = {}) =>
      post(setup, path, args as unknown[], options.key ? { authorization: `API-KEY ${options.key}` } : {}),
  };
  const projectId = (await api.call('projects/create', [{ name: 'Limited' }], { key: owner.admin })).body.id;
  contentSetId = await createContentSet(api as never, owner.admin, projectId, 'pulse', { metadata: { publicAggregates: true } });
});

afterAll(async () => {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((closed) => {
          server.close(() => closed());
          server.closeIdleConnections();
        }),
    ),
  );
});

describe('the rule', () => {
  test('applies to the anonymous operations that write: responses/create, edit, remove (and their feelbacks paths)', () => {
    expect(
      anonymousWriteOperations(operationList)
        .map((operation) => `${operation.resource}/${operation.name}`)
        .sort(),
    ).toEqual(['responses/create', 'responses/edit', 'responses/remove']);
  });

  test('defaults to 300 per 5 minutes, configured by environment (0 turns it off)', () => {
    expect([DEFAULT_ANONYMOUS_RATE_LIMIT, DEFAULT_ANONYMOUS_RATE_WINDOW_SECONDS]).toEqual([300, 300]);
    expect(rateLimitSettingsFromEnv({})).toEqual({ limit: 300, windowSeconds: 300, trustedProxies: 0 });
    expect(rateLimitSettingsFromEnv({ ANONYMOUS_RATE_LIMIT: '0', ANONYMOUS_RATE_WINDOW_SECONDS: '60', TRUST_PROXY: 'true' })).toEqual({
      limit: 0,
      windowSeconds: 60,
      trustedProxies: 1,
    });
    expect(() => rateLimitSettingsFromEnv({ ANONYMOUS_RATE_LIMIT: 'lots' })).toThrow(/ANONYMOUS_RATE_LIMIT/);
    expect(() => anonymousRateLimit(5, 300, { waf: true })).toThrow(/at least 10/);
    expect(() => anonymousRateLimit(100, 30, { waf: true })).toThrow(/60, 120, 300, 600/);
    expect([trustedProxies(undefined), trustedProxies('false'), trustedProxies('2')]).toEqual([0, 0, 2]);
  });
});

describe('the local server', () => {
  test('answers 429 too-many-requests with Retry-After past the limit, and writes nothing then', async () => {
    const baseUrl = await start({ limit: 3, windowSeconds: 60, trustedProxies: 0 });
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await respond(baseUrl));
    expect(created.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const before = await tableSnapshot();
    const refused = await respond(baseUrl);
    expectError(refused as never, 429, 'too-many-requests');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.data).toEqual({ retryAfterSeconds: retryAfter });
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    // edit and remove count against the same allowance.
    const { responseId, revokable } = created[0].body;
    expectError(
      (await post(baseUrl, 'feelbacks/edit', [{ feelbackId: responseId, revokeToken: revokable.token, value: '+' }])) as never,
      429,
      'too-many-requests',
    );
    expectError((await post(baseUrl, 'responses/remove', [{ responseId, revokeToken: revokable.token }])) as never, 429, 'too-many-requests');
    expect(await tableSnapshot()).toEqual(before);
  });

  test('does not count calls with an API key, nor reads', async () => {
    const baseUrl = await start({ limit: 2, windowSeconds: 60, trustedProxies: 0 });
    for (let i = 0; i < 2; i++) expect((await respond(baseUrl)).status).toBe(200);
    expect((await respond(baseUrl)).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await respond(baseUrl, { authorization: `API-KEY ${owner.admin}` })).status).toBe(200);
    const read = await fetch(`${baseUrl}/feelbacks/getAggregates?$p=${encodeURIComponent(JSON.stringify([{ contentSetId, key: 'page' }]))}`);
    expect(read.status).toBe(200);
  });

  test('allows again after the window', async () => {
    const baseUrl = await start({ limit: 2, windowSeconds: 1, trustedProxies: 0 });
    for (let i = 0; i < 2; i++) expect((await respond(baseUrl)).status).toBe(200);
    const refused = await respond(baseUrl);
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
    await new Promise((wait) => setTimeout(wait, 1100));
    expect((await respond(baseUrl)).status).toBe(200);
  });

  test('ignores a spoofed X-Forwarded-For: the socket address is the visitor', async () => {
    const baseUrl = await start({ limit: 2, windowSeconds: 60, trustedProxies: 0 });
    for (let i = 0; i < 2; i++) expect((await respond(baseUrl, { 'x-forwarded-for': `203.0.113.${i}` })).status).toBe(200);
    expect((await respond(baseUrl, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
    expect((await respond(baseUrl)).status).toBe(429);
  });

  test('with TRUST_PROXY, the entry the trusted proxy appended is the visitor, whatever the client wrote before it', async () => {
    const baseUrl = await start({ limit: 2, windowSeconds: 60, trustedProxies: 1 });
    // The same visitor (198.51.100.7, as the proxy saw it) forging different left-hand entries.
    for (const forged of ['203.0.113.1', '203.0.113.2']) expect((await respond(baseUrl, { 'x-forwarded-for': `${forged}, 198.51.100.7` })).status).toBe(200);
    expect((await respond(baseUrl, { 'x-forwarded-for': '203.0.113.3, 198.51.100.7' })).status).toBe(429);
    // Another visitor behind the same proxy has an allowance of its own.
    expect((await respond(baseUrl, { 'x-forwarded-for': '198.51.100.8' })).status).toBe(200);
  });

  test('an IPv6 visitor is counted by its /64: its other addresses share the allowance, another /64 has its own', async () => {
    const baseUrl = await start({ limit: 2, windowSeconds: 60, trustedProxies: 1 });
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff']) {
      expect((await respond(baseUrl, { 'x-forwarded-for': address })).status).toBe(200);
    }
    expect((await respond(baseUrl, { 'x-forwarded-for': '2001:0db8:0001:0002:0:0:0:9' })).status).toBe(429);
    expect((await respond(baseUrl, { 'x-forwarded-for': '2001:db8:1:3::1' })).status).toBe(200);
    // An IPv4 client as a dual-stack socket reports it is the IPv4 address.
    for (const address of ['198.51.100.9', '::ffff:198.51.100.9']) expect((await respond(baseUrl, { 'x-forwarded-for': address })).status).toBe(200);
    expect((await respond(baseUrl, { 'x-forwarded-for': '198.51.100.9' })).status).toBe(429);
  });
});
