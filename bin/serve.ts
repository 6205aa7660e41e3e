/**
 * `npm start`: the console on http://localhost:${PORT:-3000}/ and the API on .../v0, over an
 * embedded DynamoDB Local.
 *
 *   npm start                   data kept in .data/ across restarts
 *   npm start -- --in-memory    throwaway data
 *
 * Environment: PORT, HOST, DATA_DIR, DYNAMODB_ENDPOINT (use a running DynamoDB instead),
 * DYNAMODB_LOCAL_PORT, TABLE_NAME, FEEDBACK_ADMIN_KEY, FEEDBACK_VIEWER_KEY, CORS_ALLOWED_ORIGINS,
 * ANONYMOUS_RATE_LIMIT, ANONYMOUS_RATE_WINDOW_SECONDS, TRUST_PROXY, AGGREGATES_MAX_AGE_SECONDS,
 * CURSOR_SECRET (default: generated once into DATA_DIR/cursor-secret),
 * WEBHOOK_RETRY_SCHEDULE, WEBHOOK_ALLOW_PRIVATE_TARGETS (default true here), WEBHOOK_SECRETS_KEY,
 * OIDC_PORT (the local sign-in provider's port, default 3001; 0 = any free one),
 * OIDC_ISSUER and OIDC_CLIENT_ID (a real provider instead of the local one), OIDC_SCOPES,
 * OIDC_LOGOUT_URL (sign-out at a provider without an end_session_endpoint), CONSOLE_URL
 * (where invitation links point; default: this console's URL), MAIL_FROM (default
 * "Feedback service <feedback@localhost>"), SMTP_URL (send mail through this SMTP server;
 * unset: .eml files in DATA_DIR/outbox, one printed line each), MAIL_RATE_PER_SECOND,
 * MAIL_TOKEN_KEY (default: generated once into DATA_DIR/mail-token.key).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildConsole } from '../console/build';
import { parseArgs } from 'node:util';
import { logger } from '../functions/observability/logger';
import { ensurePrivateDir } from '../local/private-dir';
import { rateLimitSettingsFromEnv } from '../local/rate-limiter';
import { startLocalRuntime } from '../local/runtime';
import { DEFAULT_TABLE_NAME } from '../functions/store/table';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// Development: webhooks may post to receivers on this machine or the local network, over plain http.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS ??= 'true';

/** The secret sealing paging cursors, kept next to the data so cursors survive restarts. */
function ensureCursorSecret(dataDir: string | undefined): void {
  if (process.env.CURSOR_SECRET || !dataDir) return;
  ensurePrivateDir(dataDir);
  const file = join(dataDir, 'cursor-secret');
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
  process.env.CURSOR_SECRET = readFileSync(file, 'utf8').trim();
}

async function main() {
  const { values } = parseArgs({
    options: { 'in-memory': { type: 'boolean', default: false }, port: { type: 'string' } },
  });
  const env = process.env;
  const rateLimit = rateLimitSettingsFromEnv(env);
  const dataDir = values['in-memory'] ? undefined : resolve(env.DATA_DIR ?? '.data');
  ensureCursorSecret(dataDir);
  // The console is rebuilt on every start (esbuild, about a second), so it always matches the code.
  const consoleBuild = await buildConsole();
  const runtime = await startLocalRuntime({
    anonymousRateLimit: rateLimit,
    port: Number(values.port ?? env.PORT ?? 3000),
    host: env.HOST,
    dataDir,
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    dynamoPort: env.DYNAMODB_LOCAL_PORT ? Number(env.DYNAMODB_LOCAL_PORT) : 8000,
    tableName: env.TABLE_NAME || DEFAULT_TABLE_NAME,
    devKeys: { admin: env.FEEDBACK_ADMIN_KEY || undefined, viewer: env.FEEDBACK_VIEWER_KEY || undefined },
    consoleDir: consoleBuild.outdir,
    // People sign in through a local provider unless the user named a real one.
    oidcPort: env.OIDC_ISSUER?.trim() ? undefined : Number(env.OIDC_PORT ?? 3001),
  });
  const signIn = runtime.oidc
    ? [
        `Sign-in provider  ${runtime.oidc.issuer}   (local, any login name, no password)`,
        `Sign in as:       ${runtime.oidc.ownerLogin}   (owner of the local account)`,
      ]
    : [`Sign-in provider  ${env.OIDC_ISSUER} (client ${env.OIDC_CLIENT_ID})`];
  console.log(
    [
      '',
      `Console           ${runtime.consoleUrl}   (sign in as a person, or with a key below)`,
      ...signIn,
      `Feedback API      ${runtime.baseUrl}`,
      `DynamoDB          ${runtime.dynamoEndpoint}${values['in-memory'] ? ' (in memory)' : ''}`,
      `Admin key         ${runtime.keys.admin}`,
      `Viewer key        ${runtime.keys.viewer}`,
      `Anonymous writes  ${
        rateLimit.limit === 0
          ? 'not limited (ANONYMOUS_RATE_LIMIT=0)'
          : `${rateLimit.limit} per ${rateLimit.windowSeconds} s per ${rateLimit.trustedProxies === 0 ? 'socket address' : `address from X-Forwarded-For (${rateLimit.trustedProxies} trusted prox${rateLimit.trustedProxies === 1 ? 'y' : 'ies'})`}`
      }`,
      '',
      `Try: curl -s -X POST ${runtime.baseUrl}/projects/create -H 'Authorization: API-KEY ${runtime.keys.admin}' \\`,
      `       -H 'content-type: application/json' -d '[{"name":"My site"}]'`,
      '',
      'Ctrl-C stops the server, the sign-in provider and DynamoDB Local.',
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  console.error(`npm start failed: ${(error as Error).message}`);
  process.exit(1);
});
