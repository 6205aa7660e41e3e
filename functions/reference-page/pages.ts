import type { APIGatewayProxyResult } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { corsHeaders } from '../api/cors';
import { ApiError } from '../api/errors';

/**
 * GET /v0/openapi.json and the reference page GET /v0/docs (Swagger UI), served from our
 * own files: the page loads its script and style from /v0/docs/, never from a CDN, and
 * its Content-Security-Policy forbids any other origin. The same function answers on AWS
 * (the docs Lambda) and in the local server, over the same bytes.
 */

/** The files the pages are made of; on AWS they are copied into the docs function's bundle. */
export const DOCS_FILES = {
  openapi: 'openapi.json',
  script: 'swagger-ui-bundle.js',
  style: 'swagger-ui.css',
} as const;

export type DocsAssets = Record<keyof typeof DOCS_FILES, string>;

/** The paths served, after the base path: `/openapi.json`, `/docs` and `/docs/<file>`. */
export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

const NO_SNIFF = { 'X-Content-Type-Options': 'nosniff' };

/** Swagger UI's own code uses inline styles and data: images; nothing else is allowed. */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The page: relative URLs only, so it works under any base path (`/v0/docs` loads `docs/...` and `openapi.json`). */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Feedback API reference</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="docs/${DOCS_FILES.style}">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="docs/${DOCS_FILES.script}"></script>
    <script src="docs/init.js"></script>
  </body>
</html>
`;

/** Starts Swagger UI on the document; no validator badge (it would call validator.swagger.io). */
export const DOCS_INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(OPENAPI_PATH.slice(1))},
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

interface Page {
  body: string;
  headers: Record<string, string>;
}

function page(body: string, contentType: string, maxAge: number, extra: Record<string, string> = {}): Page {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, headers: { 'Content-Type': contentType, 'Cache-Control': `public, max-age=${maxAge}`, ETag: etag, ...NO_SNIFF, ...extra } };
}

/** Every page by path, built once per set of assets. */
export function docsPages(assets: DocsAssets): Map<string, Page> {
  return new Map([
    [OPENAPI_PATH, page(assets.openapi, 'application/json; charset=utf-8', 300)],
    [DOCS_PATH, page(DOCS_HTML, 'text/html; charset=utf-8', 300, { 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY })],
    [`${DOCS_PATH}/init.js`, page(DOCS_INIT_SCRIPT, 'text/javascript; charset=utf-8', 300)],
    [`${DOCS_PATH}/${DOCS_FILES.script}`, page(assets.script, 'text/javascript; charset=utf-8', 86400)],
    [`${DOCS_PATH}/${DOCS_FILES.style}`, page(assets.style, 'text/css; charset=utf-8', 86400)],
  ]);
}

/** The path after the API's base path (`/v0/docs` -> `/docs`); API Gateway already leaves the stage out. */
export function docsPath(path: string, basePath = '/v0'): string {
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
}

/** Whether a path (after the base path) belongs to the docs routes. */
export function isDocsPath(path: string): boolean {
  return path === OPENAPI_PATH || path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`);
}

function errorAnswer(error: ApiError, headers: Record<string, string>): APIGatewayProxyResult {
  return { statusCode: error.status, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(error.toBody()) };
}

/** One request to the docs routes: GET only, 304 when the caller's ETag is current. */
export function docsResponse(
  pages: Map<string, Page>,
  request: { method: string; path: string; headers: Record<string, string | undefined> },
): APIGatewayProxyResult {
  const cors = corsHeaders(request.headers.origin);
  if (request.method !== 'GET') {
    return errorAnswer(new ApiError('method-not-allowed', `Use GET for ${request.path}`, { allow: ['GET'] }), { ...cors, Allow: 'GET' });
  }
  const found = pages.get(request.path);
  if (!found) return errorAnswer(new ApiError('not-found', `Nothing at ${request.path}`, { path: request.path }), cors);
  if (request.headers['if-none-match'] === found.headers.ETag) {
    const { 'Content-Type': _, ...headers } = found.headers;
    return { statusCode: 304, headers: { ...headers, ...cors }, body: '' };
  }
  return { statusCode: 200, headers: { ...found.headers, ...cors }, body: found.body };
}
