/**
 * Webhooks, the pure part: event types, formats, limits, the retry schedule and what an
 * answer of a receiver means. No I/O; the clock and the random source are arguments.
 */

/** Event types an endpoint can subscribe to (the default: DEFAULT_WEBHOOK_EVENT_TYPES). */
export const WEBHOOK_EVENT_TYPES = [
  'response.created',
  'response.updated',
  'response.revoked',
  'response.deleted',
  'response.quarantined',
  'content.created',
  'stats.alert',
  'digest.weekly',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What a webhook created without `events` subscribes to: all but `response.quarantined`, which goes to webhooks that ask for it. */
export const DEFAULT_WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'response.quarantined');

/** Sent by `webhooks/test` only; endpoints do not subscribe to it. */
export const TEST_EVENT_TYPE = 'webhook.test';
export type DeliveredEventType = WebhookEventType | typeof TEST_EVENT_TYPE;

/** `standard`: Standard Webhooks JSON; `slack` and `discord`: one chat line to an incoming webhook. */
export const WEBHOOK_FORMATS = ['standard', 'slack', 'discord'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Whether a content item's key is the address of the console's embed page of its own set
 * (`<console>/sets/<set id>/embed`): the key the live preview's widget answers on. Webhooks
 * announce nothing on such an item (a test click must not post to a team's chat). Matched by
 * the path and the set's own id, not the console's origin, which the consumers are not told.
 */
export function isPreviewKey(key: string, contentSetId: string): boolean {
  try {
    return new URL(key).pathname.endsWith(`/sets/${contentSetId}/embed`);
  } catch {
    return false;
  }
}

export const MAX_WEBHOOKS_PER_ACCOUNT = 20;
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** One attempt: connection, request and answer together. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** After `webhooks/rotateSecret`, deliveries carry the old secret's signature too for this long. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;
/** An endpoint whose deliveries have failed without a success for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
/** Delivery records (the log) are kept this long after their last change (DynamoDB TTL). */
export const DELIVERY_RETENTION_SECONDS = 30 * 24 * 3600;

/**
 * Standard Webhooks' retry schedule: the waits after the 1st, 2nd, ... failed attempt
 * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h): ten attempts over about three days.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
/** Each wait is moved by up to this fraction either way, so failures of many deliveries do not retry in lockstep. */
export const RETRY_JITTER = 0.1;
/** A Retry-After longer than this is not honoured beyond it. */
export const MAX_RETRY_AFTER_SECONDS = 86400;

/** `WEBHOOK_RETRY_SCHEDULE` (comma-separated seconds, e.g. `1,2,4`) or the default. */
export function retrySchedule(text: string | undefined = process.env.WEBHOOK_RETRY_SCHEDULE): readonly number[] {
  if (text === undefined || text.trim() === '') return DEFAULT_RETRY_SCHEDULE_SECONDS;
  const waits = text.split(',').map((part) => Number(part.trim()));
  if (waits.some((wait) => !Number.isFinite(wait) || wait < 0)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds (e.g. "1,2,4"), not "${text}"`);
  }
  return waits;
}

/**
 * Requests one sender (a process: `npm start`, a consumer invocation, a sweeper run) has in
 * flight to one endpoint at most: enough for a burst to leave at hundreds of events a second
 * to a receiver answering within tens of milliseconds, few enough not to flood one.
 */
export const DEFAULT_ENDPOINT_CONCURRENCY = 10;
/** The most `WEBHOOK_ENDPOINT_CONCURRENCY` may say: the sender's sockets per host (webhooks/sender.ts). */
export const MAX_ENDPOINT_CONCURRENCY = 32;

/** `WEBHOOK_ENDPOINT_CONCURRENCY` (a whole number from 1 to 32) or the default. */
export function endpointConcurrency(text: string | undefined = process.env.WEBHOOK_ENDPOINT_CONCURRENCY): number {
  if (text === undefined || text.trim() === '') return DEFAULT_ENDPOINT_CONCURRENCY;
  const limit = Number(text.trim());
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ENDPOINT_CONCURRENCY) {
    throw new Error(`WEBHOOK_ENDPOINT_CONCURRENCY must be a whole number from 1 to ${MAX_ENDPOINT_CONCURRENCY}, not "${text}"`);
  }
  return limit;
}

/** What an attempt's answer means for the delivery and the endpoint. */
export type AttemptVerdict =
  | 'succeeded'
  /** 429, 5xx, timeouts, network errors: tried again later. */
  | 'retry'
  /** 410 Gone: the endpoint is disabled at once. */
  | 'gone'
  /** Anything else (redirects, other 4xx, a refused target): not tried again. */
  | 'failed';

export function verdictOfStatus(status: number): AttemptVerdict {
  if (status >= 200 && status < 300) return 'succeeded';
  if (status === 410) return 'gone';
  if (status === 429 || status >= 500) return 'retry';
  return 'failed';
}

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), if it says anything usable. */
export function parseRetryAfter(header: string | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_SECONDS);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, Math.ceil((date - now.getTime()) / 1000)), MAX_RETRY_AFTER_SECONDS);
}

/**
 * When to try again after the `failures`-th failed attempt of a round (1 = the first
 * attempt failed), or undefined when the schedule is exhausted. The wait is the schedule's,
 * jittered, and never shorter than what the receiver asked for with Retry-After.
 */
export function nextAttemptAt(
  failures: number,
  now: Date,
  options: { schedule?: readonly number[]; random?: () => number; retryAfterSeconds?: number } = {},
): Date | undefined {
  const schedule = options.schedule ?? retrySchedule();
  if (failures < 1 || failures > schedule.length) return undefined;
  const jitter = 1 + RETRY_JITTER * (2 * (options.random ?? Math.random)() - 1);
  const waitSeconds = Math.max(schedule[failures - 1] * jitter, options.retryAfterSeconds ?? 0);
  return new Date(now.getTime() + Math.round(waitSeconds * 1000));
}

/** Whether an endpoint failing since `failingSince` has failed long enough to be disabled. */
export function failedTooLong(failingSince: string | undefined, now: Date): boolean {
  return failingSince !== undefined && now.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS;
}

/** Slack for what the retry waits leave out: leases (30 s each), attempts (10 s each) and sweeps running late. */
const LIFETIME_SLACK_SECONDS = 24 * 3600;

/**
 * How long a delivery can outlive its (re)queueing: every retry wait at its longest (the
 * jittered schedule step or an honoured Retry-After, whichever is longer), then the
 * retention after its last attempt. A delivery's own TTL moves with each attempt; what
 * must outlive it without being rewritten on every attempt (the erasure pointer,
 * store/webhooks.ts) expires after this instead.
 */
export function deliveryLifetimeSeconds(schedule: readonly number[] = retrySchedule()): number {
  // In milliseconds rounded as nextAttemptAt rounds them: no floating-point second too many.
  const retriesMs = schedule.reduce((sum, wait) => sum + Math.max(Math.round(wait * (1 + RETRY_JITTER) * 1000), MAX_RETRY_AFTER_SECONDS * 1000), 0);
  return Math.ceil(retriesMs / 1000) + LIFETIME_SLACK_SECONDS + DELIVERY_RETENTION_SECONDS;
}
