/**
 * What a function instance (a Lambda container, the local server's process) remembers of
 * the targets of responses, so that a warm `responses/create` on a known page is one
 * DynamoDB round trip: the response's own PutItem, with no check of its targets.
 *
 * | remembered                                          | changes?                             | trusted                 |
 * |-----------------------------------------------------|--------------------------------------|-------------------------|
 * | a project's state                                   | projects/save (archive)              | TARGET_MAX_AGE_MS       |
 * | a set: ids, schema, settings, state                 | sets/save (settings, archive)        | TARGET_MAX_AGE_MS       |
 * | an item: ids, key, state                            | contents/save (key, archive)         | TARGET_MAX_AGE_MS       |
 * | (set, key) -> item                                  | contents/save can move a key         | TARGET_MAX_AGE_MS       |
 *
 * Everything is read again once it is TARGET_MAX_AGE_MS old (10 s), in one BatchGetItem
 * of what is stale. That is the documented bound (docs/api.md, docs/scaling.md): an
 * archived or deactivated project, set or item refuses new responses within 10 s, a moved
 * key sends responses to its new item within 10 s, a changed setting applies within 10 s.
 * Ids never change, so a stale entry still tells which items to read. Entries are bounded
 * (least recently used first out), so an instance's memory stays flat whatever the number
 * of pages.
 */
import type { ContentItemItem, ContentSetItem } from '../store/entities';

/** How long a remembered state, setting or key is trusted without reading it again: the staleness bound. */
export const TARGET_MAX_AGE_MS = 10_000;
/** Entries per map; at about 1 KB each, a few MB per instance at most. */
const MAX_ENTRIES = 5_000;

class Recent<Value> {
  private readonly entries = new Map<string, { value: Value; readAt: number }>();

  /** The entry whatever its age (ids never change), moved to the most recently used end. */
  known(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The entry when read less than TARGET_MAX_AGE_MS before `now`. */
  fresh(key: string, now: number): Value | undefined {
    const entry = this.entries.get(key);
    return entry && now - entry.readAt < TARGET_MAX_AGE_MS && entry.readAt <= now ? this.known(key) : undefined;
  }

  set(key: string, value: Value, readAt: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, readAt });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** What a write needs of a set: ids, schema, settings and state (one list: the type and what is kept). */
const SET_FACT_FIELDS = [
  'id',
  'accountId',
  'projectId',
  'schema',
  'schemaConfig',
  'state',
  'revokeWindowSeconds',
  'disallowAutoContentCreation',
  'publicAggregates',
  'onePerVisitor',
  'publicMinCount',
] as const satisfies readonly (keyof ContentSetItem)[];
export type SetFacts = Pick<ContentSetItem, (typeof SET_FACT_FIELDS)[number]>;
/** What a write needs of an item: ids, key and state. */
export type ItemFacts = Pick<ContentItemItem, 'id' | 'accountId' | 'projectId' | 'contentSetId' | 'key' | 'state'>;
export interface ProjectFacts {
  id: string;
  accountId: string;
  state: string;
}

const projects = new Recent<ProjectFacts>();
const sets = new Recent<SetFacts>();
const keyTargets = new Recent<string>();
const items = new Recent<ItemFacts>();

const keyOf = (contentSetId: string, key: string) => `${contentSetId}\u0000${key}`;

export function rememberProject(project: ProjectFacts, now: number): void {
  const { id, accountId, state } = project;
  projects.set(id, { id, accountId, state }, now);
}

export const freshProject = (projectId: string, now: number) => projects.fresh(projectId, now);

export function rememberSet(set: ContentSetItem, now: number): void {
  sets.set(set.id, Object.fromEntries(SET_FACT_FIELDS.map((field) => [field, set[field]])) as SetFacts, now);
}

export const freshSet = (contentSetId: string, now: number) => sets.fresh(contentSetId, now);
/** A set as last read, however long ago: for what never changes (ids, account, schema). */
export const knownSet = (contentSetId: string) => sets.known(contentSetId);

/** The item a key named when read less than TARGET_MAX_AGE_MS ago. */
export const freshKeyTarget = (contentSetId: string, key: string, now: number) => keyTargets.fresh(keyOf(contentSetId, key), now);
/** The item a key named when last read, however long ago: the item to read along with the key. */
export const knownKeyTarget = (contentSetId: string, key: string) => keyTargets.known(keyOf(contentSetId, key));

export function rememberKey(contentSetId: string, key: string, itemId: string, now: number): void {
  keyTargets.set(keyOf(contentSetId, key), itemId, now);
}

/** A key that names no item (any more): read again next time. */
export function forgetKey(contentSetId: string, key: string): void {
  keyTargets.delete(keyOf(contentSetId, key));
}

export function rememberItem(item: ItemFacts, now: number): void {
  const { id, accountId, projectId, contentSetId, key, state } = item;
  items.set(id, { id, accountId, projectId, contentSetId, key, state }, now);
}

export const freshItem = (contentItemId: string, now: number) => items.fresh(contentItemId, now);
export const knownItem = (contentItemId: string) => items.known(contentItemId);

/** Tests and benchmarks: start cold. */
export function clearTargetCache(): void {
  projects.clear();
  sets.clear();
  keyTargets.clear();
  items.clear();
}
