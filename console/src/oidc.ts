/**
 * Signing people in with OpenID Connect (oauth4webapi): the authorization code flow with
 * PKCE (S256), a public client, against the provider the console's `/config.json` names
 * (locally `npm start`'s provider, on AWS the stack's Cognito user pool).
 *
 * Tokens live in memory and in this tab's sessionStorage (session.tsx), never in a URL: the
 * code and state are removed from the address bar as soon as they are read. Nothing here
 * logs a token. The API gets the ID token (its `aud` is the client id; it carries the
 * person's email and name), renewed with the refresh token before it expires.
 */
import * as oauth from 'oauth4webapi';

export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Space-separated; default `openid email profile`. */
  scopes?: string;
  /**
   * Where signing out ends the session at a provider that does not advertise an
   * `end_session_endpoint` (Cognito: `https://<domain>/logout?client_id=...&logout_uri=...`,
   * written by the stack); without it, the discovery document's endpoint is used, if any.
   */
  logoutUrl?: string;
}

export interface ConsoleConfig {
  oidc: OidcConfig | null;
}

export interface PersonTokens {
  idToken: string;
  refreshToken?: string;
  /** When to renew, in milliseconds since the epoch by this browser's clock (see renewalTime). */
  renewAt: number;
}

/** Renew a token this long before it expires, at most (a quarter of its lifetime when that is shorter). */
const RENEW_BEFORE_SECONDS = 60;

/**
 * When a token just received should be renewed: a minute before it expires, or after three
 * quarters of its lifetime when it lives less than four minutes (otherwise every renewal
 * would be due at once, again and again). Counted from now by this browser's clock, from the
 * lifetime the provider gave it (`exp - iat`, both the provider's clock), so a browser clock
 * that is off does not make every token look expired.
 */
export function renewalTime(claims: { iat: number; exp: number }, now = Date.now()): number {
  const lifetime = Math.max(0, claims.exp - claims.iat);
  return now + (lifetime - Math.min(RENEW_BEFORE_SECONDS, lifetime / 4)) * 1000;
}

const PENDING_ITEM = 'feedback-console.sign-in';
const DEFAULT_SCOPES = 'openid email profile';

let configPromise: Promise<ConsoleConfig> | undefined;

/** The console's runtime settings (`GET /config.json`); without the file, or a broken one, sign-in is off. */
export function loadConfig(): Promise<ConsoleConfig> {
  configPromise ??= fetch('/config.json', { headers: { accept: 'application/json' }, cache: 'no-cache' })
    .then(async (response) => {
      if (!response.ok) return { oidc: null };
      const body = (await response.json()) as Partial<ConsoleConfig>;
      const oidc = body.oidc;
      if (!oidc || typeof oidc.issuer !== 'string' || typeof oidc.clientId !== 'string') return { oidc: null };
      const { logoutUrl, ...rest } = oidc;
      return { oidc: typeof logoutUrl === 'string' && isProviderUrl(logoutUrl) ? { ...rest, logoutUrl } : rest };
    })
    .catch(() => ({ oidc: null }));
  return configPromise;
}

const isLoopback = (url: URL) => url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname);

/** An https URL, or http on this machine (a local provider). */
function isProviderUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url));
  } catch {
    return false;
  }
}

/** Plain http is allowed only for a provider on this machine (the local development one). */
function requestOptions(config: OidcConfig) {
  const url = new URL(config.issuer);
  return { [oauth.allowInsecureRequests]: url.protocol === 'http:' && isLoopback(url) };
}

const servers = new Map<string, Promise<oauth.AuthorizationServer>>();

function authorizationServer(config: OidcConfig): Promise<oauth.AuthorizationServer> {
  let server = servers.get(config.issuer);
  if (!server) {
    const issuer = new URL(config.issuer);
    server = oauth
      .discoveryRequest(issuer, { algorithm: 'oidc', ...requestOptions(config) })
      .then((response) => oauth.processDiscoveryResponse(issuer, response));
    server.catch(() => servers.delete(config.issuer));
    servers.set(config.issuer, server);
  }
  return server;
}

const client = (config: OidcConfig): oauth.Client => ({ client_id: config.clientId });
const redirectUri = () => `${window.location.origin}/`;

interface Pending {
  issuer: string;
  verifier: string;
  state: string;
  nonce: string;
  returnTo: string;
}

