/**
 * Mail's items (docs/architecture.md, "Mail"): the addresses an account no longer mails,
 * and one record per mail that must go out once. Raw items, no ElectroDB.
 *
 * | Access pattern                                     | Index | Partition key                 | Sort key          |
 * |----------------------------------------------------|-------|-------------------------------|-------------------|
 * | An account's suppressed addresses                  | table | mailsuppress#<accountId>      | <address, lower>  |
 * | A mail that goes out once (digest, alert, listing) | table | mailsent#<once key>           | mail              |
 * | A member's last "send me the digest now"           | table | mailnow#<memberId>            | guard             |
 *
 * A mail's record is its claim: whoever creates it (or takes over one whose lease ran out
 * while it was still being sent or waiting for a retry) sends the mail, and records the
 * outcome on the condition that its lease token is still the record's. Two runs that
 * overlap therefore send a mail once; a sender that dies between the send and its record
 * leaves the lease to run out, and the mail is sent again by a later run (the one case of
 * a second copy: SMTP and SES take a message without a key that would make it idempotent).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { type SuppressionReason, suppressionKey } from '../domain/mail-suppression';
import { getRawItemsChunked, queryAll } from './batch';
import { conditionHolds } from './conditions';
import type { TableClient } from './dynamodb-clients';

/** How long a mail's record stays (it stops a repeat within this time): longer than a week and its retries. */
const SENT_RECORD_DAYS = 60;
const epochSeconds = (at: Date) => Math.floor(at.getTime() / 1000);

const suppressionPartition = (accountId: string) => `mailsuppress#${accountId}`;

export interface SuppressionRecord {
  address: string;
  reason: SuppressionReason;
  at: string;
  detail?: string;
}

/** Suppresses addresses for an account (a bounce, a complaint, a permanent refusal): one PutItem each; the latest reason wins. */
export async function suppressAddresses(store: TableClient, accountId: string, suppression: Omit<SuppressionRecord, 'address'>, addresses: string[]) {
  for (const address of new Set(addresses.map(suppressionKey))) {
    await store.documentClient.send(
      new PutCommand({
        TableName: store.tableName,
        Item: {
          pk: suppressionPartition(accountId),
          sk: address,
          address,
          reason: suppression.reason,
          at: suppression.at,
          ...(suppression.detail ? { detail: suppression.detail } : {}),
        },
      }),
    );
  }
}

/** Lifts a suppression (a member asks to be mailed again at their own address). */
export async function liftSuppression(store: TableClient, accountId: string, address: string): Promise<void> {
  await store.documentClient.send(new DeleteCommand({ TableName: store.tableName, Key: { pk: suppressionPartition(accountId), sk: suppressionKey(address) } }));
}

const suppressionOf = (item: Record<string, unknown>): SuppressionRecord => ({
  address: String(item.address),
  reason: item.reason as SuppressionReason,
  at: String(item.at),
  ...(typeof item.detail === 'string' ? { detail: item.detail } : {}),
});

/** The suppressions of some addresses in an account, by address (lower case): one BatchGetItem per 100. */
export async function suppressionsOf(store: TableClient, accountId: string, addresses: Iterable<string>): Promise<Map<string, SuppressionRecord>> {
  const keys = [...new Set([...addresses].map(suppressionKey))].map((address) => ({ pk: suppressionPartition(accountId), sk: address }));
  const found = new Map<string, SuppressionRecord>();
  if (keys.length === 0) return found;
  for (const item of await getRawItemsChunked(store, keys)) if (item) found.set(String(item.sk), suppressionOf(item));
  return found;
}

/** Every suppressed address of an account (one Query; the bounces handler's tests and the cost bench read it). */
export async function accountSuppressions(store: TableClient, accountId: string): Promise<SuppressionRecord[]> {
  const items = await queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': suppressionPartition(accountId) },
  });
  return items.map(suppressionOf);
}

export type MailState = 'sending' | 'sent' | 'retry' | 'refused' | 'skipped';

export interface MailClaim {
  key: { pk: string; sk: string };
  lease: string;
}

const sentKey = (once: string) => ({ pk: `mailsent#${once}`, sk: 'mail' });

/**
 * Claims the one sending of a mail: creates its record, or takes over one left `sending`
 * or `retry` whose lease ran out. Undefined when another run holds it or it is done
 * (sent, refused or skipped). The lease should outlast a send with all its retries.
 */
export async function claimMail(
  store: TableClient,
  once: string,
  details: Record<string, unknown>,
  now: Date,
  leaseMs: number,
): Promise<MailClaim | undefined> {
  const key = sentKey(once);
  const lease = randomUUID();
  const claimed = await conditionHolds(
    store.documentClient.send(
      new PutCommand({
        TableName: store.tableName,
        Item: {
          ...key,
          ...details,
          state: 'sending',
          lease,
          leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
          claimedAt: now.toISOString(),
          expiresAt: epochSeconds(now) + SENT_RECORD_DAYS * 24 * 3600,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR (#state IN (:sending, :retry) AND leaseUntil < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sending': 'sending', ':retry': 'retry', ':now': now.toISOString() },
      }),
    ),
  );
  return claimed ? { key, lease } : undefined;
}

/** Records a claimed mail's outcome, while the claim is still its holder's. */
export async function recordMail(
  store: TableClient,
  claim: MailClaim,
  outcome: { state: Exclude<MailState, 'sending'>; at: Date; messageId?: string; reason?: string; attempts?: number },
): Promise<boolean> {
  return conditionHolds(
    store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: claim.key,
        UpdateExpression: `SET #state = :state, finishedAt = :at, leaseUntil = :at${outcome.messageId ? ', messageId = :messageId' : ''}${outcome.reason ? ', reason = :reason' : ''}${outcome.attempts ? ', attempts = :attempts' : ''} REMOVE lease`,
        ConditionExpression: 'lease = :lease',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':state': outcome.state,
          ':at': outcome.at.toISOString(),
          ':lease': claim.lease,
          ...(outcome.messageId ? { ':messageId': outcome.messageId } : {}),
          ...(outcome.reason ? { ':reason': outcome.reason.slice(0, 1000) } : {}),
          ...(outcome.attempts ? { ':attempts': outcome.attempts } : {}),
        },
      }),
    ),
  );
}

/** A mail's record (tests, the console's "sent" state), read strongly consistent. */
export async function mailRecord(store: TableClient, once: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: sentKey(once), ConsistentRead: true }));
  return Item;
}

/**
 * Takes a member's "send me the digest now" for the next `minIntervalMs`: one conditional
 * PutItem. False when they asked within that time.
 */
export async function takeSendNow(store: TableClient, memberId: string, now: Date, minIntervalMs: number): Promise<boolean> {
  return conditionHolds(
    store.documentClient.send(
      new PutCommand({
        TableName: store.tableName,
        Item: { pk: `mailnow#${memberId}`, sk: 'guard', at: now.toISOString(), expiresAt: epochSeconds(now) + Math.ceil(minIntervalMs / 1000) + 3600 },
        ConditionExpression: 'attribute_not_exists(pk) OR #at <= :since',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':since': new Date(now.getTime() - minIntervalMs).toISOString() },
      }),
    ),
  );
}
