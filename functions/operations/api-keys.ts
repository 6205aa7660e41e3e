import { createConversions } from 'electrodb';
import type { KeyLevel } from '../api/auth';
import { generateApiKey, hashSecret } from '../api/auth';
import { notFound } from '../api/errors';
import type { KeyCreateModel, KeyListQueryModel } from '../api/key-models';
import { newId } from '../domain/text';
import { conditionHolds } from '../store/conditions';
import { ApiKey as ApiKeyEntity, type AccountItem, type ApiKeyItem, type Store } from '../store/entities';
import { cursorPage } from './paging';

/** The account with this name, created on first use (key CLI and `npm start`). */
export async function ensureAccount(store: Store, name: string, now: Date): Promise<AccountItem> {
  const { data } = await store.entities.Account.query.byName({ name }).go();
  if (data.length > 0) return data[0];
  const timestamp = now.toISOString();
  const created = await store.entities.Account.create({ id: newId(), name, createdAt: timestamp, updatedAt: timestamp }).go();
  return created.data;
}

export interface IssuedKey {
  /** The secret, shown once: only its hash is stored. */
  key: string;
  record: ApiKeyItem;
}

/** Stores a key for the account; with `key` given (fixed dev keys) that value is registered. */
export async function issueApiKey(store: Store, options: { accountId: string; level: KeyLevel; label?: string; key?: string }, now: Date): Promise<IssuedKey> {
  const key = options.key ?? generateApiKey();
  const timestamp = now.toISOString();
  const { data } = await store.entities.ApiKey.create({
    keyHash: hashSecret(key),
    id: newId().slice(0, 12),
    accountId: options.accountId,
    level: options.level,
    label: options.label,
    createdAt: timestamp,
    updatedAt: timestamp,
  }).go();
  return { key, record: data };
}

/** The live record of a key value, if it is registered and not revoked. */
export async function findApiKey(store: Store, key: string): Promise<ApiKeyItem | null> {
  const { data } = await store.entities.ApiKey.get({ keyHash: hashSecret(key) }).go({ consistent: true });
  return data && !data.revokedAt ? data : null;
}

/** Revokes by public key id; returns false when no such key exists. */
export async function revokeApiKey(store: Store, keyId: string, now: Date): Promise<boolean> {
  const { data } = await store.entities.ApiKey.query.byId({ id: keyId }).go();
  if (data.length === 0) return false;
  const timestamp = now.toISOString();
  await store.entities.ApiKey.patch({ keyHash: data[0].keyHash }).set({ revokedAt: timestamp, updatedAt: timestamp }).go();
  return true;
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
  };
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

export async function createAccountKey(store: Store, accountId: string, input: KeyCreateModel, now: Date) {
  const { key, record } = await issueApiKey(store, { accountId, level: input.level, label: input.label }, now);
  return { id: record.id, key, level: record.level, ...(record.label === undefined ? {} : { label: record.label }), createdAt: record.createdAt };
}

/** Revokes a key of the account; another account's key id is not-found. Revoking a revoked key changes nothing. */
export async function revokeAccountKey(store: Store, accountId: string, keyId: string, now: Date): Promise<void> {
  const { data } = await store.entities.ApiKey.query.byId({ id: keyId }).go();
  const key = data.find((candidate) => candidate.accountId === accountId);
  if (!key) throw notFound('API key', keyId);
  if (key.revokedAt) return;
  const timestamp = now.toISOString();
  // A concurrent revocation failing the condition has done what was asked.
  await conditionHolds(
    store.entities.ApiKey.patch({ keyHash: key.keyHash })
      .set({ revokedAt: timestamp, updatedAt: timestamp })
      .where((attributes, { notExists }) => notExists(attributes.revokedAt))
      .go({ response: 'none' }),
  );
}
