/**
 * Where a response goes and whether it may: the project, set and item a write names, their
 * states, and the value checked against the set's schema. Shared by collection and revocation.
 *
 * Two ways to find a target:
 * - `planWrite`, the hot path: what target-cache.ts remembers, reading only what it does
 *   not know (nothing, for a warm instance writing on a known page). It does not read
 *   states: the write's own transaction checks them (`stateChecks`), so nothing can slip
 *   in between a check and the write.
 * - `freshTarget`: everything read now, states included, refused with the documented
 *   error (`refuseInactive`). Writes fall back to it whenever the hot path cannot decide
 *   alone (a check of the transaction failed, the value is invalid, targets disagree), so
 *   the errors and their precedence are those of a full read.
 */
import { randomBytes } from 'node:crypto';
import type { Caller } from '../api/auth';
import { ApiError, badRequest, notFound } from '../api/errors';
import type { ResponseCreateModel } from '../api/response-models';
import { normalizeValue, type AnySchemaConfig, type Schema } from '../domain/schemas';
import { contentSetOfItemId, ID_PATTERN, keyHash } from '../domain/text';
import { getRawItems } from '../store/batch';
import type { TableClient } from '../store/dynamodb-clients';
import type { ContentItemItem, ContentSetItem } from '../store/entities';
import { activeCheck, contentItemOf, contentKeyTarget, contentSetOf, keys, projectStateOf, type TransactItem } from '../store/items';
import {
  itemFacts,
  keyTarget,
  rememberItem,
  rememberKey,
  rememberSet,
  setFacts,
  setSettings,
  type ItemFacts,
  type SetFacts,
  type SetSettings,
} from './target-cache';

export interface Target {
  project: { id: string; state: string };
  contentSet: ContentSetItem;
  /** Null when the key has no item yet and one is to be created with the response. */
  item: ContentItemItem | null;
}

