/**
 * The writes of the cascade (domain/access-cascade.ts): when a member is removed or
 * demoted, or a key revoked, the live keys and the pending invitations that person or key
 * made (and, transitively, keys made by those keys) are revoked or deleted.
 *
 * Bounded work: one Query of the account's keys (the `apikeys` partition of gsi1, from
 * `<accountId>#`) and one of its invitations (gsi1), whatever falls (again while the index
 * has not caught up with the makers' counts), a strongly consistent read of each key
 * walked; then one write per fallen key or invitation. Revocations set `revokedAt` only where it is absent and
 * deletions are unconditional, so every write may be repeated: a cascade cut short (a
 * crash, a timeout) is completed by doing the change again (members/remove, keys/revoke
 * answer the same and write what is left).
 */
import type { AuditActor } from '../domain/audit';
import { fallingInvitations, keyFall, keysByMaker, keysMadeByMember, type Loss, type Maker, makerOfInvitation } from '../domain/access-cascade';
import type { ApiKeyItem, InvitationItem, Store } from '../store/entities';
import { keys as itemKeys, type TransactItem } from '../store/items';
import { conflictPause, isConflict, writeTransaction } from '../store/transactions';
import { ApiError } from '../api/errors';

/** Items per TransactWriteItems request here: 25, well within DynamoDB's 100; a cascade rarely needs more, and its surplus goes first. */
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

/** Reads of the account's keys while the index lags behind what the makers counted: 10 tries, 100 ms apart and more. */
const INDEX_READS = 10;
const indexPause = (attempt: number) => new Promise((wait) => setTimeout(wait, 100 * attempt));

/**
 * What falls with `loss` in the account, and the writes that make it so. `keysMade` is the
 * lost maker's count of keys made, read strongly consistent by the caller (the member's
 * or the revoked key's item, which the caller's own write is conditioned on). The index
 * is read again until it shows as many keys of each maker walked as the maker counts
 * (read strongly consistent here), so a key created a moment before cannot be missed; a
 * key created after these reads fails the revocations' conditions on those counts.
 */
export async function cascadeOf(store: Store, accountId: string, loss: Loss, now: Date, keysMade: number): Promise<Cascade> {
  for (let attempt = 1; ; attempt++) {
    const [keys, invitations] = await Promise.all([accountKeys(store, accountId), accountInvitations(store, accountId)]);
    const nodes = keys.map((key) => ({ key, id: key.id, level: key.level, revokedAt: key.revokedAt, createdBy: keyMaker(key) }));
    const madeBy = keysByMaker(nodes);
    const { walked } = keyFall(nodes, loss);
    const counts = await Promise.all(
      walked.map(async ({ key }) => (await store.entities.ApiKey.get({ keyHash: key.keyHash }).go({ consistent: true })).data?.keysMade ?? 0),
    );
    const seenOfRoot = 'keyId' in loss ? (madeBy.get(loss.keyId)?.length ?? 0) : keysMadeByMember(nodes, loss.memberId);
    const complete = seenOfRoot >= keysMade && walked.every((node, index) => (madeBy.get(node.id)?.length ?? 0) >= counts[index]);
    if (complete) {
      const falling = walked.flatMap((node, index) => (node.revokedAt === undefined ? [{ key: node.key, keysMade: counts[index] }] : []));
      const fallenIds = new Set(walked.map((node) => node.id));
      if ('keyId' in loss) fallenIds.add(loss.keyId);
      const voided = fallingInvitations(
        invitations.map((invitation) => ({ invitation, role: invitation.role, invitedBy: makerOfInvitation(invitation.invitedBy) })),
        loss,
        fallenIds,
      ).map((node) => node.invitation);
      const timestamp = now.toISOString();
      return {
        keys: falling.map(({ key }) => key),
        invitations: voided,
        writes: [
          ...falling.map(({ key, keysMade: made }) => revocation(store.tableName, key.keyHash, timestamp, made)),
          ...voided.map((invitation) => invitationDeletion(store, invitation)),
        ],
      };
    }
    if (attempt === INDEX_READS) throw new ApiError('unavailable', "The index of the account's keys is catching up with a key created a moment ago; try again");
    await indexPause(attempt);
  }
}

/**
 * Revokes a key if it is not revoked yet (an earlier revocation keeps its time), on the
 * condition that it has made exactly `keysMade` keys: one it made since they were counted
 * would otherwise outlive it (the change then answers conflict, and is tried again).
 */
export function revocation(tableName: string, keyHash: string, timestamp: string, keysMade: number): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: itemKeys.apiKey(keyHash),
      UpdateExpression: 'SET #revokedAt = if_not_exists(#revokedAt, :now), #updatedAt = :now',
      ConditionExpression: `attribute_exists(#pk) AND ${keysMade === 0 ? 'attribute_not_exists(#keysMade)' : '#keysMade = :made'}`,
      ExpressionAttributeNames: { '#revokedAt': 'revokedAt', '#updatedAt': 'updatedAt', '#pk': 'pk', '#keysMade': 'keysMade' },
      ExpressionAttributeValues: { ':now': timestamp, ...(keysMade === 0 ? {} : { ':made': keysMade }) },
    },
  };
}

/** A key made meanwhile (a revocation's count condition failed): the change is to be tried again. */
export const KEYS_MADE_MEANWHILE = 'A key was created by one of the keys or the member this change revokes, meanwhile; try again';

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
      if (outcome.reasons.some((reason) => reason.code === 'ConditionalCheckFailed')) throw new ApiError('conflict', KEYS_MADE_MEANWHILE);
      if (!isConflict(outcome.reasons) || attempt === 3) {
        throw new ApiError('conflict', 'Keys or invitations this change revokes are being changed by another request; try again');
      }
      await conflictPause(attempt);
    }
  }
  return writes.slice(ahead.length);
}
