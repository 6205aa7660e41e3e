import { randomBytes } from 'node:crypto';
import { hashSecret, secretMatches, type Caller } from '../api/auth';
import { ApiError, badRequest, notFound } from '../api/errors';
import type { ResponseCreateModel, ResponseQueryModel } from '../api/response-models';
import { deriveProfiling, type Profiling } from '../domain/profiling';
import { normalizeValue, type AnySchemaConfig, type Schema } from '../domain/schemas';
import { keyHash, newId } from '../domain/text';
import { getRawItems } from '../store/batch';
import { isConditionFailure } from '../store/conditions';
import type { ContentItemItem, ContentSetItem, ProjectItem, ResponseItem, Store } from '../store/entities';
import { autoMetadata, insertContentItem, newContentItem } from './contents';

export interface ResponseWriteResult {
  responseId: string;
  /** The same id under the name the published widgets read. */
  feelbackId: string;
  revokable?: { token: string; expireAt: string };
}

interface Target {
  project: ProjectItem;
  contentSet: ContentSetItem;
  /** Null when the key has no item yet and one is to be created with the response. */
  item: ContentItemItem | null;
}

const keyOf = (request: { params(): { Key?: Record<string, unknown> } }) => request.params().Key as Record<string, unknown>;

/** Keyed callers reach only their own account; anonymous callers reach any target (widgets). */
function visibleTo(caller: Caller, accountId: string): boolean {
  return caller.level === 'anonymous' || caller.accountId === accountId;
}

function refuseInactive(target: Target): void {
  const states: [string, string, string][] = [
    ['project', target.project.id, target.project.state],
    ['contentSet', target.contentSet.id, target.contentSet.state],
    ...(target.item ? ([['contentItem', target.item.id, target.item.state]] as [string, string, string][]) : []),
  ];
  for (const [entity, id, state] of states) {
    if (state !== 'active') {
      throw new ApiError('conflict', `The ${entity} is ${state} and does not take responses`, { entity, id, state });
    }
  }
}

async function loadProjectAndItem(store: Store, projectId: string, contentItemId: string | null) {
  const { Project, ContentItem } = store.entities;
  const keys = [keyOf(Project.get({ id: projectId })), ...(contentItemId ? [keyOf(ContentItem.get({ id: contentItemId }))] : [])];
  const [projectRaw, itemRaw] = await getRawItems(store, keys);
  return {
    project: projectRaw ? (Project.parse({ Item: projectRaw }).data as ProjectItem) : null,
    item: itemRaw ? (ContentItem.parse({ Item: itemRaw }).data as ContentItemItem) : null,
  };
}

/** contentSetId + key: the set and the key's item in one BatchGetItem, then project and item in another. */
async function targetBySetKey(store: Store, caller: Caller, contentSetId: string, key: string): Promise<Target> {
  const { ContentSet, ContentKey } = store.entities;
  const [setRaw, keyRaw] = await getRawItems(store, [
    keyOf(ContentSet.get({ id: contentSetId })),
    keyOf(ContentKey.get({ contentSetId, keyHash: keyHash(key) })),
  ]);
  const contentSet = setRaw ? (ContentSet.parse({ Item: setRaw }).data as ContentSetItem) : null;
  if (!contentSet || !visibleTo(caller, contentSet.accountId)) throw notFound('Content set', contentSetId);
  const itemId = keyRaw ? (ContentKey.parse({ Item: keyRaw }).data?.contentItemId ?? null) : null;
  if (!itemId && contentSet.disallowAutoContentCreation) {
    throw new ApiError('not-found', 'No content item has this key, and the content set does not create items automatically', {
      contentSetId,
      key,
    });
  }
  const { project, item } = await loadProjectAndItem(store, contentSet.projectId, itemId);
  if (!project) throw notFound('Project', contentSet.projectId);
  return { project, contentSet, item };
}

