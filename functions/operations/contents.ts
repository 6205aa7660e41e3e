import { ApiError, notFound } from '../api/errors';
import type { ContentCreateModel, ContentFilters, ContentSaveModel } from '../api/models';
import { indexedPrefix, isHttpUrl, keyHash, newContentItemId } from '../domain/text';
import { isConditionFailure } from '../store/conditions';
import type { TableClient } from '../store/dynamodb-clients';
import type { ContentItemItem, ContentSetItem, NewContentItem, Store } from '../store/entities';
import { createContentItem as createContentItemWrite, createContentKey, type TransactItem } from '../store/items';
import { aliasChanges, aliasMember, writeKeyTransaction } from './content-keys';
import { LOOKUP_PAGE, prefixLookup, stateMatches } from './lookup';
import { loadContentSet } from './sets';
import { contentItemView, contentLookupEntry } from './views';

export async function loadContentItem(store: Store, accountId: string, contentId: string): Promise<ContentItemItem> {
  const { data } = await store.entities.ContentItem.get({ id: contentId }).go({ consistent: true });
  if (!data || data.accountId !== accountId) throw notFound('Content item', contentId);
  return data;
}

export async function getContentItem(store: Store, accountId: string, contentId: string) {
  return contentItemView(await loadContentItem(store, accountId, contentId));
}

function contentKeyTaken(contentSetId: string, key: string): ApiError {
  return new ApiError('conflict', 'A content item with this key already exists in this content set', { contentSetId, key });
}

interface ContentMetadata {
  title?: string;
  description?: string;
  url?: string;
}

/** A new active item of the set, ready to write with `insertContentItem`. */
export function newContentItem(contentSet: Pick<ContentSetItem, 'id' | 'accountId' | 'projectId'>, key: string, metadata: ContentMetadata, now: Date) {
  const timestamp = now.toISOString();
  return {
    id: newContentItemId(contentSet.id),
    accountId: contentSet.accountId,
    projectId: contentSet.projectId,
    contentSetId: contentSet.id,
    key,
    keyPrefixLower: indexedPrefix(key),
    title: metadata.title,
    titlePrefixLower: indexedPrefix(metadata.title),
    description: metadata.description,
    url: metadata.url,
    state: 'active' as const,
    createdAt: timestamp,
    updatedAt: timestamp,
  } satisfies NewContentItem;
}

/** Why a new item was not written: its key is taken, or a check written with it failed (`reasons`, in order). */
export type InsertOutcome = { inserted: true } | { inserted: false; conflict: boolean; reasons: string[] };

/**
 * Writes a new item and its key in one transaction, together with `alsoWrite` (the first
 * response and the checks of its project and set, when a response creates its item) and
 * the key's alias when it holds %-escapes (content-keys.ts). Answers why it was not
 * written instead of throwing, so callers decide between `conflict` and using the item
 * that took the key; `reasons` are the codes of [key, item, ...alsoWrite].
 */
export async function insertContentItem(table: TableClient, item: ReturnType<typeof newContentItem>, alsoWrite: TransactItem[] = []): Promise<InsertOutcome> {
  const alias = { contentSetId: item.contentSetId, member: aliasMember(item), changes: aliasChanges(undefined, item.key) };
  const outcome = await writeKeyTransaction(table, alias, [
    createContentKey(table.tableName, { contentSetId: item.contentSetId, keyHash: keyHash(item.key), contentItemId: item.id, accountId: item.accountId }),
    createContentItemWrite(table.tableName, item),
    ...alsoWrite,
  ]);
  return outcome.canceled ? { inserted: false, conflict: outcome.conflict, reasons: outcome.reasons } : { inserted: true };
}

export async function createContentItem(store: Store, accountId: string, input: ContentCreateModel, now: Date) {
  const contentSet = await loadContentSet(store, accountId, input.contentSetId);
  const item = newContentItem(contentSet, input.key, input.metadata ?? {}, now);
  if (!(await insertContentItem(store, item)).inserted) throw contentKeyTaken(input.contentSetId, input.key);
  return contentItemView(item);
}

