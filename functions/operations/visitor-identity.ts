/**
 * Who an anonymous response comes from, as far as `onePerVisitor` and the flood rules need
 * to know (docs/api.md, "One vote per visitor", "Quarantine"): the response id the visitor's
 * responses on an item share for the UTC day, and the hash of its address alone on the item
 * that day (domain/visitor-hash.ts), under the day's salt (store/visitor-salts.ts), which
 * each function instance reads once per day and keeps.
 */
import { callerVisitorKey } from '../api/client-address';
import { BoundedCache } from '../domain/bounded-cache';
import { addressHash, saltDay, visitorResponseId } from '../domain/visitor-hash';
import type { TableClient } from '../store/dynamodb-clients';
import type { KeptOnReplacement } from '../store/items';
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

/** Forgets the remembered salt and responses, as a new function instance would (tests, the benchmark's cold calls). */
export function forgetVisitorSalt(): void {
  remembered = undefined;
  written.clear();
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

/**
 * The visitors' responses this instance wrote, by id, with what each keeps from its first
 * version (an id is a visitor's on one item and one UTC day, so yesterday's are never asked
 * for again and age out): a visitor's later response of the day that reaches the same
 * instance replaces the first with a PutItem (store/items.ts `visitorResponseReplacement`).
 * An id that is not here (another instance wrote it, or it aged out) takes the UpdateItem,
 * which creates or replaces: being forgotten costs speed, never correctness. 20,000 entries
 * of about 100 bytes: 2 MB at most.
 */
const written = new BoundedCache<string, KeptOnReplacement>({ maxEntries: 20_000, maxSize: 20_000, sizeOf: () => 1 });

export const rememberVisitorResponse = (id: string, kept: KeptOnReplacement) => written.set(id, kept);
/** Forgets one response, as another instance would not know it (tests). */
export const forgetVisitorResponse = (id: string) => written.delete(id);
export const rememberedVisitorResponse = (id: string): KeptOnReplacement | undefined => written.get(id);
