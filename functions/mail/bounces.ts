/**
 * SES's bounce and complaint events (the stack's configuration set publishes them to an SNS
 * topic whose subscriber is bounces-handler.ts): each permanent bounce or complaint
 * suppresses its addresses for the mail's account (domain/mail-suppression.ts). A
 * suppressed member gets no mail (mail/sender.ts) and the Members page says why.
 */
import { suppressionOfSesEvent } from '../domain/mail-suppression';
import { logger } from '../observability/logger';
import type { TableClient } from '../store/dynamodb-clients';
import { suppressAddresses } from '../store/mail';

/** Applies SNS messages of SES events; answers how many addresses were suppressed. Unreadable messages are logged and skipped. */
export async function applySesEvents(store: TableClient, messages: readonly string[], receivedAt: Date): Promise<number> {
  let suppressed = 0;
  for (const message of messages) {
    let event: unknown;
    try {
      event = JSON.parse(message);
    } catch {
      logger.warn('SES event is not JSON; skipped');
      continue;
    }
    const suppression = suppressionOfSesEvent(event, receivedAt);
    if (!suppression) continue;
    await suppressAddresses(
      store,
      suppression.accountId,
      { reason: suppression.reason, at: suppression.at, ...(suppression.detail ? { detail: suppression.detail } : {}) },
      suppression.addresses,
    );
    logger.info('mail addresses suppressed', { accountId: suppression.accountId, reason: suppression.reason, count: suppression.addresses.length });
    suppressed += suppression.addresses.length;
  }
  return suppressed;
}
