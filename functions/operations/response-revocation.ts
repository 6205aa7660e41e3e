/** responses/edit and responses/remove: what the holder of a revoke token may do while its window is open. */
import { hashSecret, secretMatches, type Caller } from '../api/auth';
import { ApiError, notFound } from '../api/errors';
import { getRawItems, keyOf } from '../store/batch';
import { isConditionFailure } from '../store/conditions';
import type { ContentItemItem, ContentSetItem, ProjectItem, ResponseItem, Store } from '../store/entities';
import type { ResponseWriteResult } from './response-collection';
import { refuseInactive, validValue, visibleTo } from './response-targets';

/**
 * A response that the token holder may change: right token, still active, window open.
 * The token hash is a hidden attribute (never returned by get/list), so the item is read
 * raw and parsed here.
 */
async function loadRevocable(store: Store, caller: Caller, responseId: string, revokeToken: string, now: Date): Promise<ResponseItem> {
  const { Response } = store.entities;
  const [raw] = await getRawItems(store, [keyOf(Response.get({ id: responseId }))]);
  const response = raw ? (Response.parse({ Item: raw }).data as ResponseItem) : null;
  if (!response || !visibleTo(caller, response.accountId)) throw notFound('Response', responseId);
  const tokenHash = raw?.revokeTokenHash;
  if (typeof tokenHash !== 'string' || !secretMatches(revokeToken, tokenHash)) {
    throw new ApiError('forbidden', 'The revoke token does not match this response', { responseId });
  }
  if (response.state !== 'active') throw new ApiError('conflict', 'The response was already removed', { responseId, state: response.state });
  if (!response.revokeExpiresAt || response.revokeExpiresAt <= now.toISOString()) {
    throw new ApiError('forbidden', 'The revocation window of this response has closed', { responseId, expiredAt: response.revokeExpiresAt });
  }
  return response;
}

export async function editResponse(
  store: Store,
  caller: Caller,
  input: { responseId: string; revokeToken: string; value: unknown },
  now: Date,
): Promise<ResponseWriteResult> {
  const response = await loadRevocable(store, caller, input.responseId, input.revokeToken, now);
  // A new value is refused wherever create would refuse one: archived/inactive project, set or item.
  const { ContentSet, Project, ContentItem } = store.entities;
  const [setRaw, projectRaw, itemRaw] = await getRawItems(store, [
    keyOf(ContentSet.get({ id: response.contentSetId })),
    keyOf(Project.get({ id: response.projectId })),
    keyOf(ContentItem.get({ id: response.contentItemId })),
  ]);
  if (!setRaw || !projectRaw || !itemRaw) throw notFound('Content set', response.contentSetId);
  const contentSet = ContentSet.parse({ Item: setRaw }).data as ContentSetItem;
  refuseInactive({
    project: Project.parse({ Item: projectRaw }).data as ProjectItem,
    contentSet,
    item: ContentItem.parse({ Item: itemRaw }).data as ContentItemItem,
  });
  const { value, contribution } = validValue(contentSet, input.value);
  try {
    await store.entities.Response.patch({ id: response.id })
      .set({ value, contribution, updatedAt: now.toISOString() })
      .where((attributes, { eq }) => `${eq(attributes.state, 'active')} AND ${eq(attributes.revokeTokenHash, hashSecret(input.revokeToken))}`)
      .go();
  } catch (error) {
    if (isConditionFailure(error)) throw new ApiError('conflict', 'The response was removed meanwhile', { responseId: response.id });
    throw error;
  }
  return {
    responseId: response.id,
    feelbackId: response.id,
    revokable: { token: input.revokeToken, expireAt: response.revokeExpiresAt! },
  };
}

export async function removeResponse(store: Store, caller: Caller, input: { responseId: string; revokeToken: string }, now: Date): Promise<void> {
  const response = await loadRevocable(store, caller, input.responseId, input.revokeToken, now);
  try {
    await store.entities.Response.patch({ id: response.id })
      .set({ state: 'revoked', updatedAt: now.toISOString() })
      .where((attributes, { eq }) => eq(attributes.state, 'active'))
      .go();
  } catch (error) {
    if (isConditionFailure(error)) throw new ApiError('conflict', 'The response was already removed', { responseId: response.id });
    throw error;
  }
}
