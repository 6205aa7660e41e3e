/**
 * When the service stops mailing an address (docs/api.md, "Mail"): what Amazon SES's event
 * publishing says of a sent mail (a configuration set's bounce and complaint events, as
 * SNS delivers them), read into a suppression of the addresses for the mail's account. Pure.
 *
 * Only a permanent bounce suppresses: a transient one (a full mailbox, a greylisting
 * server) is SES's to retry. A complaint (the person marked the mail as spam) always does.
 * The account comes from the mail's `account` tag, which every mail the service sends
 * carries (mail/sender.ts): a suppression holds for that account only, since the same
 * address may be wanted by another.
 */

export const SUPPRESSION_REASONS = ['bounce', 'complaint', 'refused'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** The tag naming the account on every mail sent through SES. */
export const ACCOUNT_TAG = 'account';
/** The tag naming the kind of mail (`digest`, `alerts`). */
export const KIND_TAG = 'kind';

export interface Suppression {
  accountId: string;
  addresses: string[];
  reason: SuppressionReason;
  /** What the receiving server or the feedback report said, cut to 500 characters. */
  detail?: string;
  at: string;
}

const DETAIL_LIMIT = 500;

/** The fields of an SES event (event publishing, or the older notifications' `notificationType`) read here; everything is checked. */
interface SesEvent {
  eventType?: unknown;
  notificationType?: unknown;
  mail?: { tags?: Record<string, unknown[] | undefined> };
  bounce?: { bounceType?: unknown; bounceSubType?: unknown; bouncedRecipients?: { diagnosticCode?: unknown }[]; timestamp?: unknown };
  complaint?: { complainedRecipients?: unknown; complaintFeedbackType?: unknown; timestamp?: unknown };
}

/** An address as suppressions are keyed: trimmed, lower case (domains are case-blind; local parts almost always are in practice). */
export const suppressionKey = (address: string) => address.trim().toLowerCase();

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** An event's time as the API writes times (ISO with milliseconds), else when it was received. */
function timeOf(value: unknown, receivedAt: Date): string {
  const at = Date.parse(text(value) ?? '');
  return new Date(Number.isNaN(at) ? receivedAt.getTime() : at).toISOString();
}

function recipients(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((entry) => text((entry as { emailAddress?: unknown })?.emailAddress)).filter((address): address is string => address !== undefined);
}

/**
 * The suppression an SES event asks for, or undefined: not a permanent bounce or a
 * complaint, no account tag, or no recipients. `event` is the parsed SNS message.
 */
export function suppressionOfSesEvent(event: unknown, receivedAt: Date): Suppression | undefined {
  if (!event || typeof event !== 'object') return undefined;
  const record = event as SesEvent;
  const type = record.eventType ?? record.notificationType;
  const accountId = text(record.mail?.tags?.[ACCOUNT_TAG]?.[0]);
  if (!accountId) return undefined;
  if (type === 'Bounce') {
    const bounce = record.bounce ?? {};
    if (bounce.bounceType !== 'Permanent') return undefined;
    const addresses = recipients(bounce.bouncedRecipients);
    if (addresses.length === 0) return undefined;
    const diagnostic = text(bounce.bouncedRecipients?.[0]?.diagnosticCode);
    const detail = [text(bounce.bounceSubType), diagnostic].filter(Boolean).join(': ');
    return { accountId, addresses, reason: 'bounce', ...(detail ? { detail: detail.slice(0, DETAIL_LIMIT) } : {}), at: timeOf(bounce.timestamp, receivedAt) };
  }
  if (type === 'Complaint') {
    const complaint = record.complaint ?? {};
    const addresses = recipients(complaint.complainedRecipients);
    if (addresses.length === 0) return undefined;
    const detail = text(complaint.complaintFeedbackType);
    return {
      accountId,
      addresses,
      reason: 'complaint',
      ...(detail ? { detail: detail.slice(0, DETAIL_LIMIT) } : {}),
      at: timeOf(complaint.timestamp, receivedAt),
    };
  }
  return undefined;
}