async function targetByContentId(store: Store, caller: Caller, contentId: string): Promise<Target> {
  const { data: item } = await store.entities.ContentItem.get({ id: contentId }).go({ consistent: true });
  if (!item || !visibleTo(caller, item.accountId)) throw notFound('Content item', contentId);
  const { ContentSet, Project } = store.entities;
  const [setRaw, projectRaw] = await getRawItems(store, [keyOf(ContentSet.get({ id: item.contentSetId })), keyOf(Project.get({ id: item.projectId }))]);
  if (!setRaw || !projectRaw) throw notFound('Content item', contentId);
  return {
    item,
    contentSet: ContentSet.parse({ Item: setRaw }).data as ContentSetItem,
    project: Project.parse({ Item: projectRaw }).data as ProjectItem,
  };
}

async function resolveTarget(store: Store, caller: Caller, input: ResponseCreateModel): Promise<Target> {
  const { contentId, contentSetId, key } = input;
  if (contentId) {
    const target = await targetByContentId(store, caller, contentId);
    if ((contentSetId && contentSetId !== target.contentSet.id) || (key && key !== target.item!.key)) {
      throw badRequest('contentId and contentSetId/key name different content items', [
        { path: 'args.0.contentId', message: 'does not match contentSetId and key' },
      ]);
    }
    return target;
  }
  if (contentSetId && key) return targetBySetKey(store, caller, contentSetId, key);
  throw badRequest('A response needs a target: contentId, or contentSetId and key', [
    { path: contentSetId ? 'args.0.key' : 'args.0.contentSetId', message: 'required when contentId is not given' },
  ]);
}

function validValue(contentSet: ContentSetItem, value: unknown) {
  const result = normalizeValue(contentSet.schema as Schema, contentSet.schemaConfig as AnySchemaConfig, value);
  if (!result.ok) {
    throw badRequest(`Invalid value for a ${contentSet.schema} content set`, [{ path: 'args.0.value', message: result.reason }]);
  }
  return result;
}

function issueRevokeToken(contentSet: ContentSetItem, now: Date) {
  const token = randomBytes(24).toString('base64url');
  const expireAt = new Date(now.getTime() + contentSet.revokeWindowSeconds * 1000).toISOString();
  return { token, expireAt };
}

/** Concurrent first responses on one new key: each round either creates the item or finds the winner's. */
const AUTO_CREATE_ATTEMPTS = 5;

export async function createResponse(
  store: Store,
  caller: Caller,
  input: ResponseCreateModel,
  request: { headers: Record<string, string | undefined> },
  now: Date,
): Promise<ResponseWriteResult> {
  let target = await resolveTarget(store, caller, input);
  refuseInactive(target);
  const { value, contribution } = validValue(target.contentSet, input.value);
  const revokable = input.revokable === true && target.contentSet.revokeWindowSeconds > 0 ? issueRevokeToken(target.contentSet, now) : undefined;
  const context = input.context ?? undefined;
  const profiling: Profiling = deriveProfiling(input.profiling ?? undefined, { headers: request.headers, context });
  const timestamp = now.toISOString();
  const record = (contentItemId: string) => ({
    id: newId(),
    accountId: target.contentSet.accountId,
    projectId: target.contentSet.projectId,
    contentSetId: target.contentSet.id,
    contentItemId,
    schema: target.contentSet.schema,
    state: 'active' as const,
    value,
    contribution,
    context: context && Object.keys(context).length > 0 ? context : undefined,
    profiling: Object.keys(profiling).length > 0 ? profiling : undefined,
    revokeTokenHash: revokable ? hashSecret(revokable.token) : undefined,
    revokeExpiresAt: revokable?.expireAt,
    createdAt: timestamp,
    updatedAt: timestamp,
  });

  let response: ReturnType<typeof record> | undefined;
  for (let attempt = 1; !target.item; attempt++) {
    const item = newContentItem(target.contentSet, input.key!, autoMetadata(input.key!), now);
    const first = record(item.id);
    if (await insertContentItem(store, item, ({ Response }) => [Response.create(first).commit()])) {
      response = first;
      break;
    }
    if (attempt >= AUTO_CREATE_ATTEMPTS) throw new ApiError('conflict', 'The content item is being created concurrently; retry', { key: input.key });
    await new Promise((wait) => setTimeout(wait, 10 * attempt));
    target = await targetBySetKey(store, caller, target.contentSet.id, input.key!);
    refuseInactive(target);
  }
  if (!response) {
    response = record(target.item!.id);
    await store.entities.Response.create(response).go();
  }
  return { responseId: response.id, feelbackId: response.id, ...(revokable ? { revokable } : {}) };
}

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