/** What a write needs to know of its target; the states are checked by the write itself. */
export interface WritePlan {
  set: SetFacts;
  /** Present when the write needs them (a revoke token) or they were read anyway. */
  settings?: SetSettings;
  /** The existing item, or null: the key is new and the item is created with the response. */
  itemId: string | null;
  /** The key the item must still hold when the response commits (keys can be moved). */
  key?: string;
  /** True when everything was read now, states included (freshTarget). */
  fresh: boolean;
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
 * The ConditionChecks a response's write carries: its project, set and (existing) item
 * are active at the instant it commits, and the item still holds `key` when the write
 * relies on it. The item check comes last; a new item is checked by its own creation.
 */
export function stateChecks(tableName: string, target: { projectId: string; contentSetId: string; itemId: string | null; key?: string }): TransactItem[] {
  return [
    activeCheck(tableName, keys.project(target.projectId)),
    activeCheck(tableName, keys.contentSet(target.contentSetId)),
    ...(target.itemId ? [activeCheck(tableName, keys.contentItem(target.itemId), target.key === undefined ? {} : { key: target.key })] : []),
  ];
}

function disallowedKey(contentSetId: string, key: string): ApiError {
  return new ApiError('not-found', 'No content item has this key, and the content set does not create items automatically', { contentSetId, key });
}

async function loadProjectAndItem(table: TableClient, projectId: string, contentItemId: string | null) {
  const [projectRaw, itemRaw] = await getRawItems(table, [keys.project(projectId), ...(contentItemId ? [keys.contentItem(contentItemId)] : [])]);
  return { project: projectStateOf(projectRaw), item: contentItemOf(itemRaw) ?? null };
}

/** contentSetId + key: the set and the key's item in one BatchGetItem, then project and item in another. */
async function targetBySetKey(table: TableClient, caller: Caller, contentSetId: string, key: string, now: number): Promise<Target> {
  const [setRaw, keyRaw] = await getRawItems(table, [keys.contentSet(contentSetId), keys.contentKey(contentSetId, keyHash(key))]);
  const contentSet = contentSetOf(setRaw);
  if (!contentSet || !visibleTo(caller, contentSet.accountId)) throw notFound('Content set', contentSetId);
  rememberSet(contentSet, now);
  const itemId = contentKeyTarget(keyRaw) ?? null;
  if (!itemId && contentSet.disallowAutoContentCreation) throw disallowedKey(contentSetId, key);
  const { project, item } = await loadProjectAndItem(table, contentSet.projectId, itemId);
  if (!project) throw notFound('Project', contentSet.projectId);
  if (item) {
    rememberItem(item);
    rememberKey(contentSetId, key, item.id);
  }
  return { project, contentSet, item };
}

/**
 * The item, refused unless the caller may see it, and remembered. `withSet`: its set too,
 * in the same BatchGetItem (a cold create by contentId is then two round trips, this read
 * and the write).
 */
async function readItem(table: TableClient, caller: Caller, contentId: string, withSet?: { id: string; now: number }): Promise<ContentItemItem> {
  const [itemRaw, setRaw] = await getRawItems(table, [keys.contentItem(contentId), ...(withSet ? [keys.contentSet(withSet.id)] : [])]);
  const item = contentItemOf(itemRaw);
  if (!item || !visibleTo(caller, item.accountId)) throw notFound('Content item', contentId);
  rememberItem(item);
  const contentSet = withSet && contentSetOf(setRaw);
  if (contentSet) rememberSet(contentSet, withSet.now);
  return item;
}

async function targetByContentId(table: TableClient, caller: Caller, contentId: string, now: number): Promise<Target> {
  const item = await readItem(table, caller, contentId);
  const [setRaw, projectRaw] = await getRawItems(table, [keys.contentSet(item.contentSetId), keys.project(item.projectId)]);
  const contentSet = contentSetOf(setRaw);
  const project = projectStateOf(projectRaw);
  if (!contentSet || !project) throw notFound('Content item', contentId);
  rememberSet(contentSet, now);
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

/** Everything the input names, read now, refused with the documented errors in their documented order. */
export async function freshTarget(table: TableClient, caller: Caller, input: ResponseCreateModel, now: number): Promise<Target> {
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

export function planOf(target: Target, input: ResponseCreateModel, now: number): WritePlan {
  const { contentSet, item } = target;
  const { revokeWindowSeconds, disallowAutoContentCreation, publicAggregates } = contentSet;
  return {
    set: contentSet,
    settings: { revokeWindowSeconds, disallowAutoContentCreation, publicAggregates, readAt: now },
    itemId: item?.id ?? null,
    key: input.key ?? undefined,
    fresh: true,
  };
}

/**
 * The hot path: the target from what this instance remembers, reading only what it does
 * not know. `needSettings`: the write uses settings (a revoke token's window). Answers
 * undefined when only a full read can decide (a contradiction that may come from a moved
 * key): the caller then uses freshTarget. Not-found is answered here only from facts that
 * never change (a set or item that does not exist or belongs to another account).
 */
export async function planWrite(
  table: TableClient,
  caller: Caller,
  input: ResponseCreateModel,
  now: number,
  needSettings: boolean,
): Promise<WritePlan | undefined> {
  const { contentId, contentSetId, key } = input;
  if (contentId) {
    let item: ItemFacts | undefined = itemFacts(contentId);
    if (item && !visibleTo(caller, item.accountId)) throw notFound('Content item', contentId);
    if (!item) {
      // New ids name their set (contentSetOfItemId): read it alongside unless what the write needs of it is known.
      const setId = contentSetOfItemId(contentId);
      const setKnown = setId !== undefined && setFacts(setId) !== undefined && (!needSettings || setSettings(setId, now) !== undefined);
      item = await readItem(table, caller, contentId, setId !== undefined && !setKnown ? { id: setId, now } : undefined);
    }
    if ((contentSetId && contentSetId !== item.contentSetId) || (key && key !== item.key)) return undefined;
    let set = setFacts(item.contentSetId);
    let settings = setSettings(item.contentSetId, now);
    if (!set || (needSettings && !settings)) {
      const [setRaw] = await getRawItems(table, [keys.contentSet(item.contentSetId)]);
      const contentSet = contentSetOf(setRaw);
      if (!contentSet) throw notFound('Content item', contentId);
      rememberSet(contentSet, now);
      set = setFacts(contentSet.id)!;
      settings = setSettings(contentSet.id, now);
    }
    return { set, settings, itemId: item.id, key: key ?? undefined, fresh: false };
  }
  if (!contentSetId || !key) throw missingTarget(contentSetId);

  const set = setFacts(contentSetId);
  const settings = setSettings(contentSetId, now);
  const itemId = keyTarget(contentSetId, key);
  if (set && itemId && (settings || !needSettings)) {
    if (!visibleTo(caller, set.accountId)) throw notFound('Content set', contentSetId);
    return { set, settings, itemId, key, fresh: false };
  }
  // Cold, or a key not seen yet: the set and the key item in one BatchGetItem.
  const [setRaw, keyRaw] = await getRawItems(table, [keys.contentSet(contentSetId), keys.contentKey(contentSetId, keyHash(key))]);
  const contentSet = contentSetOf(setRaw);
  if (!contentSet || !visibleTo(caller, contentSet.accountId)) throw notFound('Content set', contentSetId);
  rememberSet(contentSet, now);
  const existing = contentKeyTarget(keyRaw) ?? null;
  if (existing) rememberKey(contentSetId, key, existing);
  else if (contentSet.disallowAutoContentCreation) throw disallowedKey(contentSetId, key);
  return { set: setFacts(contentSetId)!, settings: setSettings(contentSetId, now), itemId: existing, key, fresh: false };
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
