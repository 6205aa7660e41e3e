import { createConversions } from 'electrodb';
import type { AccountCaller, KeyLevel } from '../api/auth';
import { callerActor } from '../api/audit';
import { generateApiKey, hashSecret, personKey } from '../api/auth';
import { ApiError, notFound } from '../api/errors';
import type { KeyCreateModel, KeyListQueryModel } from '../api/key-models';
import type { AuditActor } from '../domain/audit';
import { newId } from '../domain/text';
import { ApiKey as ApiKeyEntity, type AccountItem, type ApiKeyItem, type Store } from '../store/entities';
import { keys as itemKeys, type TransactItem } from '../store/items';
import { writeTransaction } from '../store/transactions';
import { type Cascade, cascadeOf, KEYS_MADE_MEANWHILE, makerView, revocation, TRANSACTION_ITEMS, writeAhead } from './access-cascade';
import { cursorPage } from './paging';

/** The account with this name, created on first use (key CLI and `npm start`), then with `displayName` when given. */
export async function ensureAccount(store: Store, name: string, now: Date, displayName?: string): Promise<AccountItem> {
  const { data } = await store.entities.Account.query.byName({ name }).go();
  if (data.length > 0) return data[0];
  const timestamp = now.toISOString();
  const created = await store.entities.Account.create({ id: newId(), name, displayName, createdAt: timestamp, updatedAt: timestamp }).go();
  return created.data;
}

export interface IssuedKey {
  /** The secret, shown once: only its hash is stored. */
  key: string;
  record: ApiKeyItem;
}

/**
 * Stores a key for the account; with `key` given (fixed dev keys) that value is registered.
 * `createdBy`: who made it (keys/create: the calling key or person; the key CLI: the
 * operator); their loss revokes it (operations/access-cascade.ts).
 */
