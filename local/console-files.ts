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
import { CONSOLE_SECURITY_HEADERS, IMMUTABLE_CACHE, isStaticFilePath, NO_CACHE, STATIC_FILE_TYPES } from '../console/serving';

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

/** Answers GET/HEAD of a console path from `root`: the file, or index.html for client routes. */
export function serveConsoleFile(root: string, request: IncomingMessage, response: ServerResponse, pathname: string): void {
  const directory = resolve(root);
  const send = (status: number, headers: Record<string, string>, file?: string, text?: string) => {
    const type = file ? (STATIC_FILE_TYPES[extname(file)] ?? 'application/octet-stream') : 'text/plain; charset=utf-8';
    const gzip = file !== undefined && COMPRESSIBLE.has(extname(file)) && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    response.writeHead(status, {
      ...CONSOLE_SECURITY_HEADERS,
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
