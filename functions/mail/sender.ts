/**
 * Sends one mail to one member, once (docs/architecture.md, "Mail"):
 *
 * 1. claims its record (store/mail.ts), when it is one that must go out once (a digest
 *    per member, project and week; an alert per member; a day's listing per member);
 * 2. reads the member again, strongly consistent: still a member of the account, with the
 *    same verified address, which is not suppressed; otherwise nothing is sent (a removal
 *    takes effect for the very next mail);
 * 3. composes it with an unsubscribe link for that member and kind;
 * 4. waits for its turn under the rate cap, sends it, retrying transient failures
 *    (throttling, a refused connection, a 4xx answer) with exponential backoff and full
 *    jitter; a permanent refusal is recorded and not retried, and an SMTP server's refusal
 *    of the recipient suppresses the address for the account, as a bounce would;
 * 5. records the outcome under its claim.
 */
import { RateLimiterMemory, RateLimiterQueue } from 'rate-limiter-flexible';
import { effectivePreferences, type MailKind, type NotificationPreferences, type StoredPreferences } from '../domain/notifications';
import { suppressionKey } from '../domain/mail-suppression';
import { logger } from '../observability/logger';
import { mailTokenKey } from '../secrets/keys';
import { getRawItem } from '../store/batch';
import type { TableClient } from '../store/dynamodb-clients';
import { keys } from '../store/items';
import { claimMail, type MailClaim, recordMail, suppressAddresses, suppressionsOf } from '../store/mail';
import type { ComposedMail } from './compose';
import type { MailSettings } from './settings';
import type { MailFrame } from './templates';
import type { MailTransport } from './transport';
import { signUnsubscribeToken } from './unsubscribe-token';

/** Attempts per mail within one run; a mail still failing is left for the next run. */
export const SEND_ATTEMPTS = 4;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 8_000;
/** A claim's lease: longer than a send with all its waits, so no other run takes a mail being sent. */
const LEASE_MS = 5 * 60_000;

export type FailureKind = 'transient' | 'permanent';

const TRANSIENT_SES = new Set([
  'TooManyRequestsException',
  'LimitExceededException',
  'ThrottlingException',
  'InternalServiceErrorException',
  'ServiceUnavailable',
]);
const TRANSIENT_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'ECONNREFUSED', 'ECONNRESET', 'EDNS', 'EAI_AGAIN', 'EPIPE']);

interface SendError {
  name?: string;
  code?: string;
  responseCode?: number;
  command?: string;
  $metadata?: { httpStatusCode?: number };
}

/** Whether a failed send may succeed later (SES throttling, 5xx; SMTP 4xx, a lost connection) or never will (SES's rejection, SMTP 5xx). */
export function failureKind(error: unknown): FailureKind {
  const failure = (error ?? {}) as SendError;
  if (typeof failure.responseCode === 'number') return failure.responseCode >= 500 ? 'permanent' : 'transient';
  if (failure.code && TRANSIENT_CODES.has(failure.code)) return 'transient';
  if (failure.name && TRANSIENT_SES.has(failure.name)) return 'transient';
  const status = failure.$metadata?.httpStatusCode;
  if (status !== undefined) return status >= 500 || status === 429 ? 'transient' : 'permanent';
  return 'transient';
}

/** An SMTP server's permanent refusal of the recipient itself (no such mailbox): as good as a hard bounce. */
export function refusesRecipient(error: unknown): boolean {
  const failure = (error ?? {}) as SendError;
  return failure.command === 'RCPT TO' && typeof failure.responseCode === 'number' && failure.responseCode >= 550 && failure.responseCode <= 553;
}

/** A member as mail reaches them. */
export interface MailRecipient {
  memberId: string;
  personKey: string;
  accountId: string;
  address: string;
}

export interface MailRequest {
  recipient: MailRecipient;
  kind: MailKind;
  /** The key that makes it go out once; none for a mail a member asked for now. */
  once?: string;
  /** The mail, given its frame (account, links, footer). */
  compose: (frame: MailFrame) => Promise<ComposedMail>;
  frame: Omit<MailFrame, 'unsubscribeUrl'>;
  /** Whether the member's preferences, read again just before sending, still ask for it (an unsubscribe holds at once). */
  wants: (preferences: NotificationPreferences) => boolean;
}

export type MailOutcome =
  | { state: 'sent'; messageId: string; subject: string }
  | { state: 'duplicate' }
  | { state: 'skipped'; reason: string }
  | { state: 'refused'; reason: string }
  | { state: 'retry'; reason: string };

export interface SenderOptions {
  sleep?: (ms: number) => Promise<unknown>;
  random?: () => number;
  clock?: () => Date;
}

type Role = 'viewer' | 'admin' | 'owner';

