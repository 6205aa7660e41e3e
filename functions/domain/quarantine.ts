/**
 * Floods held back (docs/api.md "Quarantine"): which new responses arrive faster than a
 * plausible human rate on one item, and a set's thresholds with their defaults. Pure: the
 * screening step (stream/screening.ts) reads the recent responses and the item's counts and
 * asks here.
 */

/** Why a response is held; `spam-*` reasons come from domain/spam.ts. */
export const QUARANTINE_REASONS = [
  'visitor-burst',
  'address-limit',
  'item-surge',
  'spam-links',
  'spam-link-density',
  'spam-repeated-text',
  'spam-same-message-across-items',
  'spam-known-shape',
] as const;
export type QuarantineReason = (typeof QUARANTINE_REASONS)[number];

/** What a held response carries: why, and when it was held. */
export interface QuarantineRecord {
  reason: QuarantineReason;
  at: string;
}

/** A set's quarantine settings as `sets/get` shows them: defaults filled in. */
export interface QuarantineSettings {
  /**
   * The most responses one visitor, or one address whatever its user agents, may give on one
   * item within a minute; later ones are held. 0: no limit.
   */
  visitorBurst: number;
  /**
   * The most distinct visitors (user agents) of one address whose responses on one item count
   * in a UTC day; the responses of any further visitor of that address are held. 0: no limit.
   */
  addressLimit: number;
  /** An item's responses within a minute are a surge past this many times its mean per minute over the last 7 days... */
  surgeFactor: number;
  /** ...and never below this many a minute (a launch day's item has no history to compare with). 0: no surge rule. */
  surgeFloor: number;
  /** Messages (message, tagged-message) pass the spam check (domain/spam.ts). */
  spamCheck: boolean;
}

/** What a caller may give (`sets/create` metadata, `sets/save`): any of the fields; the rest keep their value or default. */
export type QuarantineSettingsInput = Partial<QuarantineSettings>;

/** `addressLimit` 3: a household's few browsers; an office behind one address needs more (docs/api.md). */
export const DEFAULT_QUARANTINE_SETTINGS: QuarantineSettings = { visitorBurst: 5, addressLimit: 3, surgeFactor: 20, surgeFloor: 600, spamCheck: true };
/** The highest `addressLimit` a set may have: the address's record of admitted visitors grows with it (store/address-visitors.ts). */
export const MAX_ADDRESS_LIMIT = 1000;

export function quarantineSettingsOf(stored: QuarantineSettingsInput | undefined): QuarantineSettings {
  return { ...DEFAULT_QUARANTINE_SETTINGS, ...stored };
}

/** The rates are per minute. */
export const RATE_WINDOW_MS = 60_000;
/** The item's mean rate is taken over this many days of its counts. */
export const BASELINE_DAYS = 7;

/** A response as the flood rules see it. */
export interface Arrival {
  id: string;
  contentItemId: string;
  /** The visitor hash of an anonymous response (absent for keyed calls: a site's own servers are not held). */
  visitor?: string;
  /** The address hash of an anonymous response (domain/visitor-hash.ts `addressHash`; absent on responses written before it). */
  address?: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/** Whether `other` arrived before `response`: by time, then by id, so that two of the same millisecond are ordered. */
const arrivedBefore = (other: Arrival, response: Arrival) =>
  other.createdAt < response.createdAt || (other.createdAt === response.createdAt && other.id < response.id);

/** The responses on the response's item in the minute up to it, before it. */
function earlierInWindow(response: Arrival, recent: readonly Arrival[]): Arrival[] {
  return recent.filter(
    (other) =>
      other.contentItemId === response.contentItemId &&
      other.id !== response.id &&
      arrivedBefore(other, response) &&
      response.createdAt - other.createdAt < RATE_WINDOW_MS,
  );
}

/** The surge threshold of an item: responses a minute past which it is held. */
export function surgeThreshold(settings: QuarantineSettings, itemCountLastDays: number): number {
  const meanPerMinute = itemCountLastDays / (BASELINE_DAYS * 24 * 60);
  return Math.max(settings.surgeFloor, settings.surgeFactor * meanPerMinute);
}

/**
 * What the address's record of the day on the item (store/address-visitors.ts) said of the
 * response's visitor: `admitted` (one of the first `addressLimit` visitors of the address, or
 * no limit), or `over-limit` (a further one).
 */
export type AddressAdmission = 'admitted' | 'over-limit';

/**
 * Why an anonymous response is held as part of a flood, or undefined. `recent` holds the
 * set's responses known around it (held ones too: they arrived), `itemCountLastDays` the
 * item's counted responses of the last BASELINE_DAYS days, `admission` whether its visitor
 * is among the first `addressLimit` of its address on the item today.
 *  - address-limit: the address had `addressLimit` other visitors on the item today;
 *  - visitor-burst: the visitor, or its address whatever the user agent, gave `visitorBurst`
 *    or more responses on the item in the minute before this one (so the 6th within a minute
 *    is held, by default);
 *  - item-surge: the item had its surge threshold's worth or more in that minute.
 */
export function floodReason(
  response: Arrival,
  recent: readonly Arrival[],
  settings: QuarantineSettings,
  itemCountLastDays: number,
  admission: AddressAdmission = 'admitted',
): QuarantineReason | undefined {
  if (response.visitor === undefined) return undefined;
  if (admission === 'over-limit') return 'address-limit';
  const earlier = earlierInWindow(response, recent);
  const sameSource = (other: Arrival) => other.visitor === response.visitor || (response.address !== undefined && other.address === response.address);
  if (settings.visitorBurst > 0 && earlier.filter(sameSource).length >= settings.visitorBurst) return 'visitor-burst';
  if (settings.surgeFloor > 0 && earlier.length >= surgeThreshold(settings, itemCountLastDays)) return 'item-surge';
  return undefined;
}
