/**
 * Who an anonymous response comes from, as far as `onePerVisitor` and the flood rules need
 * to know (docs/api.md, "One vote per visitor", "Quarantine"): the response id the visitor's
 * responses on an item share for the UTC day, and the hash of its address alone on the item
 * that day (domain/visitor-hash.ts), under the day's salt (store/visitor-salts.ts), which
 * each function instance reads once per day and keeps.
 */
import { callerVisitorKey } from '../api/client-address';
import { addressHash, saltDay, visitorResponseId } from '../domain/visitor-hash';
import type { TableClient } from '../store/dynamodb-clients';
import { daySalt } from '../store/visitor-salts';

/** The salt this instance read last, with its day: an instance serves one day at a time. */
let remembered: { day: string; salt: Promise<Buffer> } | undefined;

function saltOfDay(table: TableClient, day: string): Promise<Buffer> {
  if (remembered?.day !== day) {
    const salt = daySalt(table, day);
    remembered = { day, salt };
    // A failed read is not remembered: the next response tries again.
    salt.catch(() => {
      if (remembered?.salt === salt) remembered = undefined;
    });
  }
  return remembered.salt;
}

/** Forgets the remembered salt, as a new function instance would (tests, the benchmark's cold calls). */
export function forgetVisitorSalt(): void {
  remembered = undefined;
}

export interface VisitorIdentity {
  /** The id of the visitor's response on the item today (address and user agent). */
  visitor: string;
  /** The hash of the address on the item today, whatever the user agent. */
  address: string;
}

/**
 * The visitor's and the address's hashes on this item today, or undefined when the request
 * names no address (then it is not recognised, and counts as a response of its own).
 */
export async function visitorIdentityOf(
  table: TableClient,
  request: { headers: Record<string, string | undefined>; sourceIp?: string },
  target: { contentSetId: string; contentItemId: string },
  now: Date,
): Promise<VisitorIdentity | undefined> {
  const addressKey = callerVisitorKey(request.headers, request.sourceIp);
  if (!addressKey) return undefined;
  const salt = await saltOfDay(table, saltDay(now));
  return {
    visitor: visitorResponseId(salt, { addressKey, userAgent: request.headers['user-agent'] ?? '' }, target),
    address: addressHash(salt, addressKey, target),
  };
}
