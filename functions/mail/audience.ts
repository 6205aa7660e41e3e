/**
 * Who in an account may get mail, and what they asked for (domain/notifications.ts): the
 * members with a verified address, read with one Query of the account's members (gsi1) and
 * one GetItem of the account (its name as its people see it). The sender reads each
 * member again before their mail goes (mail/sender.ts): this list only decides whom to try.
 */
import { effectivePreferences, type NotificationPreferences, type StoredPreferences } from '../domain/notifications';
import { getRawItem, queryAll } from '../store/batch';
import type { TableClient } from '../store/dynamodb-clients';
import type { MailRecipient } from './sender';

type Role = 'viewer' | 'admin' | 'owner';

export interface AudienceMember {
  recipient: MailRecipient;
  preferences: NotificationPreferences;
}

export interface Audience {
  accountId: string;
  accountName: string;
  members: AudienceMember[];
}

/** The account's members who have a verified address, with their preferences in effect. */
export async function accountAudience(store: TableClient, accountId: string): Promise<Audience> {
  const [account, items] = await Promise.all([
    getRawItem(store, { pk: `account#${accountId}`, sk: 'account' }, { consistent: false }),
    queryAll(store, {
      TableName: store.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `account#${accountId}#members` },
    }),
  ]);
  const members = items
    .filter((item) => typeof item.mailAddress === 'string' && item.accountId === accountId)
    .map((item) => ({
      recipient: { memberId: String(item.id), personKey: String(item.personKey), accountId, address: String(item.mailAddress) },
      preferences: effectivePreferences(item.role as Role, item.notifications as StoredPreferences | undefined),
    }));
  return { accountId, accountName: String(account?.displayName ?? account?.name ?? accountId), members };
}
