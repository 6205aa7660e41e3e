/**
 * Where a response goes and whether it may: the project, set and item a write names, their
 * states, and the value checked against the set's schema. Shared by collection and revocation.
 */
import type { Caller } from '../api/auth';
import { ApiError, badRequest, notFound } from '../api/errors';
import type { ResponseCreateModel } from '../api/response-models';
import { normalizeValue, type AnySchemaConfig, type Schema } from '../domain/schemas';
import { keyHash } from '../domain/text';
import { getRawItems, keyOf } from '../store/batch';
import type { ContentItemItem, ContentSetItem, ProjectItem, Store } from '../store/entities';

export interface Target {
  project: ProjectItem;
  contentSet: ContentSetItem;
  /** Null when the key has no item yet and one is to be created with the response. */
  item: ContentItemItem | null;
}

/** Keyed callers reach only their own account; anonymous callers reach any target (widgets). */
export function visibleTo(caller: Caller, accountId: string): boolean {
  return caller.level === 'anonymous' || caller.accountId === accountId;
}

export function refuseInactive(target: Target): void {
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
export async function targetBySetKey(store: Store, caller: Caller, contentSetId: string, key: string): Promise<Target> {
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

export async function resolveTarget(store: Store, caller: Caller, input: ResponseCreateModel): Promise<Target> {
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

export function validValue(contentSet: ContentSetItem, value: unknown) {
  const result = normalizeValue(contentSet.schema as Schema, contentSet.schemaConfig as AnySchemaConfig, value);
  if (!result.ok) {
    throw badRequest(`Invalid value for a ${contentSet.schema} content set`, [{ path: 'args.0.value', message: result.reason }]);
  }
  return result;
}
