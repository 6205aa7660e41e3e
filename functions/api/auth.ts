import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { getRawItem } from '../store/batch';
import { isConditionFailure } from '../store/conditions';
import type { TableClient } from '../store/dynamodb-clients';
import { type ApiKeyRecord, apiKeyOf, keys, memberOf } from '../store/items';
import { ApiError } from './errors';
import { logger } from '../observability/logger';
import { MAX_TOKEN_LENGTH, oidcSettings, type Person, verifyPersonToken } from './oidc';
import type { Role } from './roles';

export type { Person } from './oidc';

/** The ranked levels: each one may call what the ones before it may. */
export const LEVELS = ['anonymous', 'viewer', 'admin'] as const;
export type Level = (typeof LEVELS)[number];
export type KeyLevel = Exclude<Level, 'anonymous'>;
/**
 * What an operation declares: a ranked level, or `person`: a signed-in person, member of
 * an account or not yet (members/accept). API keys and anonymous callers are refused there.
 */
export type OperationLevel = Level | 'person';

export { ROLES, type Role } from './roles';

/** The level a role acts with. */
export function roleLevel(role: Role): KeyLevel {
  return role === 'viewer' ? 'viewer' : 'admin';
}

/**
 * Who is calling. `key`: an API key of an account. `person`: a signed-in member of an
 * account (the token's person and the membership's role). `newcomer`: a signed-in person
 * who is a member of no account; only members/accept serves them, every other operation
 * answers 401. Newcomers carry the anonymous level, so code that narrows on
 * `level === 'anonymous'` never takes them for a member of an account.
 */
/** A keyed caller carries its key's public id and label, a person their membership: who the audit log names (functions/api/audit.ts). */
export type Caller =
  | { kind: 'anonymous'; level: 'anonymous' }
  | { kind: 'key'; level: KeyLevel; accountId: string; keyId: string; keyLabel?: string }
  | { kind: 'person'; level: KeyLevel; accountId: string; memberId: string; role: Role; person: Person; member: RecordedIdentity }
  | { kind: 'newcomer'; level: 'anonymous'; person: Person };

export const ANONYMOUS: Caller = { kind: 'anonymous', level: 'anonymous' };

/** A member's email and name as recorded when they joined (store/entities.ts `Member`). */
export interface RecordedIdentity {
  email?: string;
  name?: string;
}

/** The token's email when the provider says it is verified (`email_verified: true`); otherwise none. */
export function verifiedEmail(person: Person): string | undefined {
  return person.emailVerified === true ? person.email : undefined;
}

/**
 * Whom the API names a member as (audit entries, members/me): a verified email from the
 * current token, else the email recorded when they joined; the name recorded then. Claims
 * a token makes without verification (an email anyone can type at some providers, any
 * name) never replace what was recorded.
 */
export function memberIdentity(person: Person, recorded: RecordedIdentity): RecordedIdentity {
  const email = verifiedEmail(person) ?? recorded.email;
  return { ...(email === undefined ? {} : { email }), ...(recorded.name === undefined ? {} : { name: recorded.name }) };
}

const KEY_PREFIX = 'fbk_';
/**
 * `API-KEY <key>` or `Bearer <token>`: the scheme in any case, ASCII spaces or tabs around
 * the credential, and the credential a token68 (RFC 9110 §11.4). JavaScript's `\s` would
 * also take a no-break space and other Unicode spaces, which a web ACL or proxy counts as a
 * non-empty header: every header that is not exactly this shape is refused, so skipping the
 * per-visitor limit always costs a key or a member's token.
 */
const AUTH_HEADER = /^(API-KEY|Bearer)[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;
/** Longer headers are refused before the pattern or a JWT parser reads them. */
const MAX_AUTHORIZATION_LENGTH = MAX_TOKEN_LENGTH + 64;

/** Secrets (API keys, revoke tokens) are stored as SHA-256: they are 128+ random bits, so no slow hash is needed. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

export function secretMatches(secret: string, expectedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret));
  const expected = Buffer.from(expectedHash);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A new API key: 192 random bits, with a prefix so leaked keys are easy to recognise in logs and scanners. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

export function rank(level: Level): number {
  return LEVELS.indexOf(level);
}

/** A key's lastUsedAt is written at most this often (not once per request). */
export const LAST_USED_REFRESH_MS = 60_000;

/**
 * Sets lastUsedAt when the stored one is older than a minute. The write is conditional on
 * that age, so concurrent requests of one key write it once. It names only the key and
 * lastUsedAt: read-only functions may make exactly this update (lib/table-access.ts).
 * A failure is logged, never the request's failure.
 */
async function refreshLastUsed(store: TableClient, keyHash: string, key: ApiKeyRecord, now: Date): Promise<void> {
  if (key.lastUsedAt && now.getTime() - Date.parse(key.lastUsedAt) < LAST_USED_REFRESH_MS) return;
  try {
    await store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.apiKey(keyHash),
        UpdateExpression: 'SET #lastUsedAt = :now',
        ConditionExpression: 'attribute_exists(#pk) AND (attribute_not_exists(#lastUsedAt) OR #lastUsedAt < :stale)',
        ExpressionAttributeNames: { '#pk': 'pk', '#lastUsedAt': 'lastUsedAt' },
        ExpressionAttributeValues: { ':now': now.toISOString(), ':stale': new Date(now.getTime() - LAST_USED_REFRESH_MS).toISOString() },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) logger.warn('lastUsedAt not refreshed', { keyId: key.id, error: error as Error });
  }
}

