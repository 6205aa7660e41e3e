/**
 * The console's security headers: sent by the local server with every console file and set
 * by the CloudFront response headers policy (lib/console.ts), so tests see what users get.
 * No inline script or style is allowed: the build emits script and CSS files only, and
 * the charts and widgets style elements through the CSSOM, which CSP does not block.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

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
