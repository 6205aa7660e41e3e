import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { getRawItem } from '../store/batch';
import { isConditionFailure } from '../store/conditions';
import type { TableClient } from '../store/dynamodb-clients';
import { type ApiKeyRecord, apiKeyOf, keys } from '../store/items';
import { ApiError } from './errors';
import { logger } from '../observability/logger';

export const LEVELS = ['anonymous', 'viewer', 'admin'] as const;
export type Level = (typeof LEVELS)[number];
export type KeyLevel = Exclude<Level, 'anonymous'>;

/** A keyed caller carries its key's public id and label: who the audit log names (functions/api/audit.ts). */
export type Caller = { level: 'anonymous' } | { level: KeyLevel; accountId: string; keyId: string; keyLabel?: string };

export const ANONYMOUS: Caller = { level: 'anonymous' };

const KEY_PREFIX = 'fbk_';
/**
 * `API-KEY <key>`: the scheme in any case, ASCII spaces or tabs around the key, and the key
 * a token68 (RFC 9110 §11.4). JavaScript's `\s` would also take a no-break space and other
 * Unicode spaces, which a web ACL or proxy counts as a non-empty header: every header that
 * is not exactly this shape is refused, so skipping the per-visitor limit always costs a key.
 */
const AUTH_HEADER = /^API-KEY[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;

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

/**
 * Resolves the `Authorization` header to a caller: only a request without the header is
 * anonymous; one that is present (even empty or blank) but not a live key is an error. The key is read strongly consistent, so a revocation holds from the
 * very next request.
 */
export async function authenticate(store: TableClient, authorization: string | undefined, now: Date = new Date()): Promise<Caller> {
  if (authorization === undefined) return ANONYMOUS;
  const match = AUTH_HEADER.exec(authorization);
  if (!match) {
    throw new ApiError('unauthorized', 'The Authorization header must be "API-KEY <key>"');
  }
  // Raw (store/items.ts), so the widgets' bundles carry no ElectroDB.
  const keyHash = hashSecret(match[1]);
  const key = apiKeyOf(await getRawItem(store, keys.apiKey(keyHash), { consistent: true }));
  if (!key || key.revokedAt) throw new ApiError('unauthorized', 'Unknown or revoked API key');
  await refreshLastUsed(store, keyHash, key, now);
  return { level: key.level, accountId: key.accountId, keyId: key.id, ...(key.label === undefined ? {} : { keyLabel: key.label }) };
}

export function authorize(caller: Caller, required: Level): void {
  if (rank(caller.level) >= rank(required)) return;
  if (caller.level === 'anonymous') {
    throw new ApiError('unauthorized', `This operation needs an API key with the ${required} level`, { required });
  }
  throw new ApiError('forbidden', `This operation needs the ${required} level; the key has ${caller.level}`, {
    required,
    level: caller.level,
  });
}

/** The account of a keyed caller; only reached after `authorize` required viewer or admin. */
export function callerAccount(caller: Caller): string {
  if (caller.level === 'anonymous') throw new ApiError('unauthorized', 'This operation needs an API key');
  return caller.accountId;
}
