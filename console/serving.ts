/**
 * How the console's files are served, locally (local/console-files.ts) and on AWS
 * (lib/console.ts: CloudFront's response headers policy and SPA rewrite), so tests see what
 * users get.
 *
 * Security headers: the same on both.
 * No inline script or style is allowed: the build emits script and CSS files only, and
 * the charts and widgets style elements through the CSSOM, which CSP does not block.
 */
/**
 * The policy, with the sign-in provider's origins (its discovery document, token and
 * end-session endpoints, which the console fetches) added to `connect-src`.
 */
export function contentSecurityPolicy(connectOrigins: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    ["connect-src 'self'", ...connectOrigins].join(' '),
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy without sign-in (no provider to reach). */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

export const HSTS_MAX_AGE_SECONDS = 63_072_000;

export const CONSOLE_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Strict-Transport-Security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/** Hashed build outputs (`/assets/<name>-<HASH>.<ext>`) never change: cached for a year. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** index.html names the current assets: always revalidated. */
export const NO_CACHE = 'no-cache';

/** Extensions of the console's static files (what the build and console/public emit), with their types. */
export const STATIC_FILE_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/**
 * Whether a path names a static file rather than a client route (which answers index.html):
 * anything under /assets/, or a known file extension. A missing file of a known type is then
 * a 404, never HTML, while a route whose last segment merely holds a dot
 * (`/respondents/ann@example.com`) is the app's.
 */
export function isStaticFilePath(pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  const extension = dot >= 0 ? last.slice(dot).toLowerCase() : '';
  return pathname.startsWith('/assets/') || Object.hasOwn(STATIC_FILE_TYPES, extension);
}
