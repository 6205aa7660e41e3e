/**
 * Where a response goes and whether it may: the project, set and item a write names, their
 * states, and the value checked against the set's schema. Shared by collection and revocation.
 *
 * `resolveTarget` decides from what target-cache.ts remembers, reading in one BatchGetItem
 * what it does not know or knows for longer than TARGET_MAX_AGE_MS (10 s): nothing, for a
 * warm instance writing on a known page. States come from that memory too, so an archive
 * refuses responses within the bound, not at the very next one (docs/api.md). The errors
 * and their precedence are those of a full read: not-found first (set, key, project;
 * or item, then contradicting targets), then the first inactive of project, set, item
 * (`refuseInactive`), then the value.
 */
import { randomBytes } from 'node:crypto';
import type { Caller } from '../api/auth';
import { ApiError, badRequest, notFound } from '../api/errors';
import type { ResponseCreateModel } from '../api/response-models';
import { normalizeValue, type AnySchemaConfig, type Schema } from '../domain/schemas';
import { contentSetOfItemId, ID_PATTERN, keyHash } from '../domain/text';
import { getRawItems } from '../store/batch';
import type { TableClient } from '../store/dynamodb-clients';
import type { ContentSetItem } from '../store/entities';
import { activeCheck, contentItemOf, contentKeyTarget, contentSetOf, type ItemKey, keys, projectStateOf, type TransactItem } from '../store/items';
import {
  forgetKey,
  freshItem,
  freshKeyTarget,
  freshProject,
  freshSet,
  type ItemFacts,
  knownItem,
  knownKeyTarget,
  knownSet,
  type ProjectFacts,
  rememberItem,
  rememberKey,
  rememberProject,
  rememberSet,
  type SetFacts,
} from './target-cache';