export function responseView(response: ResponseItem) {
  return {
    id: response.id,
    accountId: response.accountId,
    projectId: response.projectId,
    contentSetId: response.contentSetId,
    contentItemId: response.contentItemId,
    createdAt: response.createdAt,
    updatedAt: response.updatedAt,
    state: response.state,
    value: response.value,
    ...(response.context ? { context: response.context } : {}),
    ...(response.profiling ? { profiling: response.profiling } : {}),
  };
}

export async function getResponse(store: Store, accountId: string, responseId: string) {
  const { data } = await store.entities.Response.get({ id: responseId }).go({ consistent: true });
  if (!data || data.accountId !== accountId) throw notFound('Response', responseId);
  return responseView(data);
}

const LIST_QUERY_PAGE = 100;

/** The index query for the narrowest scope given, after checking that scope belongs to the account. */
async function scopedQuery(store: Store, accountId: string, query: ResponseQueryModel) {
  const { Response, ContentItem, ContentSet, Project } = store.entities;
  if (query.contentId) {
    const { data } = await ContentItem.get({ id: query.contentId }).go();
    if (!data || data.accountId !== accountId) throw notFound('Content item', query.contentId);
    const consistent = (!query.contentSetId || query.contentSetId === data.contentSetId) && (!query.projectId || query.projectId === data.projectId);
    return consistent ? Response.query.byContentItem({ contentItemId: data.id }) : null;
  }
  if (query.contentSetId) {
    const { data } = await ContentSet.get({ id: query.contentSetId }).go();
    if (!data || data.accountId !== accountId) throw notFound('Content set', query.contentSetId);
    return !query.projectId || query.projectId === data.projectId ? Response.query.byContentSet({ contentSetId: data.id }) : null;
  }
  const { data } = await Project.get({ id: query.projectId! }).go();
  if (!data || data.accountId !== accountId) throw notFound('Project', query.projectId);
  return Response.query.byProject({ projectId: data.id });
}

/**
 * Newest first, 1-based pages. Offset paging reads the skipped items too; the depth is
 * bounded by MAX_LIST_DEPTH and from/to narrow the key range on the index itself.
 */
export async function listResponses(store: Store, accountId: string, query: ResponseQueryModel) {
  const index = await scopedQuery(store, accountId, query);
  const skip = (query.$page - 1) * query.$size;
  const needed = skip + query.$size + 1;
  const matched: ResponseItem[] = [];
  if (index) {
    const ranged =
      query.from && query.to
        ? index.between({ createdAt: query.from }, { createdAt: query.to })
        : query.from
          ? index.gte({ createdAt: query.from })
          : query.to
            ? index.lt({ createdAt: query.to })
            : index;
    const filtered = query.state === 'all' ? ranged : ranged.where((attributes, { eq }) => eq(attributes.state, query.state));
    let cursor: string | null = null;
    do {
      const page: { data: ResponseItem[]; cursor: string | null } = await filtered.go({ order: 'desc', cursor, limit: LIST_QUERY_PAGE });
      matched.push(...page.data);
      cursor = page.cursor;
    } while (cursor && matched.length < needed);
  }
  return {
    items: matched.slice(skip, skip + query.$size).map(responseView),
    page: query.$page,
    size: query.$size,
    hasMore: matched.length > skip + query.$size,
  };
}
