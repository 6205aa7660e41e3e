/**
 * Paging cursors: the position in an index where a list stopped, sealed so that a caller
 * can hand it back but neither read nor change it.
 *
 * A cursor is `{ account, scope, position }` sealed (domain/sealing.ts, AES-256-GCM) with a
 * key derived from a server secret (functions/secrets/keys.ts says where that comes from). GCM
 * authenticates as it decrypts, so a forged or altered cursor does not open; the account
 * and the scope fingerprint inside must then equal the caller's account and the list's
 * current filters, so a cursor of another account or of another list is refused too. The
 * position itself is opaque here (the index key the next query starts after).
 *
 * The layout is sealing's, with no associated data: base64url characters only.
 */
import { createHash, hkdfSync } from 'node:crypto';
import { open, seal } from './sealing';

/** A cursor longer than this was not made here (positions are index keys: a few hundred bytes). */
export const MAX_CURSOR_LENGTH = 4096;

export interface CursorContent {
  /** The account the list was read for. */
  accountId: string;
  /** scopeFingerprint() of what the list reads: operation, index, filters. */
  scope: string;
  /** Where the next page starts (an index key, serialized). */
  position: string;
}

/** The 32-byte AES key of a secret (any length, at least 16 bytes of entropy expected). */
export function cursorKey(secret: string | Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'feedback-service cursor v1', 32));
}

/**
 * A short digest of a list's scope: everything that decides which items the list yields
 * (operation, index partition, state, bounds, format), not the page size.
 */
export function scopeFingerprint(scope: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(scope)
      .sort()
      .filter((name) => scope[name] !== undefined)
      .map((name) => [name, scope[name]]),
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

export function sealCursor(key: Buffer, content: CursorContent): string {
  return seal(key, JSON.stringify([content.accountId, content.scope, content.position]));
}

/** The content of a cursor sealed with this key, or null for anything else (forged, altered, truncated, other key). */
export function openCursor(key: Buffer, cursor: string): CursorContent | null {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const plain = open(key, cursor);
  if (!plain) return null;
  try {
    const parsed: unknown = JSON.parse(plain.toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((part) => typeof part === 'string')) return null;
    const [accountId, scope, position] = parsed as string[];
    return { accountId, scope, position };
  } catch {
    return null;
  }
}

/**
 * Opens a cursor for one caller and one list: null unless it was sealed with this key for
 * this very account and scope.
 */
export function openCursorFor(key: Buffer, cursor: string, expected: { accountId: string; scope: string }): string | null {
  const content = openCursor(key, cursor);
  if (!content || content.accountId !== expected.accountId || content.scope !== expected.scope) return null;
  return content.position;
}
