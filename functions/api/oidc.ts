/**
 * Signed-in people: verifies an OpenID Connect ID or access token of the configured issuer
 * with `jose` (docs/api.md, "People: Bearer tokens"). The issuer's signing keys come from
 * its discovery document's `jwks_uri`, through jose's remote key set: cached for ten
 * minutes, fetched again at once for a key id it does not know (a key rotated at the
 * provider), at most every 30 seconds (so tokens with made-up key ids cannot make the
 * service hammer the provider).
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { logger } from '../observability/logger';
import { nameProblem, normalizedName } from '../../shared/names';
import { ApiError } from './errors';

/** Tokens longer than this are refused before anything parses them (a bound on unauthenticated work). */
export const MAX_TOKEN_LENGTH = 8 * 1024;
/** Asymmetric algorithms only: `none` and the HMAC family (`HS256` signed with a public key) are refused. */
export const ALLOWED_ALGORITHMS = ['RS256', 'PS256', 'ES256'];
/** Leeway for `exp`, `nbf` and `iat` between the provider's clock and ours. */
export const CLOCK_TOLERANCE_SECONDS = 30;
const FETCH_TIMEOUT_MS = 5_000;
/** jose's remote key set: at most one refetch per cooldown for unknown key ids; keys kept at most cacheMaxAge. */
export const JWKS_COOLDOWN_MS = 30_000;
export const JWKS_CACHE_MAX_AGE_MS = 10 * 60_000;

export interface OidcSettings {
  /** `OIDC_ISSUER`: the `iss` every token must carry, exactly. */
  issuer: string;
  /** `OIDC_CLIENT_ID`: the audience (`aud`, or a Cognito access token's `client_id`). */
  clientId: string;
}

/** A person as the token names them: who (issuer + subject) and what the provider says of them. */
export interface Person {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
}

