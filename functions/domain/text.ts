import { createHash, randomBytes } from 'node:crypto';

/**
 * Bytes as an id: URL-safe, never starting with `-`. A spreadsheet reads a leading `-` as
 * a formula, so CSV exports' formula guard would prefix such an id with an apostrophe and
 * it would no longer match the API's; `_` takes its place (it costs 1/64 of one bit).
 */
export function idOf(bytes: Uint8Array): string {
  const id = Buffer.from(bytes).toString('base64url');
  return id.startsWith('-') ? `_${id.slice(1)}` : id;
}

/** 128 bits of a SHA-256, URL-safe: ids derived from other ids, so the same inputs always give the same id. */
export function derivedId(...parts: string[]): string {
  return idOf(createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16));
}

/** FNV-1a, 32 bits, of a string's UTF-16 code units: a fast, fixed, well-spread hash for bucketing (not for secrets). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** 128 random bits, URL-safe (22 characters). */
export function newId(): string {
  return idOf(randomBytes(16));
}

/** Addresses a content key's uniqueness item: keys can be longer than a DynamoDB key attribute. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('base64url');
}

/** An id we issue: 22 characters, or 44 for a content item (contentItemId). */
export const ID_PATTERN = /^[A-Za-z0-9_-]{22}(?:[A-Za-z0-9_-]{22})?$/;

/**
 * A new content item's id: its set's id, then 128 random bits (44 characters). An item
 * never changes set, and carrying the set's id lets a cold `responses/create` by contentId
 * read the item and its set in one BatchGetItem (revoke tokens carry it for the same reason).
 */
export function newContentItemId(contentSetId: string): string {
  return contentSetId + newId();
}

/** The set a content item's id names; undefined for 22-character ids, issued before ids carried it. */
export function contentSetOfItemId(contentItemId: string): string | undefined {
  return contentItemId.length === 44 && ID_PATTERN.test(contentItemId) ? contentItemId.slice(0, 22) : undefined;
}

/** Sort keys hold at most this many code points of user text, well under DynamoDB's 1024-byte limit. */
export const INDEXED_PREFIX_LENGTH = 200;

/** Lower-cased leading part of a text, cut on code points so no surrogate pair is split. */
export function indexedPrefix(text: string | undefined): string {
  return Array.from((text ?? '').toLowerCase())
    .slice(0, INDEXED_PREFIX_LENGTH)
    .join('');
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