export async function issueApiKey(
  store: Store,
  options: { accountId: string; level: KeyLevel; label?: string; key?: string; createdBy?: AuditActor; makerCount?: TransactItem },
  now: Date,
): Promise<IssuedKey> {
  const key = options.key ?? generateApiKey();
  const timestamp = now.toISOString();
  const record: ApiKeyItem = {
    keyHash: hashSecret(key),
    id: newId().slice(0, 12),
    accountId: options.accountId,
    level: options.level,
    ...(options.label === undefined ? {} : { label: options.label }),
    ...(options.createdBy ? { createdBy: options.createdBy } : {}),
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  if (!options.makerCount) {
    const { data } = await store.entities.ApiKey.create(record).go();
    return { key, record: data };
  }
  const outcome = await writeTransaction(store, [{ Put: store.entities.ApiKey.create(record).params() }, options.makerCount]);
  if (outcome.canceled) {
    if (outcome.reasons[1]?.code === 'ConditionalCheckFailed') {
      throw new ApiError('forbidden', 'You may no longer create keys: your membership or key changed meanwhile');
    }
    throw new ApiError('conflict', 'The key could not be stored; try again');
  }
  return { key, record };
}

/**
 * The write that counts a new key against its maker (`keysMade`), on the condition that
 * the maker may still create it: the member is still of the account with the role admin
 * or owner, the key still live and admin. The cascade relies on the count
 * (operations/access-cascade.ts); the condition keeps a request authenticated just before
 * its maker's removal from creating a key after it.
 */
async function makerCount(store: Store, caller: AccountCaller): Promise<TransactItem> {
  const names = { '#keysMade': 'keysMade', '#id': 'id', '#accountId': 'accountId' };
  if (caller.kind === 'person') {
    return {
      Update: {
        TableName: store.tableName,
        Key: itemKeys.member(personKey(caller.person)),
        UpdateExpression: 'ADD #keysMade :one',
        ConditionExpression: '#id = :id AND #accountId = :accountId AND #role IN (:admin, :owner)',
        ExpressionAttributeNames: { ...names, '#role': 'role' },
        ExpressionAttributeValues: { ':one': 1, ':id': caller.memberId, ':accountId': caller.accountId, ':admin': 'admin', ':owner': 'owner' },
      },
    };
  }
  const { data } = await store.entities.ApiKey.query.byId({ id: caller.keyId }).go();
  const key = data.find((candidate) => candidate.accountId === caller.accountId);
  if (!key) throw new ApiError('unauthorized', 'Unknown or revoked API key');
  return {
    Update: {
      TableName: store.tableName,
      Key: itemKeys.apiKey(key.keyHash),
      UpdateExpression: 'ADD #keysMade :one',
      ConditionExpression: '#id = :id AND #accountId = :accountId AND #level = :admin AND attribute_not_exists(#revokedAt)',
      ExpressionAttributeNames: { ...names, '#level': 'level', '#revokedAt': 'revokedAt' },
      ExpressionAttributeValues: { ':one': 1, ':id': key.id, ':accountId': caller.accountId, ':admin': 'admin' },
    },
  };
}

/** The live record of a key value, if it is registered and not revoked. */
export async function findApiKey(store: Store, key: string): Promise<ApiKeyItem | null> {
  const { data } = await store.entities.ApiKey.get({ keyHash: hashSecret(key) }).go({ consistent: true });
  return data && !data.revokedAt ? data : null;
}

/** What a revocation did: the key itself (undefined when no key has the id) and the keys and invitations that fell with it. */
export interface Revocation {
  key?: ApiKeyItem;
  cascade: Pick<Cascade, 'keys' | 'invitations'>;
}

/**
 * Revokes a key and what falls with it (the live keys it created, theirs in turn, and its
 * pending invitations). Revoking a revoked key keeps its time and completes a cascade that
 * was cut short. The key's own revocation is in the last transaction, with the rest of the
 * cascade that fits, so a key is never revoked while what it made stays.
 */
async function revokeWithCascade(store: Store, found: ApiKeyItem, now: Date): Promise<Revocation> {
  // Strongly consistent: its count of keys made is what the cascade must find.
  const key = (await store.entities.ApiKey.get({ keyHash: found.keyHash }).go({ consistent: true })).data ?? found;
  const keysMade = key.keysMade ?? 0;
  const cascade = await cascadeOf(store, key.accountId, { keyId: key.id }, now, keysMade);
  const last = await writeAhead(store, cascade.writes, TRANSACTION_ITEMS - 1);
  const outcome = await writeTransaction(store, [revocation(store.tableName, key.keyHash, now.toISOString(), keysMade), ...last]);
  if (outcome.canceled) {
    const madeMeanwhile = outcome.reasons.some((reason) => reason.code === 'ConditionalCheckFailed');
    throw new ApiError('conflict', madeMeanwhile ? KEYS_MADE_MEANWHILE : 'The key is being changed by another request; try again', { id: key.id });
  }
  return { key, cascade: { keys: cascade.keys, invitations: cascade.invitations } };
}

/** Revokes by public key id, in any account (the key CLI); `key` is undefined when no such key exists. */
export async function revokeApiKey(store: Store, keyId: string, now: Date): Promise<Revocation> {
  const { data } = await store.entities.ApiKey.query.byId({ id: keyId }).go();
  if (data.length === 0) return { cascade: { keys: [], invitations: [] } };
  return revokeWithCascade(store, data[0], now);
}

/** keys/* — an account's keys over the API. */

/** What keys/list shows of a key: never the key or its hash. */
export function keyView(key: ApiKeyItem) {
  return {
    id: key.id,
    level: key.level,
    ...(key.label === undefined ? {} : { label: key.label }),
    createdAt: key.createdAt,
    ...(key.lastUsedAt === undefined ? {} : { lastUsedAt: key.lastUsedAt }),
    ...(key.revokedAt === undefined ? {} : { revokedAt: key.revokedAt }),
    ...withCreator(key),
  };
}

function withCreator(key: ApiKeyItem): { createdBy?: AuditActor } {
  const createdBy = makerView(key.createdBy);
  return createdBy ? { createdBy } : {};
}

const keyConversions = createConversions(ApiKeyEntity);

/** The account's keys, newest first, from the shared gsi1 partition with a begins_with on `<accountId>#`. */
export async function listAccountKeys(store: Store, accountId: string, query: KeyListQueryModel) {
  const converter = keyConversions.byAccessPattern.all.fromComposite;
  const page = await cursorPage<ApiKeyItem>(
    {
      read: async (start, count) => ({
        items: (await store.entities.ApiKey.query.all({ accountId }).go({ order: 'desc', cursor: start, count, limit: Math.max(count, 25) })).data,
      }),
      positionOf: (key) => converter.toCursor(key),
    },
    { accountId, scope: { operation: 'keys/list' }, path: 'args.0.cursor' },
    { cursor: query.cursor, size: query.$size },
  );
  return { items: page.items.map(keyView), ...(page.cursor === undefined ? {} : { cursor: page.cursor }) };
}

/** keys/create: the key records its creator, the calling key or person. */
export async function createAccountKey(store: Store, caller: AccountCaller, input: KeyCreateModel, now: Date) {
  const { key, record } = await issueApiKey(
    store,
    { accountId: caller.accountId, level: input.level, label: input.label, createdBy: callerActor(caller), makerCount: await makerCount(store, caller) },
    now,
  );
  return {
    id: record.id,
    key,
    level: record.level,
    ...(record.label === undefined ? {} : { label: record.label }),
    createdAt: record.createdAt,
    ...withCreator(record),
  };
}

/**
 * Revokes a key of the account and what falls with it; another account's key id is
 * not-found. Revoking a revoked key keeps its time (and completes its cascade).
 */
export async function revokeAccountKey(store: Store, accountId: string, keyId: string, now: Date): Promise<Revocation> {
  const { data } = await store.entities.ApiKey.query.byId({ id: keyId }).go();
  const key = data.find((candidate) => candidate.accountId === accountId);
  if (!key) throw notFound('API key', keyId);
  return revokeWithCascade(store, key, now);
}