/** The key of a person's membership item: issuer and subject, hashed to a fixed length (store/items.ts `keys.member`). */
export function personKey(person: Pick<Person, 'issuer' | 'subject'>): string {
  return hashSecret(JSON.stringify([person.issuer, person.subject]));
}

/**
 * A Bearer token: verified against the configured issuer (functions/api/oidc.ts), then the
 * person's membership read strongly consistent, so a removal or a role change holds from the
 * very next request.
 */
async function authenticatePerson(store: TableClient, token: string): Promise<Caller> {
  const settings = oidcSettings();
  if (!settings) {
    throw new ApiError('unauthorized', 'Sign-in is not configured on this service (no OIDC_ISSUER): use "API-KEY <key>"', { scheme: 'Bearer' });
  }
  const person = await verifyPersonToken(token, settings);
  const member = memberOf(await getRawItem(store, keys.member(personKey(person)), { consistent: true }));
  if (!member) return { kind: 'newcomer', level: 'anonymous', person };
  return personCaller(person, member);
}

/** A member's caller: their role's level, and the email and name recorded when they joined. */
export function personCaller(person: Person, member: { id: string; accountId: string; role: Role } & RecordedIdentity): Extract<Caller, { kind: 'person' }> {
  return {
    kind: 'person',
    level: roleLevel(member.role),
    accountId: member.accountId,
    memberId: member.id,
    role: member.role,
    person,
    member: { ...(member.email === undefined ? {} : { email: member.email }), ...(member.name === undefined ? {} : { name: member.name }) },
  };
}

/**
 * Resolves the `Authorization` header to a caller: only a request without the header is
 * anonymous; one that is present (even empty or blank) but not a live key or a valid
 * token is an error. The key is read strongly consistent, so a revocation holds from the
 * very next request.
 */
export async function authenticate(store: TableClient, authorization: string | undefined, now: Date = new Date()): Promise<Caller> {
  if (authorization === undefined) return ANONYMOUS;
  const match = authorization.length <= MAX_AUTHORIZATION_LENGTH ? AUTH_HEADER.exec(authorization) : null;
  if (!match) {
    throw new ApiError('unauthorized', 'The Authorization header must be "API-KEY <key>" or "Bearer <token>"');
  }
  if (match[1].toLowerCase() === 'bearer') return authenticatePerson(store, match[2]);
  // Raw (store/items.ts), so the widgets' bundles carry no ElectroDB.
  const keyHash = hashSecret(match[2]);
  const key = apiKeyOf(await getRawItem(store, keys.apiKey(keyHash), { consistent: true }));
  if (!key || key.revokedAt) throw new ApiError('unauthorized', 'Unknown or revoked API key');
  await refreshLastUsed(store, keyHash, key, now);
  return { kind: 'key', level: key.level, accountId: key.accountId, keyId: key.id, ...(key.label === undefined ? {} : { keyLabel: key.label }) };
}

const NOT_A_MEMBER = 'You are signed in but not a member of an account: accept an invitation first';

export function authorize(caller: Caller, required: OperationLevel): void {
  if (required === 'person') {
    if (caller.kind === 'person' || caller.kind === 'newcomer') return;
    if (caller.kind === 'anonymous') throw new ApiError('unauthorized', 'This operation needs a signed-in person ("Bearer <token>")', { required });
    throw new ApiError('forbidden', 'This operation needs a signed-in person, not an API key', { required, level: caller.level });
  }
  // Anonymous operations too: a newcomer's token must not skip the per-visitor limit.
  if (caller.kind === 'newcomer') throw new ApiError('unauthorized', NOT_A_MEMBER, { reason: 'not-a-member' });
  if (rank(caller.level) >= rank(required)) return;
  if (caller.kind === 'anonymous') {
    throw new ApiError('unauthorized', `This operation needs an API key or a member's token with the ${required} level`, { required });
  }
  throw new ApiError('forbidden', `This operation needs the ${required} level; the ${caller.kind === 'key' ? 'key' : 'member'} has ${caller.level}`, {
    required,
    level: caller.level,
  });
}

/** A caller of an account: an API key or a member. */
export type AccountCaller = Extract<Caller, { accountId: string }>;

/** The caller as one of an account; only reached after `authorize` required viewer or admin. */
export function accountCaller(caller: Caller): AccountCaller {
  if (caller.kind === 'key' || caller.kind === 'person') return caller;
  throw new ApiError('unauthorized', 'This operation needs an API key or a member of the account');
}

/** The account of a keyed caller; only reached after `authorize` required viewer or admin. */
export function callerAccount(caller: Caller): string {
  if (caller.level === 'anonymous') throw new ApiError('unauthorized', 'This operation needs an API key or a member of the account');
  return caller.accountId;
}
