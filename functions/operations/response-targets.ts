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

export function disallowedKey(contentSetId: string, key: string): ApiError {
  return new ApiError('not-found', 'No content item has this key, and the content set does not create items automatically', { contentSetId, key });
}

/**
 * What one resolution knows: what it read itself (found or not), else what the instance
 * remembers from less than TARGET_MAX_AGE_MS ago, unless `reread` (a write that relied on
 * it failed). What it read or saw once it keeps: concurrent requests of the same process
 * (the local server) may change the shared memory meanwhile.
 */
class Resolution {
  private readonly sets = new Map<string, SetFacts | undefined>();
  private readonly projects = new Map<string, ProjectFacts | undefined>();
  private readonly items = new Map<string, ItemFacts | undefined>();
  private readonly keyTargets = new Map<string, string | undefined>();

  constructor(
    private readonly table: TableClient,
    private readonly now: number,
    private readonly reread: boolean,
  ) {}

  /** From the map when this resolution read or saw it, else (kept in the map) from the shared memory. */
  private lookup<Value>(map: Map<string, Value | undefined>, id: string, remembered: () => Value | undefined): Value | undefined {
    if (map.has(id)) return map.get(id);
    const value = this.reread ? undefined : remembered();
    if (value !== undefined) map.set(id, value);
    return value;
  }

  set(id: string): SetFacts | undefined {
    return this.lookup(this.sets, id, () => freshSet(id, this.now));
  }

  project(id: string): ProjectFacts | undefined {
    return this.lookup(this.projects, id, () => freshProject(id, this.now));
  }

  item(id: string): ItemFacts | undefined {
    return this.lookup(this.items, id, () => freshItem(id, this.now));
  }

  keyTarget(contentSetId: string, key: string): string | undefined {
    return this.lookup(this.keyTargets, `${contentSetId}\u0000${key}`, () => freshKeyTarget(contentSetId, key, this.now));
  }

  /** Whether the key was read by this resolution or is remembered, with or without an item. */
  keyKnown(contentSetId: string, key: string): boolean {
    return this.keyTargets.has(`${contentSetId}\u0000${key}`) || this.keyTarget(contentSetId, key) !== undefined;
  }

  /** Reads what is asked (one BatchGetItem), remembers what it found, and knows what it did not find. */
  async read(wanted: { sets?: string[]; projects?: string[]; items?: string[]; key?: { contentSetId: string; key: string } }): Promise<void> {
    const { now } = this;
    const reads: { key: ItemKey; take: (raw: Record<string, unknown> | undefined) => void }[] = [
      ...(wanted.sets ?? []).map((id) => ({
        key: keys.contentSet(id),
        take: (raw: Record<string, unknown> | undefined) => {
          const set = contentSetOf(raw);
          if (set) rememberSet(set, now);
          this.sets.set(id, set && knownSet(id));
        },
      })),
      ...(wanted.projects ?? []).map((id) => ({
        key: keys.project(id),
        take: (raw: Record<string, unknown> | undefined) => {
          const project = projectStateOf(raw);
          if (project) rememberProject(project, now);
          this.projects.set(id, project);
        },
      })),
      ...(wanted.items ?? []).map((id) => ({
        key: keys.contentItem(id),
        take: (raw: Record<string, unknown> | undefined) => {
          const item = contentItemOf(raw);
          if (item) rememberItem(item, now);
          this.items.set(id, item && knownItem(id));
        },
      })),
      ...(wanted.key
        ? [
            {
              key: keys.contentKey(wanted.key.contentSetId, keyHash(wanted.key.key)),
              take: (raw: Record<string, unknown> | undefined) => {
                const { contentSetId, key } = wanted.key!;
                const itemId = contentKeyTarget(raw);
                if (itemId) rememberKey(contentSetId, key, itemId, now);
                else forgetKey(contentSetId, key);
                this.keyTargets.set(`${contentSetId}\u0000${key}`, itemId);
              },
            },
          ]
        : []),
    ];
    if (reads.length === 0) return;
    const raws = await getRawItems(
      this.table,
      reads.map((read) => read.key),
    );
    for (const [index, read] of reads.entries()) read.take(raws[index]);
  }
}

const ids = (...candidates: (string | false | undefined)[]) => candidates.filter((id): id is string => typeof id === 'string');

/**
 * contentSetId + key. First read: the set, the key item and, by the ids remembered from
 * earlier reads, the project and the key's item, whichever is stale. A second read only
 * for what the first one revealed (a cold instance: project and item).
 */
async function targetBySetKey(known: Resolution, caller: Caller, contentSetId: string, key: string): Promise<Target> {
  const projectId = knownSet(contentSetId)?.projectId;
  const guessedItem = known.keyTarget(contentSetId, key) ?? knownKeyTarget(contentSetId, key);
  await known.read({
    sets: ids(!known.set(contentSetId) && contentSetId),
    key: known.keyKnown(contentSetId, key) ? undefined : { contentSetId, key },
    projects: ids(projectId !== undefined && !known.project(projectId) && projectId),
    items: ids(guessedItem !== undefined && !known.item(guessedItem) && guessedItem),
  });
  const contentSet = known.set(contentSetId);
  if (!contentSet || !visibleTo(caller, contentSet.accountId)) throw notFound('Content set', contentSetId);
  const itemId = known.keyTarget(contentSetId, key);
  if (!itemId && contentSet.disallowAutoContentCreation) throw disallowedKey(contentSetId, key);
  await known.read({
    projects: ids(!known.project(contentSet.projectId) && contentSet.projectId),
    items: ids(itemId !== undefined && !known.item(itemId) && itemId),
  });
  const project = known.project(contentSet.projectId);
  if (!project) throw notFound('Project', contentSet.projectId);
  return { project, contentSet, item: (itemId && known.item(itemId)) || null };
}

/**
 * contentId. First read: the item with, by the ids it names (a 44-character id names its
 * set) or that are remembered, its set and project, whichever is stale; a second read for
 * what only the item revealed.
 */
async function targetByContentId(known: Resolution, caller: Caller, contentId: string): Promise<Target> {
  const remembered = knownItem(contentId);
  const setId = remembered?.contentSetId ?? contentSetOfItemId(contentId);
  const projectId = remembered?.projectId ?? (setId === undefined ? undefined : knownSet(setId)?.projectId);
  await known.read({
    items: ids(!known.item(contentId) && contentId),
    sets: ids(setId !== undefined && !known.set(setId) && setId),
    projects: ids(projectId !== undefined && !known.project(projectId) && projectId),
  });
  const item = known.item(contentId);
  if (!item || !visibleTo(caller, item.accountId)) throw notFound('Content item', contentId);
  await known.read({
    sets: ids(!known.set(item.contentSetId) && item.contentSetId),
    projects: ids(!known.project(item.projectId) && item.projectId),
  });
  const contentSet = known.set(item.contentSetId);
  const project = known.project(item.projectId);
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
  /** Read everything now, remembered or not: a write that relied on what was remembered failed. */
  reread = false,
): Promise<Target> {
  const { contentId, contentSetId, key } = input;
  const known = new Resolution(table, now, reread);
  let target: Target;
  if (contentId) {
    target = await targetByContentId(known, caller, contentId);
    if ((contentSetId && contentSetId !== target.contentSet.id) || (key && key !== target.item!.key)) throw contradictingTargets();
  } else if (contentSetId && key) {
    target = await targetBySetKey(known, caller, contentSetId, key);
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
