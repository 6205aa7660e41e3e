import { createHash, randomBytes } from 'node:crypto';

/** 128 random bits, URL-safe (22 characters). */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

/** Addresses a content key's uniqueness item: keys can be longer than a DynamoDB key attribute. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('base64url');
}

export const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

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
