/**
 * Widgets call the anonymous operations cross-origin from any site, so by default every
 * origin is allowed. `CORS_ALLOWED_ORIGINS` (comma separated) narrows that list.
 */
export function allowedOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  const configured = (env.CORS_ALLOWED_ORIGINS ?? '*')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return configured.length > 0 ? configured : ['*'];
}

export const CORS_ALLOWED_HEADERS = ['Content-Type', 'Authorization'];
export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'OPTIONS'];
export const CORS_MAX_AGE_SECONDS = 600;

export function corsHeaders(origin: string | undefined, origins = allowedOrigins()): Record<string, string> {
  if (origins.includes('*')) return { 'Access-Control-Allow-Origin': '*' };
  if (origin && origins.includes(origin)) return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
  return { Vary: 'Origin' };
}

export function preflightHeaders(origin: string | undefined, origins = allowedOrigins()): Record<string, string> {
  return {
    ...corsHeaders(origin, origins),
    'Access-Control-Allow-Methods': CORS_ALLOWED_METHODS.join(','),
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS.join(','),
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
  };
}