const sleep = (ms: number) => new Promise((settle) => setTimeout(settle, ms));

export class MailSender {
  private readonly queue: RateLimiterQueue;
  private readonly wait: (ms: number) => Promise<unknown>;
  private readonly random: () => number;
  private readonly clock: () => Date;
  /** What this sender did, for the run's result and the cost bench. */
  readonly counts = { sent: 0, duplicate: 0, skipped: 0, refused: 0, retry: 0, attempts: 0 };

  constructor(
    private readonly store: TableClient,
    private readonly settings: MailSettings,
    private readonly transport: MailTransport,
    options: SenderOptions = {},
  ) {
    // A token bucket of `ratePerSecond` a second, waited for in order (rate-limiter-flexible).
    this.queue = new RateLimiterQueue(new RateLimiterMemory({ points: settings.ratePerSecond, duration: 1 }), { maxQueueSize: 100_000 });
    this.wait = options.sleep ?? sleep;
    this.random = options.random ?? Math.random;
    this.clock = options.clock ?? (() => new Date());
  }

  close(): void {
    this.transport.close();
  }

  async send(request: MailRequest): Promise<MailOutcome> {
    const { recipient } = request;
    const now = this.clock();
    let claim: MailClaim | undefined;
    if (request.once) {
      claim = await claimMail(this.store, request.once, { kind: request.kind, memberId: recipient.memberId, accountId: recipient.accountId }, now, LEASE_MS);
      if (!claim) return this.counted({ state: 'duplicate' });
    }
    const finish = async (outcome: MailOutcome & { state: 'sent' | 'skipped' | 'refused' | 'retry' }, attempts?: number) => {
      if (claim) {
        await recordMail(this.store, claim, {
          state: outcome.state,
          at: this.clock(),
          ...(outcome.state === 'sent' ? { messageId: outcome.messageId } : { reason: outcome.reason }),
          ...(attempts ? { attempts } : {}),
        });
      }
      return this.counted(outcome);
    };

    const unreachable = await this.unreachable(recipient, request.wants);
    if (unreachable) return finish({ state: 'skipped', reason: unreachable });

    const token = await signUnsubscribeToken(
      { memberId: recipient.memberId, accountId: recipient.accountId, kind: request.kind },
      await mailTokenKey.get(),
      now,
    );
    const unsubscribeUrl = `${this.settings.unsubscribeUrl}?token=${encodeURIComponent(token)}`;
    const mail = await request.compose({ ...request.frame, unsubscribeUrl });
    for (let attempt = 1; ; attempt++) {
      await this.queue.removeTokens(1);
      this.counts.attempts++;
      try {
        const sent = await this.transport.send({
          from: this.settings.from,
          to: recipient.address,
          ...mail,
          unsubscribeUrl,
          accountId: recipient.accountId,
          kind: request.kind,
        });
        return finish({ state: 'sent', messageId: sent.messageId, subject: mail.subject }, attempt);
      } catch (error) {
        const reason = (error as Error).message ?? String(error);
        if (failureKind(error) === 'permanent') {
          logger.warn('mail refused', { kind: request.kind, memberId: recipient.memberId, reason });
          if (refusesRecipient(error)) {
            await suppressAddresses(this.store, recipient.accountId, { reason: 'refused', at: this.clock().toISOString(), detail: reason.slice(0, 500) }, [
              recipient.address,
            ]);
          }
          return finish({ state: 'refused', reason }, attempt);
        }
        if (attempt >= SEND_ATTEMPTS) {
          logger.warn('mail not sent: will retry at the next run', { kind: request.kind, memberId: recipient.memberId, reason });
          return finish({ state: 'retry', reason }, attempt);
        }
        await this.wait(Math.floor(this.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1))));
      }
    }
  }

  /** Why a member cannot be mailed now (one strongly consistent GetItem, one for the suppression), or undefined. */
  private async unreachable(recipient: MailRecipient, wants: MailRequest['wants']): Promise<string | undefined> {
    const member = await getRawItem(this.store, keys.member(recipient.personKey), { consistent: true });
    if (!member || member.id !== recipient.memberId || member.accountId !== recipient.accountId) return 'no longer a member';
    if (!wants(effectivePreferences(member.role as Role, member.notifications as StoredPreferences | undefined))) return 'unsubscribed';
    if (typeof member.mailAddress !== 'string' || suppressionKey(member.mailAddress) !== suppressionKey(recipient.address)) return 'address changed';
    const suppressed = await suppressionsOf(this.store, recipient.accountId, [recipient.address]);
    if (suppressed.size > 0) return `suppressed (${[...suppressed.values()][0].reason})`;
    return undefined;
  }

  private counted<Outcome extends MailOutcome>(outcome: Outcome): Outcome {
    this.counts[outcome.state]++;
    return outcome;
  }
}
