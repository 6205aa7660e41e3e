import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiJson } from '../../functions/api/openapi';
import { DOCS_CONTENT_SECURITY_POLICY, DOCS_INIT_SCRIPT } from '../../functions/reference-page/pages';
import { swaggerUiDirectory } from '../../functions/reference-page/local';
import { startTestApi, type TestApi } from '../support/api';

/** GET /v0/openapi.json and the reference page /v0/docs on the local server (the stack serves the same pages). */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const get = (path: string, init: RequestInit = {}) => fetch(`${api.baseUrl}${path}`, init);
/** Status and headers of an answer, its body read to the end: an unread body keeps its connection open past the test. */
const getAndRead = async (path: string, init: RequestInit = {}) => {
  const response = await get(path, init);
  await response.arrayBuffer();
  return response;
};

describe('GET /v0/openapi.json', () => {
  it('answers the document generated from the registry, as JSON with caching headers', async () => {
    const response = await get('/openapi.json', { headers: { origin: 'https://example.com' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toBe(openApiJson());
  });

  it('answers 304 to a request with the current ETag', async () => {
    const etag = (await getAndRead('/openapi.json')).headers.get('etag')!;
    const again = await get('/openapi.json', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    expect((await getAndRead('/openapi.json', { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
  });
});

describe('GET /v0/docs', () => {
  it('serves the reference page, which loads only our own files', async () => {
    const response = await get('/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(DOCS_CONTENT_SECURITY_POLICY);
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    const html = await response.text();
    // No CDN, no absolute URL anywhere in the page: every src/href is relative to /v0/.
    expect(html).not.toMatch(/(https?:)?\/\//);
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(references.sort()).toEqual(['data:,', 'docs/init.js', 'docs/swagger-ui-bundle.js', 'docs/swagger-ui.css']);
    for (const reference of references.filter((item) => item.startsWith('docs/'))) {
      const asset = await getAndRead(`/${reference}`);
      expect([reference, asset.status]).toEqual([reference, 200]);
      expect(asset.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
      expect(asset.headers.get('etag')).toBeTruthy();
    }
  });

  it('serves Swagger UI byte for byte from the swagger-ui-dist package, and a start script that reads /v0/openapi.json', async () => {
    const script = await get('/docs/swagger-ui-bundle.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe(readFileSync(join(swaggerUiDirectory(), 'swagger-ui-bundle.js'), 'utf8'));
    const style = await get('/docs/swagger-ui.css');
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await style.text()).toBe(readFileSync(join(swaggerUiDirectory(), 'swagger-ui.css'), 'utf8'));
    const init = await (await get('/docs/init.js')).text();
    expect(init).toBe(DOCS_INIT_SCRIPT);
    expect(init).toContain('url: "openapi.json"');
    expect(init).toContain('validatorUrl: null');
    // The CSP allows our own origin only.
    expect(DOCS_CONTENT_SECURITY_POLICY).not.toMatch(/https?:/);
  });

  it('answers not-found for other files under /v0/docs', async () => {
    const response = await get('/docs/index.html');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not-found' });
  });
});

describe('bad input', () => {
  it.each(['/openapi.json', '/docs', '/docs/swagger-ui.css'])('%s answers GET only: other methods get method-not-allowed', async (path) => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD']) {
      const response = await get(path, { method, body: method === 'HEAD' ? undefined : method === 'POST' ? '[]' : undefined });
      expect([method, response.status]).toEqual([method, 405]);
      expect(response.headers.get('allow')).toBe('GET');
      if (method !== 'HEAD') {
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(await response.json()).toMatchObject({ error: 'method-not-allowed', message: expect.any(String) });
      }
    }
  });
});
