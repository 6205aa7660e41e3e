/**
 * A development OpenID provider for `npm start` and the browser tests (oidc-provider), on
 * 127.0.0.1 only. One public client, the console: authorization code with PKCE (S256)
 * required, no secret, refresh tokens. Its sign-in page asks for a login name and no
 * password: any name is a person (`sub` = the name, email `<name>@localhost`, verified).
 *
 * Signing keys (and the cookie keys) are generated once per DATA_DIR and kept there (0600),
 * so tokens and the console's sessions survive a restart of the tokens' verification; without a
 * DATA_DIR they live as long as the process. Sessions, grants and refresh tokens are kept in
 * memory (oidc-provider's development adapter): a restart signs people out at the provider.
 *
 * oidc-provider is an ES module only: it is imported dynamically (tsx loads it for
 * `npm start`; the tests run local/oidc-provider-process.ts in a child process).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

export const CONSOLE_CLIENT_ID = 'feedback-console';
export const DEV_LOGIN_DOMAIN = 'localhost';

export interface LocalOidcOptions {
  /** 0 = an ephemeral port. */
  port: number;
  /** The console's origins (e.g. http://localhost:3000 and http://127.0.0.1:3000): the redirect URIs are `<origin>/` and `<origin>/invitations`. */
  consoleOrigins: string[];
  /** Where the signing and cookie keys are kept; omitted = in memory. */
  dataDir?: string;
  /** Lifetime of ID and access tokens (default 3600). */
  tokenTtlSeconds?: number;
}

export interface LocalOidc {
  issuer: string;
  clientId: string;
  stop(): Promise<void>;
}

interface SavedKeys {
  signing: JWK[];
  cookies: string[];
}

async function providerKeys(dataDir: string | undefined): Promise<SavedKeys> {
  const file = dataDir ? join(dataDir, 'oidc-keys.json') : undefined;
  if (file && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as SavedKeys;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: `local-${randomBytes(6).toString('hex')}`, alg: 'RS256', use: 'sig' };
  const keys: SavedKeys = { signing: [jwk], cookies: [randomBytes(32).toString('base64url')] };
  if (file) writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600, flag: 'wx' });
  return keys;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · local development provider</title></head><body style="font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem">
<h1>Sign in</h1>
<p>Local development provider: any login name is a person (no password). <code>admin</code> is the owner of the local account.</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label for="login">Login name</label><br>
<input id="login" name="login" required autofocus autocomplete="username" pattern="[A-Za-z0-9._-]{1,64}"><br><br>
<button type="submit">Sign in</button>
</form></body></html>`;
}

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of request) {
    text += chunk;
    if (text.length > 10_000) break;
  }
  return new URLSearchParams(text);
}

const LOGIN_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Starts the provider on 127.0.0.1; its issuer is `http://127.0.0.1:<port>`. */
export async function startLocalOidcProvider(options: LocalOidcOptions): Promise<LocalOidc> {
  const { default: Provider } = await import('oidc-provider');
  const keys = await providerKeys(options.dataDir);
  let handle: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server = createServer((request, response) => {
    void route(request, response).catch((error: Error) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`Sign-in failed: ${error.message}`);
    });
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(options.port, '127.0.0.1', () => listening());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ttl = options.tokenTtlSeconds ?? 3600;
  const origins = [...new Set(options.consoleOrigins.map((origin) => new URL(origin).origin))];
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: origins.flatMap((origin) => [`${origin}/`, `${origin}/invitations`]),
        post_logout_redirect_uris: origins.flatMap((origin) => [origin, `${origin}/`]),
      },
    ],
    pkce: { required: () => true },
    jwks: { keys: keys.signing },
    cookies: { keys: keys.cookies },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The console sends the ID token to the API: it carries email and name (the API shows them).
    conformIdTokenClaims: false,
    findAccount: async (_context, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, email: `${sub}@${DEV_LOGIN_DOMAIN}`, email_verified: true, name: sub }),
    }),
    // The console is the provider's only, first-party client: no consent page.
    loadExistingGrant: async (context) => {
      const { oidc } = context;
      const grantId = oidc.result?.consent?.grantId ?? (oidc.client ? oidc.session?.grantIdFor(oidc.client.clientId) : undefined);
      if (grantId) {
        const found = await oidc.provider.Grant.find(grantId);
        if (found) return found;
      }
      if (!oidc.client || !oidc.session?.accountId) return undefined;
      const grant = new oidc.provider.Grant({ clientId: oidc.client.clientId, accountId: oidc.session.accountId });
      grant.addOIDCScope('openid email profile offline_access');
      await grant.save();
      return grant;
    },
    // Refresh tokens for the console without offline_access and a consent prompt.
    issueRefreshToken: async (_context, client) => client.grantTypeAllowed('refresh_token'),
    ttl: { IdToken: ttl, AccessToken: ttl, RefreshToken: 14 * 24 * 3600, Session: 14 * 24 * 3600, Grant: 14 * 24 * 3600, Interaction: 3600 },
    interactions: { url: (_context, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (context, form) => {
          context.type = 'html';
          context.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign out · local development provider</title></head>
<body style="font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem"><h1>Sign out of the local provider?</h1>${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button></body></html>`;
        },
      },
    },
    renderError: async (context, out) => {
      context.type = 'html';
      context.body = `<!doctype html><title>Sign-in error</title><h1>Sign-in error</h1><pre>${escapeHtml(JSON.stringify(out, null, 2))}</pre>`;
    },
  });
  handle = provider.callback();

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', issuer);
    const interaction = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
    if (!interaction) {
      handle!(request, response);
      return;
    }
    const details = await provider.interactionDetails(request, response);
    const html = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(body);
    };
    if (request.method === 'GET') return html(200, loginPage(details.uid));
    if (request.method !== 'POST') return html(405, 'Method not allowed');
    const login = (await formBody(request)).get('login')?.trim() ?? '';
    if (!LOGIN_NAME.test(login)) return html(400, loginPage(details.uid, 'A login name is 1 to 64 letters, digits, dots, dashes or underscores.'));
    await provider.interactionFinished(request, response, { login: { accountId: login } }, { mergeWithLastSubmission: false });
  }

  return {
    issuer,
    clientId: CONSOLE_CLIENT_ID,
    stop: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}
