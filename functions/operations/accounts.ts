import type { KeyLevel } from '../api/auth';
import { generateApiKey, hashSecret } from '../api/auth';
import { newId } from '../domain/text';
import type { AccountItem, ApiKeyItem, Store } from '../store/entities';

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

export async function listApiKeys(store: Store): Promise<ApiKeyItem[]> {
  return store.entities.ApiKey.query
    .all({})
    .go({ pages: 'all' })
    .then((result) => result.data);
}

/** Revokes by public key id; returns false when no such key exists. */
export async function revokeApiKey(store: Store, keyId: string, now: Date): Promise<boolean> {
  const { data } = await store.entities.ApiKey.query.byId({ id: keyId }).go();
  if (data.length === 0) return false;
  const timestamp = now.toISOString();
  await store.entities.ApiKey.patch({ keyHash: data[0].keyHash }).set({ revokedAt: timestamp, updatedAt: timestamp }).go();
  return true;
}
