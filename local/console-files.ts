/**
 * The console's static files for the local server: every path outside /v0 is a file of the
 * built console (console/build.ts) or, for client routes, index.html (history routing).
 * Hashed assets are cached as immutable, index.html revalidated; every answer carries the
 * console's security headers (console/serving.ts), as CloudFront sends them on AWS.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { createGzip } from 'node:zlib';
import { CONSOLE_SECURITY_HEADERS, contentSecurityPolicy, IMMUTABLE_CACHE, isStaticFilePath, NO_CACHE, STATIC_FILE_TYPES } from '../console/serving';

const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt', '.map']);

function fileIn(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const candidate = resolve(root, `.${normalize(`/${decoded}`)}`);
  if (candidate !== root && !candidate.startsWith(root + sep)) return undefined;
  return existsSync(candidate) && statSync(candidate).isFile() ? candidate : undefined;
}

/** The console's runtime settings file; on AWS the stack writes the same file next to the console. */
export const CONSOLE_CONFIG_PATH = '/config.json';

/**
 * What `GET /config.json` answers: the sign-in provider the console uses, from this process's
 * OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_SCOPES and OIDC_LOGOUT_URL (the local provider sets the
 * first two when the user set none), read at each request; `{ "oidc": null }` without sign-in.
 */
export function consoleConfig(env: NodeJS.ProcessEnv = process.env) {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const scopes = env.OIDC_SCOPES?.trim();
  const logoutUrl = env.OIDC_LOGOUT_URL?.trim();
  return { oidc: issuer && clientId ? { issuer, clientId, ...(scopes ? { scopes } : {}), ...(logoutUrl ? { logoutUrl } : {}) } : null };
}

/** The console's security headers, its CSP letting the console reach the configured provider. */
function securityHeaders(): Record<string, string> {
  const { oidc } = consoleConfig();
  if (!oidc) return CONSOLE_SECURITY_HEADERS;
  return { ...CONSOLE_SECURITY_HEADERS, 'Content-Security-Policy': contentSecurityPolicy([new URL(oidc.issuer).origin]) };
}

/** Answers GET/HEAD of a console path from `root`: the file, or index.html for client routes. */
export function serveConsoleFile(root: string, request: IncomingMessage, response: ServerResponse, pathname: string): void {
  const directory = resolve(root);
  const send = (status: number, headers: Record<string, string>, file?: string, text?: string) => {
    const type = file ? (STATIC_FILE_TYPES[extname(file)] ?? 'application/octet-stream') : 'text/plain; charset=utf-8';
    const gzip = file !== undefined && COMPRESSIBLE.has(extname(file)) && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    response.writeHead(status, {
      ...securityHeaders(),
      'Content-Type': type,
      ...(gzip ? { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } : {}),
      ...headers,
    });
    if (request.method === 'HEAD' || !file) {
      response.end(file ? undefined : text);
      return;
    }
    const stream = createReadStream(file);
    (gzip ? stream.pipe(createGzip()) : stream).pipe(response);
  };
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    send(405, { Allow: 'GET, HEAD' }, undefined, 'Method not allowed');
    return;
  }
  if (pathname === CONSOLE_CONFIG_PATH) {
    response.writeHead(200, { ...securityHeaders(), 'Content-Type': STATIC_FILE_TYPES['.json'], 'Cache-Control': NO_CACHE });
    response.end(request.method === 'HEAD' ? undefined : JSON.stringify(consoleConfig()));
    return;
  }
  const file = pathname === '/' ? undefined : fileIn(directory, pathname);
  if (file) {
    const hashed = pathname.startsWith('/assets/');
    send(200, { 'Cache-Control': hashed ? IMMUTABLE_CACHE : NO_CACHE }, file);
    return;
  }
  const index = join(directory, 'index.html');
  if (isStaticFilePath(pathname) || !existsSync(index)) {
    send(404, { 'Cache-Control': NO_CACHE }, undefined, existsSync(index) ? 'Not found' : 'The console is not built: run `npx tsx console/build.ts`');
    return;
  }
  send(200, { 'Cache-Control': NO_CACHE }, index);
}