export interface Target {
  project: ProjectFacts;
  contentSet: SetFacts;
  /** Null when the key has no item yet and one is to be created with the response. */
  item: ItemFacts | null;
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

/**
 * The ConditionChecks of a transaction that creates a new item with its first response (or
 * edits a response): its project, set and (existing) item are active when it commits.
 */
export function stateChecks(tableName: string, target: { projectId: string; contentSetId: string; itemId: string | null }): TransactItem[] {
  return [
    activeCheck(tableName, keys.project(target.projectId)),
    activeCheck(tableName, keys.contentSet(target.contentSetId)),
    ...(target.itemId ? [activeCheck(tableName, keys.contentItem(target.itemId))] : []),
  ];
}

function disallowedKey(contentSetId: string, key: string): ApiError {
  return new ApiError('not-found', 'No content item has this key, and the content set does not create items automatically', { contentSetId, key });
}

/** One of the reads a resolution makes, and what to remember of its answer. */
interface Read {
  key: ItemKey;
  remember: (raw: Record<string, unknown> | undefined) => void;
}

const readSet = (contentSetId: string, now: number): Read => ({
  key: keys.contentSet(contentSetId),
  remember: (raw) => {
    const set = contentSetOf(raw);
    if (set) rememberSet(set, now);
  },
});
const readProject = (projectId: string, now: number): Read => ({
  key: keys.project(projectId),
  remember: (raw) => {
    const project = projectStateOf(raw);
    if (project) rememberProject(project, now);
  },
});
const readItem = (contentItemId: string, now: number): Read => ({
  key: keys.contentItem(contentItemId),
  remember: (raw) => {
    const item = contentItemOf(raw);
    if (item) rememberItem(item, now);
  },
});
const readKey = (contentSetId: string, key: string, now: number): Read => ({
  key: keys.contentKey(contentSetId, keyHash(key)),
  remember: (raw) => {
    const itemId = contentKeyTarget(raw);
    if (itemId) rememberKey(contentSetId, key, itemId, now);
    else forgetKey(contentSetId, key);
  },
});

/** Reads what is wanted (one BatchGetItem) and remembers what it found; nothing when nothing is wanted. */
async function refresh(table: TableClient, reads: (Read | false | undefined)[]): Promise<void> {
  const wanted = reads.filter((read): read is Read => Boolean(read));
  if (wanted.length === 0) return;
  const raws = await getRawItems(
    table,
    wanted.map((read) => read.key),
  );
  for (const [index, read] of wanted.entries()) read.remember(raws[index]);
}

/**
 * contentSetId + key. First read: the set, the key item and, by the ids remembered from
 * earlier reads, the project and the key's item, whichever is stale. A second read only
 * for what the first one revealed (a cold instance: project and item).
 */
async function targetBySetKey(table: TableClient, caller: Caller, contentSetId: string, key: string, now: number): Promise<Target> {
  const projectId = knownSet(contentSetId)?.projectId;
  const guessedItem = freshKeyTarget(contentSetId, key, now) ?? knownKeyTarget(contentSetId, key);
  await refresh(table, [
    !freshSet(contentSetId, now) && readSet(contentSetId, now),
    !freshKeyTarget(contentSetId, key, now) && readKey(contentSetId, key, now),
    projectId !== undefined && !freshProject(projectId, now) && readProject(projectId, now),
    guessedItem !== undefined && !freshItem(guessedItem, now) && readItem(guessedItem, now),
  ]);
  const contentSet = freshSet(contentSetId, now);
  if (!contentSet || !visibleTo(caller, contentSet.accountId)) throw notFound('Content set', contentSetId);
  const itemId = freshKeyTarget(contentSetId, key, now);
  if (!itemId && contentSet.disallowAutoContentCreation) throw disallowedKey(contentSetId, key);
  await refresh(table, [
    !freshProject(contentSet.projectId, now) && readProject(contentSet.projectId, now),
    itemId !== undefined && !freshItem(itemId, now) && readItem(itemId, now),
  ]);
  const project = freshProject(contentSet.projectId, now);
  if (!project) throw notFound('Project', contentSet.projectId);
  return { project, contentSet, item: (itemId && freshItem(itemId, now)) || null };
}

/**
 * contentId. First read: the item with, by the ids it names (a 44-character id names its
 * set) or that are remembered, its set and project, whichever is stale; a second read for
 * what only the item revealed.
 */
async function targetByContentId(table: TableClient, caller: Caller, contentId: string, now: number): Promise<Target> {
  const remembered = knownItem(contentId);
  const setId = remembered?.contentSetId ?? contentSetOfItemId(contentId);
  const projectId = remembered?.projectId ?? (setId === undefined ? undefined : knownSet(setId)?.projectId);
  await refresh(table, [
    !freshItem(contentId, now) && readItem(contentId, now),
    setId !== undefined && !freshSet(setId, now) && readSet(setId, now),
    projectId !== undefined && !freshProject(projectId, now) && readProject(projectId, now),
  ]);
  const item = freshItem(contentId, now);
  if (!item || !visibleTo(caller, item.accountId)) throw notFound('Content item', contentId);
  await refresh(table, [
    !freshSet(item.contentSetId, now) && readSet(item.contentSetId, now),
    !freshProject(item.projectId, now) && readProject(item.projectId, now),
  ]);
  const contentSet = freshSet(item.contentSetId, now);
  const project = freshProject(item.projectId, now);
  if (!contentSet || !project) throw notFound('Content item', contentId);
  return { item, contentSet, project };
}

function contradictingTargets(): ApiError {
  return badRequest('contentId and contentSetId/key name different content items', [
    { path: 'args.0.contentId', message: 'does not match contentSetId and key' },
  ]);
}

function missingTarget(contentSetId: string | null | undefined): ApiError {
  return badRequest('A response needs a target: contentId, or contentSetId and key', [
    { path: contentSetId ? 'args.0.key' : 'args.0.contentSetId', message: 'required when contentId is not given' },
  ]);
}

/**
 * Everything the input names, as known at most TARGET_MAX_AGE_MS ago (read now what is
 * older), refused with the documented errors in their documented order.
 */
export async function resolveTarget(
  table: TableClient,
  caller: Caller,
  input: Pick<ResponseCreateModel, 'contentId' | 'contentSetId' | 'key'>,
  now: number,
): Promise<Target> {
  const { contentId, contentSetId, key } = input;
  let target: Target;
  if (contentId) {
    target = await targetByContentId(table, caller, contentId, now);
    if ((contentSetId && contentSetId !== target.contentSet.id) || (key && key !== target.item!.key)) throw contradictingTargets();
  } else if (contentSetId && key) {
    target = await targetBySetKey(table, caller, contentSetId, key, now);
  } else {
    throw missingTarget(contentSetId);
  }
  refuseInactive(target);
  return target;
}

export function validValue(contentSet: Pick<ContentSetItem, 'schema' | 'schemaConfig'>, value: unknown) {
  const result = normalizeValue(contentSet.schema as Schema, contentSet.schemaConfig as AnySchemaConfig, value);
  if (!result.ok) {
    throw badRequest(`Invalid value for a ${contentSet.schema} content set`, [{ path: 'args.0.value', message: result.reason }]);
  }
  return result;
}

/**
 * A revoke token: the set's id (22 characters) then 192 random bits. The id is no secret
 * (widgets carry it); it lets responses/edit read the response and its set in one
 * BatchGetItem. Tokens issued before carry no id and still work (one read more).
 */
export function issueRevokeToken(contentSetId: string, revokeWindowSeconds: number, now: Date) {
  const token = contentSetId + randomBytes(24).toString('base64url');
  const expireAt = new Date(now.getTime() + revokeWindowSeconds * 1000).toISOString();
  return { token, expireAt };
}

/** The set a revoke token names, when it is a token that names one. */
export function tokenContentSet(token: string): string | undefined {
  const candidate = token.slice(0, 22);
  return token.length === 54 && ID_PATTERN.test(candidate) ? candidate : undefined;
}
