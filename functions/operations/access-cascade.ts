/**
 * The writes of the cascade (domain/access-cascade.ts): when a member is removed or
 * demoted, or a key revoked, the live keys and the pending invitations that person or key
 * made (and, transitively, keys made by those keys) are revoked or deleted.
 *
 * Bounded work: one Query of the account's keys (the `apikeys` partition of gsi1, from
 * `<accountId>#`) and one of its invitations (gsi1), whatever falls; then one write per
 * fallen key or invitation. Revocations set `revokedAt` only where it is absent and
 * deletions are unconditional, so every write may be repeated: a cascade cut short (a
 * crash, a timeout) is completed by doing the change again (members/remove, keys/revoke
 * answer the same and write what is left).
 */
import type { AuditActor } from '../domain/audit';
import { fallingInvitations, fallingKeys, type Loss, type Maker, makerOfInvitation } from '../domain/access-cascade';
import type { ApiKeyItem, InvitationItem, Store } from '../store/entities';
import { keys as itemKeys, type TransactItem } from '../store/items';
import { conflictPause, isConflict, writeTransaction } from '../store/transactions';
import { ApiError } from '../api/errors';

/** Items per TransactWriteItems request here: DynamoDB Local's limit (DynamoDB's is 100). */
export const TRANSACTION_ITEMS = 25;

/** The maker of a key as the cascade reads it; keys created before makers were recorded have none. */
export function keyMaker(key: Pick<ApiKeyItem, 'createdBy'>): Maker | undefined {
  const stored = key.createdBy;
  if (stored?.type === 'person' && stored.memberId) return { type: 'person', memberId: stored.memberId };
  if (stored?.type === 'key' && stored.keyId) return { type: 'key', keyId: stored.keyId };
  if (stored?.type === 'operator') return { type: 'operator' };
  return undefined;
}

/** How keys/list and members/invitations name a maker: the actor stored with it, or its ids alone. */
export function makerView(stored: ApiKeyItem['createdBy'] | InvitationItem['inviter'], fallback?: Maker): AuditActor | undefined {
  if (stored?.type === 'person' && stored.memberId) {
    return { type: 'person', memberId: stored.memberId, ...(stored.email ? { email: stored.email } : {}), ...(stored.name ? { name: stored.name } : {}) };
  }
  if (stored?.type === 'key' && stored.keyId) return { type: 'key', keyId: stored.keyId, ...(stored.label ? { label: stored.label } : {}) };
  if (stored?.type === 'operator') return { type: 'operator', name: stored.name ?? 'key CLI' };
  if (fallback?.type === 'person') return { type: 'person', memberId: fallback.memberId };
  if (fallback?.type === 'key') return { type: 'key', keyId: fallback.keyId };
  if (fallback?.type === 'operator') return { type: 'operator', name: 'key CLI' };
  return undefined;
}

/** Every key of the account, revoked ones included (the walk passes through them). */
export async function accountKeys(store: Store, accountId: string): Promise<ApiKeyItem[]> {
  return (await store.entities.ApiKey.query.all({ accountId }).go({ pages: 'all' })).data;
}

async function accountInvitations(store: Store, accountId: string): Promise<InvitationItem[]> {
  return (await store.entities.Invitation.query.byAccount({ accountId }).go({ pages: 'all' })).data;
}

export interface Cascade {
  /** The live keys that fall, to be revoked. */
  keys: ApiKeyItem[];
  invitations: InvitationItem[];
  /** One write per fallen key and invitation, each safe to repeat. */
  writes: TransactItem[];
}

/** What falls with `loss` in the account, and the writes that make it so. */
export async function cascadeOf(store: Store, accountId: string, loss: Loss, now: Date): Promise<Cascade> {
  const [keys, invitations] = await Promise.all([accountKeys(store, accountId), accountInvitations(store, accountId)]);
  const nodes = keys.map((key) => ({ key, id: key.id, level: key.level, revokedAt: key.revokedAt, createdBy: keyMaker(key) }));
  const fallen = fallingKeys(nodes, loss).map((node) => node.key);
  const fallenIds = new Set(fallen.map((key) => key.id));
  if ('keyId' in loss) fallenIds.add(loss.keyId);
  const voided = fallingInvitations(
    invitations.map((invitation) => ({ invitation, role: invitation.role, invitedBy: makerOfInvitation(invitation.invitedBy) })),
    loss,
    fallenIds,
  ).map((node) => node.invitation);
  const timestamp = now.toISOString();
  return {
    keys: fallen,
    invitations: voided,
    writes: [...fallen.map((key) => revocation(store.tableName, key.keyHash, timestamp)), ...voided.map((invitation) => invitationDeletion(store, invitation))],
  };
}

/** Revokes a key if it is not revoked yet (an earlier revocation keeps its time); never fails a transaction. */
export function revocation(tableName: string, keyHash: string, timestamp: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: itemKeys.apiKey(keyHash),
      UpdateExpression: 'SET #revokedAt = if_not_exists(#revokedAt, :now), #updatedAt = :now',
      ConditionExpression: 'attribute_exists(#pk)',
      ExpressionAttributeNames: { '#revokedAt': 'revokedAt', '#updatedAt': 'updatedAt', '#pk': 'pk' },
      ExpressionAttributeValues: { ':now': timestamp },
    },
  };
}

function invitationDeletion(store: Store, invitation: InvitationItem): TransactItem {
  return { Delete: store.entities.Invitation.delete({ tokenHash: invitation.tokenHash }).params() };
}

/**
 * Writes `writes` in transactions of TRANSACTION_ITEMS, keeping back the last `room` of
 * them, which the caller writes in its own transaction (with the change that caused them,
 * so that in the usual case the change and its cascade commit together). Each write is
 * safe to repeat, so writing the surplus first leaves nothing wrong if the change fails.
 */
export async function writeAhead(store: Store, writes: TransactItem[], room: number): Promise<TransactItem[]> {
  const ahead = writes.slice(0, Math.max(0, writes.length - room));
  for (let start = 0; start < ahead.length; start += TRANSACTION_ITEMS) {
    const chunk = ahead.slice(start, start + TRANSACTION_ITEMS);
    for (let attempt = 1; ; attempt++) {
      const outcome = await writeTransaction(store, chunk);
      if (!outcome.canceled) break;
      if (!isConflict(outcome.reasons) || attempt === 3) {
        throw new ApiError('conflict', 'Keys or invitations this change revokes are being changed by another request; try again');
      }
      await conflictPause(attempt);
    }
  }
  return writes.slice(ahead.length);
}
