/**
 * What a function instance (a Lambda container, the local server's process) remembers of
 * the targets of responses, so that a warm `responses/create` on a known page is one
 * DynamoDB round trip: the transaction itself.
 *
 * | remembered                                   | changes?                                   | trusted                          |
 * |----------------------------------------------|--------------------------------------------|----------------------------------|
 * | a set's ids, account, schema, schemaConfig   | never after creation                       | for the instance's life          |
 * | a set's revoke window, publicAggregates,     | sets/save                                  | SETTINGS_MAX_AGE_MS (60 s)       |
 * | disallowAutoContentCreation                  |                                            |                                  |
 * | an item's ids, account and set               | never                                      | for the instance's life          |
 * | (set, key) -> item, an item's key            | contents/save can move a key               | by writes only, whose            |
 * |                                              |                                            | transaction checks it            |
 * | project, set and item states                 | any time (archive, deactivate)             | never: every write checks them   |
 * |                                              |                                            | in its own transaction           |
 *
 * So a changed setting takes effect within 60 s, an archived set or project refuses the
 * very next response, and a moved key is noticed by the next write on it (its check
 * fails, the write resolves the key afresh). Entries are bounded (least recently used
 * first out), so an instance's memory stays flat whatever the number of pages.
 */
import type { ContentItemItem, ContentSetItem } from '../store/entities';

/** How long settings are trusted without reading them again. */
export const SETTINGS_MAX_AGE_MS = 60_000;
/** Entries per map; at about 1 KB each, a few MB per instance at most. */
const MAX_ENTRIES = 5_000;

class Recent<Value> {
  private readonly entries = new Map<string, Value>();

  get(key: string): Value | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Value): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** What never changes about a set. */
export type SetFacts = Pick<ContentSetItem, 'id' | 'accountId' | 'projectId' | 'schema' | 'schemaConfig'>;
/** What sets/save may change, with the time it was read (epoch ms). */
export type SetSettings = Pick<ContentSetItem, 'revokeWindowSeconds' | 'disallowAutoContentCreation' | 'publicAggregates'> & { readAt: number };
/** What never changes about an item, and its key when last seen (which may move). */
export type ItemFacts = Pick<ContentItemItem, 'id' | 'accountId' | 'projectId' | 'contentSetId' | 'key'>;

const sets = new Recent<{ facts: SetFacts; settings: SetSettings }>();
const keyTargets = new Recent<{ itemId: string }>();
const items = new Recent<ItemFacts>();

const keyOf = (contentSetId: string, key: string) => `${contentSetId}\u0000${key}`;

export function rememberSet(set: ContentSetItem, now: number): void {
  const { id, accountId, projectId, schema, schemaConfig, revokeWindowSeconds, disallowAutoContentCreation, publicAggregates } = set;
  sets.set(id, {
    facts: { id, accountId, projectId, schema, schemaConfig },
    settings: { revokeWindowSeconds, disallowAutoContentCreation, publicAggregates, readAt: now },
  });
}

export function setFacts(contentSetId: string): SetFacts | undefined {
  return sets.get(contentSetId)?.facts;
}

/** The set's settings when read less than SETTINGS_MAX_AGE_MS ago. */
export function setSettings(contentSetId: string, now: number): SetSettings | undefined {
  const settings = sets.get(contentSetId)?.settings;
  return settings && now - settings.readAt < SETTINGS_MAX_AGE_MS ? settings : undefined;
}

export function rememberKey(contentSetId: string, key: string, itemId: string): void {
  keyTargets.set(keyOf(contentSetId, key), { itemId });
}

/** The item a key named when last read. Only writes use it: their transaction checks that the item still holds the key. */
export function keyTarget(contentSetId: string, key: string): string | undefined {
  return keyTargets.get(keyOf(contentSetId, key))?.itemId;
}

export function rememberItem(item: ItemFacts): void {
  const { id, accountId, projectId, contentSetId, key } = item;
  items.set(id, { id, accountId, projectId, contentSetId, key });
}

export function itemFacts(contentItemId: string): ItemFacts | undefined {
  return items.get(contentItemId);
}

/** After a write's check failed: whatever it relied on is read again next time. */
export function forgetTarget(target: { contentSetId: string; key?: string; contentItemId?: string }): void {
  if (target.key !== undefined) keyTargets.delete(keyOf(target.contentSetId, target.key));
  if (target.contentItemId !== undefined) items.delete(target.contentItemId);
}

/** Tests and benchmarks: start cold. */
export function clearTargetCache(): void {
  sets.clear();
  keyTargets.clear();
  items.clear();
}