/** Loopback hosts, the only ones whose issuer and key set may be served over plain http (tests, a local provider). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function providerUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${what} must be a URL, got ${text}`);
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return url;
  throw new Error(`${what} must be an https URL (http only on a loopback host), got ${text}`);
}

/** The settings of this process, read at each call (tests set them per file); undefined when sign-in is not configured. */
export function oidcSettings(env: NodeJS.ProcessEnv = process.env): OidcSettings | undefined {
  const issuer = env.OIDC_ISSUER?.trim();
  if (!issuer) return undefined;
  const clientId = env.OIDC_CLIENT_ID?.trim();
  if (!clientId) throw new Error('OIDC_CLIENT_ID must be set when OIDC_ISSUER is');
  providerUrl(issuer, 'OIDC_ISSUER');
  return { issuer, clientId };
}

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** OpenID Connect Discovery 1.0 §4: the document must name the same issuer; its jwks_uri must be https (or loopback http). */
async function discoverKeySet(issuer: string): Promise<KeySet> {
  const response = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, {
    headers: { accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`the discovery document answered ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (document.issuer !== issuer) throw new Error(`the discovery document names the issuer ${String(document.issuer)}, not ${issuer}`);
  if (typeof document.jwks_uri !== 'string') throw new Error('the discovery document has no jwks_uri');
  return createRemoteJWKSet(providerUrl(document.jwks_uri, 'jwks_uri'), {
    timeoutDuration: FETCH_TIMEOUT_MS,
    cooldownDuration: JWKS_COOLDOWN_MS,
    cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
  });
}

/** One key set per process and issuer; a failed discovery is forgotten, so the next request tries again. */
let cached: { issuer: string; keySet: Promise<KeySet> } | undefined;

function keySetOf(issuer: string): Promise<KeySet> {
  if (cached?.issuer !== issuer) {
    const keySet = discoverKeySet(issuer);
    const entry = { issuer, keySet };
    keySet.catch(() => {
      if (cached === entry) cached = undefined;
    });
    cached = entry;
  }
  return cached.keySet;
}

const refused = (message: string) => new ApiError('unauthorized', message, { scheme: 'Bearer' });

/** What a failed verification tells the caller: their own token's defect, or that the provider cannot be reached. */
function verificationError(error: unknown): ApiError {
  if (error instanceof errors.JWTExpired) return refused('The token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) return refused(`The token's "${error.claim}" claim is not acceptable (${error.reason})`);
  if (error instanceof errors.JOSEAlgNotAllowed) return refused(`The token's algorithm is not allowed: use one of ${ALLOWED_ALGORITHMS.join(', ')}`);
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return refused('The token was not signed by a key the issuer publishes');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return refused("The token's signature is not valid");
  if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid || error instanceof errors.JOSENotSupported) {
    return refused('The token is not a signed JWT this service accepts');
  }
  logger.warn('sign-in provider unreachable', { error: error as Error });
  return new ApiError('unavailable', 'The sign-in provider cannot be reached; try again shortly');
}

/**
 * The audience: an ID token's `aud` holds the client id; a Cognito access token has no
 * `aud` but `client_id` and `token_use: "access"`. Other providers' access tokens are
 * accepted when their `aud` holds the client id. OpenID Connect Core 1.0 §3.1.3.7: a token
 * naming several audiences must name the client id as its authorized party (`azp`), and an
 * `azp`, when present, must be the client id (else the token was issued to another client,
 * which could replay it here).
 */
export function audienceMatches(payload: JWTPayload, clientId: string): boolean {
  const audiences = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
  if (payload.azp !== undefined && payload.azp !== clientId) return false;
  if (audiences.includes(clientId)) return audiences.length === 1 || payload.azp === clientId;
  return payload.aud === undefined && payload.client_id === clientId && payload.token_use === 'access';
}

const text = (value: unknown, max: number) => (typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined);

/**
 * The token's `name` as a display name, by the one rule of names people read
 * (shared/names.ts): NFC and trimmed, or none when it breaks the rule. The person did not
 * type it here and cannot fix it here, so it is not refused: they are then named by
 * their email, as members whose provider gives no name.
 */
function displayName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = text(normalizedName(value), 200);
  return name !== undefined && nameProblem(name) === undefined ? name : undefined;
}

/** Verifies a token and names its person; every refusal is `unauthorized` (an unreachable provider: `unavailable`). */
export async function verifyPersonToken(token: string, settings: OidcSettings): Promise<Person> {
  if (token.length > MAX_TOKEN_LENGTH) throw refused(`The token must be at most ${MAX_TOKEN_LENGTH} characters`);
  let payload: JWTPayload;
  let keySet: KeySet;
  try {
    keySet = await keySetOf(settings.issuer);
  } catch (error) {
    logger.warn('sign-in provider discovery failed', { issuer: settings.issuer, error: error as Error });
    throw new ApiError('unavailable', 'The sign-in provider cannot be reached; try again shortly');
  }
  try {
    ({ payload } = await jwtVerify(token, keySet, {
      issuer: settings.issuer,
      algorithms: ALLOWED_ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['sub', 'exp'],
    }));
  } catch (error) {
    throw verificationError(error);
  }
  // jose refuses a future `iat` only together with a maximum age (maxTokenAge), a limit the provider's `exp` already sets.
  if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) {
    throw refused(`The token's "iat" claim is not acceptable (issued more than ${CLOCK_TOLERANCE_SECONDS} seconds in the future)`);
  }
  if (!audienceMatches(payload, settings.clientId)) throw refused('The token is not meant for this service (audience, authorized party)');
  const subject = text(payload.sub, 255);
  if (!subject) throw refused('The token names no subject');
  const email = text(payload.email, 320);
  const name = displayName(payload.name);
  return {
    issuer: settings.issuer,
    subject,
    ...(email === undefined ? {} : { email }),
    ...(typeof payload.email_verified === 'boolean' ? { emailVerified: payload.email_verified } : {}),
    ...(name === undefined ? {} : { name }),
  };
}