/** Goes to the provider's sign-in page; the console comes back at `/` and then shows `returnTo`. */
export async function startSignIn(config: OidcConfig, returnTo: string): Promise<void> {
  const server = await authorizationServer(config);
  if (!server.authorization_endpoint) throw new Error('The sign-in provider has no authorization endpoint');
  const pending: Pending = {
    issuer: config.issuer,
    verifier: oauth.generateRandomCodeVerifier(),
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    returnTo,
  };
  sessionStorage.setItem(PENDING_ITEM, JSON.stringify(pending));
  const url = new URL(server.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: config.clientId,
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: config.scopes ?? DEFAULT_SCOPES,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
  }).toString();
  window.location.assign(url.href);
}

function tokensOf(result: oauth.TokenEndpointResponse, previous?: PersonTokens): PersonTokens {
  const claims = oauth.getValidatedIdTokenClaims(result);
  const idToken = result.id_token ?? previous?.idToken;
  if (!idToken || !claims) throw new Error('The sign-in provider sent no ID token');
  return { idToken, refreshToken: result.refresh_token ?? previous?.refreshToken, renewAt: renewalTime(claims) };
}

/** Whether this page load is the provider's redirect back (a code or an error, with a state). */
export function isSignInCallback(): boolean {
  const params = new URLSearchParams(window.location.search);
  return params.has('state') && (params.has('code') || params.has('error')) && sessionStorage.getItem(PENDING_ITEM) !== null;
}

let callbackPromise: Promise<PersonTokens> | undefined;

/**
 * Completes the sign-in the provider redirected back for: checks the state, exchanges the
 * code (with the PKCE verifier), checks the ID token's nonce, and replaces the address with
 * the page the person came from. Runs once per page load (a code is single-use).
 */
export function finishSignIn(config: OidcConfig): Promise<PersonTokens> {
  callbackPromise ??= (async () => {
    const current = new URL(window.location.href);
    const pending = JSON.parse(sessionStorage.getItem(PENDING_ITEM) ?? 'null') as Pending | null;
    sessionStorage.removeItem(PENDING_ITEM);
    // The code leaves the address bar (and the history) before anything else happens.
    window.history.replaceState(null, '', pending?.returnTo?.startsWith('/') ? pending.returnTo : '/');
    if (!pending || pending.issuer !== config.issuer) throw new Error('This sign-in was not started here; sign in again');
    const server = await authorizationServer(config);
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(server, client(config), current, pending.state);
    } catch (error) {
      if (error instanceof oauth.AuthorizationResponseError) throw new Error(error.error_description ?? `Sign-in refused: ${error.error}`);
      throw error;
    }
    const response = await oauth.authorizationCodeGrantRequest(
      server,
      client(config),
      oauth.None(),
      params,
      redirectUri(),
      pending.verifier,
      requestOptions(config),
    );
    const result = await oauth.processAuthorizationCodeResponse(server, client(config), response, { expectedNonce: pending.nonce, requireIdToken: true });
    return tokensOf(result);
  })();
  return callbackPromise;
}

/** New tokens for a refresh token (the provider may rotate it). */
export async function refreshTokens(config: OidcConfig, tokens: PersonTokens): Promise<PersonTokens> {
  if (!tokens.refreshToken) throw new Error('No refresh token: sign in again');
  const server = await authorizationServer(config);
  const response = await oauth.refreshTokenGrantRequest(server, client(config), oauth.None(), tokens.refreshToken, requestOptions(config));
  return tokensOf(await oauth.processRefreshTokenResponse(server, client(config), response), tokens);
}

/**
 * Where to end the session at the provider, when it offers that: the configured `logoutUrl`,
 * else the discovery document's `end_session_endpoint` (RP-initiated logout) with the client
 * id and the console to come back to. No `id_token_hint`: a token never goes in a URL (the
 * client id is the spec's way to name the client without one).
 */
export async function endSessionUrl(config: OidcConfig): Promise<string | undefined> {
  if (config.logoutUrl) return config.logoutUrl;
  const server = await authorizationServer(config).catch(() => undefined);
  if (!server?.end_session_endpoint) return undefined;
  const url = new URL(server.end_session_endpoint);
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('post_logout_redirect_uri', window.location.origin);
  return url.href;
}
