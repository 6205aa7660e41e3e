/**
 * The anonymous visitor of one content item on one UTC day, recognised without storing who
 * they are (docs/api.md, "One vote per visitor"): an HMAC-SHA256 of (visitor key of the
 * address, user agent, set, item) under that day's secret salt (store/visitor-salts.ts). The
 * salt is deleted after its day, so a hash cannot be recomputed from an address afterwards,
 * and the same visitor has unrelated hashes on other days and other items.
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
export function visitorResponseId(salt: Buffer, visitor: Visitor, target: { contentSetId: string; contentItemId: string }): string {
  // NUL separates the parts: none of them can contain one (HTTP headers and ids cannot).
  const message = [visitor.addressKey, visitor.userAgent, target.contentSetId, target.contentItemId].join('\u0000');
  return idOf(createHmac('sha256', salt).update(message, 'utf8').digest().subarray(0, 16));
}