/** The url of an auto-created item: its key, when the key is a web address (the widgets' default). */
export function autoMetadata(key: string): ContentMetadata {
  return isHttpUrl(key) ? { url: key } : {};
}

export async function saveContentItem(store: Store, accountId: string, contentId: string, input: ContentSaveModel, now: Date) {
  const current = await loadContentItem(store, accountId, contentId);
  const changes = {
    ...(input.title === undefined ? {} : { title: input.title, titlePrefixLower: indexedPrefix(input.title) }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.url === undefined ? {} : { url: input.url }),
    ...(input.key === undefined ? {} : { key: input.key, keyPrefixLower: indexedPrefix(input.key) }),
    ...(input.state === undefined ? {} : { state: input.state }),
    updatedAt: now.toISOString(),
  };
  if (input.key !== undefined && input.key !== current.key) {
    const { contentSetId } = current;
    // The alias moves with the key item: out of the old key's decoded form, into the new one's.
    const alias = { contentSetId, member: aliasMember(current), changes: aliasChanges(current.key, input.key) };
    const { ContentKey, ContentItem } = store.entities;
    // ElectroDB's request parameters are TransactWriteItems entries of the document client.
    const { canceled } = await writeKeyTransaction(store, alias, [
      { Put: ContentKey.create({ contentSetId, keyHash: keyHash(input.key!), contentItemId: contentId, accountId }).params() },
      { Delete: ContentKey.delete({ contentSetId, keyHash: keyHash(current.key) }).params() },
      {
        Update: ContentItem.patch({ id: contentId })
          .set(changes)
          .where((attributes, { eq }) => `${eq(attributes.accountId, accountId)} AND ${eq(attributes.key, current.key)}`)
          .params(),
      },
    ] as TransactItem[]);
    if (canceled) throw contentKeyTaken(contentSetId, input.key);
    return contentItemView({ ...current, ...changes });
  }
  try {
    const { data } = await store.entities.ContentItem.patch({ id: contentId })
      .set(changes)
      .where((attributes, { eq }) => eq(attributes.accountId, accountId))
      .go({ response: 'all_new' });
    return contentItemView(data as ContentItemItem);
  } catch (error) {
    if (isConditionFailure(error)) throw notFound('Content item', contentId);
    throw error;
  }
}

export async function contentItemExists(store: Store, accountId: string, contentSetId: string, key: string): Promise<boolean> {
  const { data } = await store.entities.ContentKey.get({ contentSetId, keyHash: keyHash(key) }).go({ consistent: true });
  return data !== null && data.accountId === accountId;
}

export async function lookupContentItems(store: Store, accountId: string, text: string, filters: ContentFilters) {
  const state = filters.state ?? 'all';
  const lowerText = text.toLowerCase();
  const prefix = indexedPrefix(text);
  const found = await prefixLookup<ContentItemItem>({
    text,
    byId: async (id) => (await store.entities.ContentItem.get({ id }).go()).data,
    indexes: [
      (cursor) =>
        store.entities.ContentItem.query
          .byKey({ accountId })
          .begins({ keyPrefixLower: prefix })
          .go({ ...LOOKUP_PAGE, cursor }),
      (cursor) =>
        store.entities.ContentItem.query
          .byTitle({ accountId })
          .begins({ titlePrefixLower: prefix })
          .go({ ...LOOKUP_PAGE, cursor }),
    ],
    // Indexes hold the first 200 characters; longer texts are compared in full here.
    matches: (item) =>
      item.accountId === accountId &&
      (item.id === text || item.key.toLowerCase().startsWith(lowerText) || (item.title ?? '').toLowerCase().startsWith(lowerText)) &&
      stateMatches(state, item.state) &&
      (filters.projectId === undefined || item.projectId === filters.projectId) &&
      (filters.contentSetId === undefined || item.contentSetId === filters.contentSetId),
  });
  return found.map(contentLookupEntry);
}
