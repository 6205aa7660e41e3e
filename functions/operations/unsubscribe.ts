/**
 * One-click unsubscribe (docs/api.md, "Mail"; RFC 8058): the link in every mail's
 * `List-Unsubscribe` header and footer. The token (mail/unsubscribe-token.ts) names the
 * member, the account and the kind of mail; a valid one turns that kind off for that
 * member, at once (the sender reads the member again before each mail), without signing
 * in. A forged, altered or expired token, or one whose member is no longer a member of
 * that account, changes nothing. Each unsubscribe is audited, with the member as actor.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { auditTargetIds } from '../domain/audit';
import { headerText } from '../domain/mail-words';
import { mailKindName, type MailKind, type StoredPreferences, unsubscribed } from '../domain/notifications';
import { newId } from '../domain/text';
import { type UnsubscribeClaims, verifyUnsubscribeToken } from '../mail/unsubscribe-token';
import { mailTokenKey } from '../secrets/keys';
import { putAuditEntry } from '../store/audit';
import { getRawItem } from '../store/batch';
import { isConditionFailure } from '../store/conditions';
import type { TableClient } from '../store/dynamodb-clients';

export type UnsubscribeAnswer =
  /** What the link stops (GET), or stopped (POST). */
  | { status: 'valid' | 'done'; kind: MailKind; stops: string }
  /** Not a token of this service: forged, altered, expired or cut. */
  | { status: 'invalid' }
  /** A valid token of someone who is no longer a member of that account. */
  | { status: 'gone' };

async function memberOf(store: TableClient, claims: UnsubscribeClaims): Promise<Record<string, unknown> | undefined> {
  const { Items } = await store.documentClient.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': `member-id#${claims.memberId}` },
      Limit: 5,
    }),
  );
  const listed = Items?.find((item) => item.accountId === claims.accountId);
  if (!listed) return undefined;
  const member = await getRawItem(store, { pk: String(listed.pk), sk: String(listed.sk) }, { consistent: true });
  return member && member.id === claims.memberId && member.accountId === claims.accountId ? member : undefined;
}

async function accountName(store: TableClient, accountId: string): Promise<string> {
  const account = await getRawItem(store, { pk: `account#${accountId}`, sk: 'account' }, { consistent: false });
  return headerText(String(account?.displayName ?? account?.name ?? 'your account'), 100);
}

/** What a link would stop (the GET page): nothing is changed. */
export async function describeUnsubscribe(store: TableClient, token: string, now: Date): Promise<UnsubscribeAnswer> {
  const claims = await verifyUnsubscribeToken(token, await mailTokenKey.get(), now);
  if (!claims) return { status: 'invalid' };
  if (!(await memberOf(store, claims))) return { status: 'gone' };
  return { status: 'valid', kind: claims.kind, stops: mailKindName(claims.kind, await accountName(store, claims.accountId)) };
}

/** Turns the link's kind of mail off for its member (POST; doing it again changes nothing more). */
export async function unsubscribe(store: TableClient, token: string, now: Date, requestId: string): Promise<UnsubscribeAnswer> {
  const claims = await verifyUnsubscribeToken(token, await mailTokenKey.get(), now);
  if (!claims) return { status: 'invalid' };
  const member = await memberOf(store, claims);
  if (!member) return { status: 'gone' };
  const notifications = unsubscribed(member.notifications as StoredPreferences | undefined, claims.kind);
  try {
    await store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: { pk: String(member.pk), sk: String(member.sk) },
        UpdateExpression: 'SET notifications = :notifications, updatedAt = :now',
        ConditionExpression: 'id = :id AND accountId = :accountId',
        ExpressionAttributeValues: { ':notifications': notifications, ':now': now.toISOString(), ':id': claims.memberId, ':accountId': claims.accountId },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) return { status: 'gone' };
    throw error;
  }
  await putAuditEntry(store, claims.accountId, {
    id: newId(),
    at: now.toISOString(),
    actor: { type: 'person', memberId: claims.memberId, ...(typeof member.mailAddress === 'string' ? { email: member.mailAddress } : {}) },
    operation: 'mail/unsubscribe',
    targetIds: auditTargetIds([], undefined, [claims.memberId]),
    outcome: 'ok',
    requestId: requestId || randomUUID(),
  });
  return { status: 'done', kind: claims.kind, stops: mailKindName(claims.kind, await accountName(store, claims.accountId)) };
}
