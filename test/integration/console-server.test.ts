/**
 * The local server's console files (local/console-files.ts): client routes answer
 * index.html, hashed assets are immutable, index.html revalidated, every answer carries the
 * console's security headers, and /v0 stays the API's.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CONTENT_SECURITY_POLICY } from '../../console/serving';
import { startTestApi, type TestApi } from '../support/api';

let api: TestApi;
let root: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-files-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(dir, 'assets/app-ABC123.js'), 'console.log("app");'.repeat(50));
  writeFileSync(join(dir, 'assets/styles-DEF456.css'), 'body{color:red}');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(tmpdir(), 'console-files-secret.txt'), 'secret');
  api = await startTestApi({ consoleDir: dir });
  root = api.baseUrl.replace(/\/v0$/, '');
});

afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(join(tmpdir(), 'console-files-secret.txt'), { force: true });
});

async function get(path: string, init: RequestInit = {}) {
  const response = await fetch(`${root}${path}`, init);
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

test.each(['/', '/projects', '/projects/abc', '/sets/abc/embed?period=week&ref=2026-11-16', '/respondents/ann@example.com', '/respondents/ann%40example.com'])(
  'client route %s answers index.html, revalidated, with the security headers',
  async (path) => {
    const answer = await get(path);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(answer.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('strict-transport-security')).toMatch(/^max-age=\d+; includeSubDomains$/);
    expect(answer.body.toString()).toContain('<title>console</title>');
  },
);

test('hashed assets are immutable and typed; other files revalidate', async () => {
  const script = await get('/assets/app-ABC123.js');
  expect([script.status, script.headers.get('content-type'), script.headers.get('cache-control')]).toEqual([
    200,
    'text/javascript; charset=utf-8',
    'public, max-age=31536000, immutable',
  ]);
  const css = await get('/assets/styles-DEF456.css');
  expect([css.headers.get('content-type'), css.headers.get('cache-control')]).toEqual(['text/css; charset=utf-8', 'public, max-age=31536000, immutable']);
  const icon = await get('/favicon.svg');
  expect([icon.status, icon.headers.get('content-type'), icon.headers.get('cache-control')]).toEqual([200, 'image/svg+xml', 'no-cache']);
});

test('text files are gzipped for clients that accept it', async () => {
  const response = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
    // fetch decompresses on its own; read the raw bytes with node:http.
    require('node:http')
      .get(`${root}/assets/app-ABC123.js`, { headers: { 'accept-encoding': 'gzip' } }, (answer: import('node:http').IncomingMessage) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve({ encoding: answer.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
  expect(response.encoding).toBe('gzip');
  expect(gunzipSync(response.body).toString()).toBe('console.log("app");'.repeat(50));
});

test('a missing asset is 404, never index.html; nothing outside the folder is served', async () => {
  for (const path of ['/assets/app-MISSING.js', '/missing.css', '/favicon.ico']) {
    const answer = await get(path);
    expect([path, answer.status, answer.body.toString()]).toEqual([path, 404, 'Not found']);
  }
  for (const path of ['/../console-files-secret.txt', '/%2e%2e/console-files-secret.txt', '/assets/..%2f..%2fconsole-files-secret.txt']) {
    const answer = await get(path);
    expect(answer.body.toString()).not.toContain('secret');
  }
});

test('only GET and HEAD; /v0 stays the API', async () => {
  expect((await get('/projects', { method: 'POST' })).status).toBe(405);
  const head = await get('/projects', { method: 'HEAD' });
  expect([head.status, head.body.length]).toEqual([200, 0]);
  const health = await get('/v0/health');
  expect([health.status, JSON.parse(health.body.toString())]).toEqual([200, { status: 'ok' }]);
  const unknown = await get('/v0/no/such');
  expect([unknown.status, JSON.parse(unknown.body.toString()).error]).toEqual([404, 'not-found']);
});
