/**
 * The anonymous visitor of one content item on one UTC day, recognised without storing who
 * they are (docs/api.md, "One vote per visitor"): an HMAC-SHA256 of (visitor key of the
 * address, user agent, set, item) under that day's secret salt (store/visitor-salts.ts). The
 * salt is deleted after its day, so a hash cannot be recomputed from an address afterwards,
 * and the same visitor has unrelated hashes on other days and other items.
 *
 * The address alone gets a hash of its own the same way (`addressHash`): the coarser key of
 * the address limit (domain/quarantine.ts), since the user agent is whatever the caller sends.
 */
import { createHmac } from 'node:crypto';
import { idOf } from './text';

export interface Visitor {
  /** The visitor key of the address (api/client-address.ts `callerVisitorKey`: through the distribution, an IPv6 address by its /64). */
  addressKey: string;
  userAgent: string;
}

/** The UTC day a salt serves, `YYYY-MM-DD`. */
export function saltDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The visitor's response id on an item that day: the first 128 bits of the HMAC, as an id
 * (22 characters, like every response id), so the visitor's second response on the item
 * lands on the first one's key and replaces it in one write.
 */
export function visitorResponseId(salt: Buffer, visitor: Visitor, target: HashedTarget): string {
  // NUL separates the parts: none of them can contain one (HTTP headers and ids cannot).
  return hashOf(salt, [visitor.addressKey, visitor.userAgent, target.contentSetId, target.contentItemId]);
}

/**
 * The address's hash on an item that day, whatever user agent it sends: 128 bits of the HMAC
 * of (visitor key of the address, set, item) under the same salt. Three parts, where a
 * visitor's message has four: the two can never be the same message.
 */
export function addressHash(salt: Buffer, addressKey: string, target: HashedTarget): string {
  return hashOf(salt, [addressKey, target.contentSetId, target.contentItemId]);
}

export interface HashedTarget {
  contentSetId: string;
  contentItemId: string;
}

function hashOf(salt: Buffer, parts: string[]): string {
  return idOf(createHmac('sha256', salt).update(parts.join('\u0000'), 'utf8').digest().subarray(0, 16));
}
