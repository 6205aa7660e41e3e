/**
 * Rebuild of a project's aggregate counters from its responses (`npm run
 * aggregates:rebuild -- --project <id>`), for when they drifted (records dead-lettered by
 * the stream consumer, a bug), and the migration from the counter layout before issue 19.
 *
 * 1. Reads every response of the project (Response byProject on gsi3, all pages, every
 *    state), one page at a time.
 * 2. Recomputes in memory every counter item the stream path would hold (store/counters.ts:
 *    a day item with its hours and a year item with its months per entity), with the
 *    consumer's own code: each active response is one change that adds its stored
 *    `contribution`, grouped per item by `changesPerItem` (so project counters keep no
 *    per-option counts); a revoked one leaves its items at zero, as streaming does (the
 *    first year with an item is where lifetime starts). Memory holds the counter items, not
 *    the responses.
 * 3. Reads every item of the partition of every entity met in step 1 (the project, and
 *    each set and item that has responses in any state), one Query per entity.
 * 4. Writes:
 *    - a Put of each recomputed item that differs from the stored one (any hour or month
 *      included), keeping the stored item's watermarks so that a stream record counted
 *      before stays refused;
 *    - a Put setting to zero each stored item that is not recomputed (no active response
 *      left in it) and is not zero: that is what the stream path leaves behind when a
 *      day's responses are revoked, so the items stay the same as streaming's;
 *    - a Delete of each item of the layout before (hour#, day#, week#, month#, year#,
 *      lifetime, rolling# sort keys, with their rank and retire index entries): nothing
 *      reads them any more.
 *    Items equal to their recomputed value are left untouched, so rebuilding a healthy
 *    project writes nothing, and a second rebuild writes nothing. Each Put is conditional
 *    on the `v` read in step 3 (absence for a new item): a counter that changed meanwhile
 *    is not overwritten but reported as a conflict.
 *
 * The markers of the layout before (`counted#<eventId>`, one per counted stream record,
 * expiring 3 days after counting) belong to no project; `deleteCountedMarkers` sweeps the
 * table for them once (the CLI's --markers), or their TTL removes them.
 *
 * Run it when the project is quiet: no responses being written and the stream drained
 * (check the consumer's IteratorAge). It OVERWRITES counters: a response the consumer
 * has not counted yet but step 1 read would be counted twice (once here, once when the
 * consumer gets to it), and one written after step 1 would be missing until counted. The
 * `v` conditions catch counter updates between steps 3 and 4, not those.
 */
import { BatchWriteCommand, DeleteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { sameCounter } from '../domain/aggregation';
import type { Contribution } from '../domain/schemas';
import {
  aggregatePk,
  changesPerItem,
  conditionalPut,
  counterItem,
  counterItemId,
  emptyItemCounters,
  isCounterSk,
  isZeroItemCounters,
  itemCountersOf,
  mergeItemCounters,
  readEntityItems,
  sumChanges,
  type ItemCounters,
  type ResponseChange,
} from '../store/counters';
import { conditionHolds } from '../store/conditions';
import type { TableClient } from '../store/dynamodb-clients';
import { responseOf } from '../store/items';
import { forEachListedResponse } from '../store/response-lists';
import type { ResponseItem, Store } from '../store/entities';
import { inParallel } from './parallel';

export interface RebuildOptions {
  /** Compute and compare, write nothing. */
  dryRun?: boolean;
  /** Writes in flight at once (default 16). */
  concurrency?: number;
}

export interface RewrittenItem {
  pk: string;
  sk: string;
  /**
   * `set`: recomputed value differs (or the item was missing); `zeroed`: no active response
   * left in it; `deleted`: an item of the layout before.
   */
  action: 'set' | 'zeroed' | 'deleted';
  countBefore: number | null;
  countAfter: number;
}

export interface RebuildResult {
  projectId: string;
  now: string;
  dryRun: boolean;
  responses: { total: number; active: number };
  entities: number;
  items: {
    /** Counter items the responses make. */
    recomputed: number;
    /** Counter items of this layout stored before the rebuild. */
    existing: number;
    /** Written (or, dry run, to be written). */
    rewritten: number;
    unchanged: number;
    /** Items of the layout before, deleted (or, dry run, to be deleted). */
    deleted: number;
  };
  /** Items whose version changed between reading and writing: not written; run again when quiet. */
  conflicts: { pk: string; sk: string }[];
  rewritten: RewrittenItem[];
}

/**
 * Reads the project's responses page by page (every partition of gsi3, every state) and
 * hands each page to `onPage`, so memory holds one page and the counters, not every response.
 */
async function forEachResponsePage(store: Store, projectId: string, onPage: (responses: ResponseItem[]) => void): Promise<void> {
  await forEachListedResponse(store, 'gsi3', projectId, (page) => onPage(page.map((raw) => responseOf(raw)!)));
}

/** A counter item as the stream path would have made it from zero. */
export interface RecomputedItem {
  pk: string;
  sk: string;
  counters: ItemCounters;
}

/**
 * What the stream path would have made of these responses: the counters of every item they
 * count in. A revoked response counts in nothing but, as streaming does, leaves its items
 * behind at zero: lifetime starts at the first year that has an item.
 */
export function recomputeCounters(responses: ResponseItem[]): RecomputedItem[] {
  const changes: ResponseChange[] = responses.map((response) => ({
    eventId: response.id,
    sequenceNumber: '',
    scope: {
      accountId: response.accountId,
      projectId: response.projectId,
      contentSetId: response.contentSetId,
      contentItemId: response.contentItemId,
    },
    createdAt: new Date(response.createdAt),
    added: response.state === 'active' ? (response.contribution as Contribution) : undefined,
  }));
  return changesPerItem(changes).map(({ pk, sk, changes: itemChanges }) => ({ pk, sk, counters: sumChanges(itemChanges) }));
}

/** Same counts and sums in the total and in every hour or month (absent ones count as zero). */
export function sameItemCounters(a: ItemCounters, b: ItemCounters): boolean {
  const empty = emptyItemCounters().total;
  const parts = new Set([...Object.keys(a.parts), ...Object.keys(b.parts)]);
  return sameCounter(a.total, b.total) && [...parts].every((part) => sameCounter(a.parts[part] ?? empty, b.parts[part] ?? empty));
}

interface PlannedWrite {
  change: RewrittenItem;
  /** The item to put; absent: delete (the layout before). */
  item?: Record<string, unknown>;
  existing: Record<string, unknown> | undefined;
}

/** Recomputes a project's counter items from its responses and writes those that differ (see the header). */
export async function rebuildProject(store: Store, projectId: string, now: Date, options: RebuildOptions = {}): Promise<RebuildResult> {
  const merged = new Map<string, RecomputedItem>();
  const entityPks = new Set<string>([aggregatePk('project', projectId)]);
  const responses = { total: 0, active: 0 };
  await forEachResponsePage(store, projectId, (page) => {
    for (const response of page) {
      responses.total++;
      if (response.state === 'active') responses.active++;
      entityPks.add(aggregatePk('contentSet', response.contentSetId));
      entityPks.add(aggregatePk('contentItem', response.contentItemId));
    }
    for (const item of recomputeCounters(page)) {
      const id = counterItemId(item);
      const existing = merged.get(id);
      merged.set(id, existing ? { ...item, counters: mergeItemCounters(existing.counters, item.counters) } : item);
    }
  });

  const existing = new Map<string, Record<string, unknown>>();
  const before: Record<string, unknown>[] = [];
  await inParallel([...entityPks], options.concurrency ?? 16, async (pk) => {
    for (const item of await readEntityItems(store, pk)) {
      if (isCounterSk(String(item.sk))) existing.set(counterItemId(item), item);
      else before.push(item);
    }
  });

  const writes: PlannedWrite[] = [];
  let unchanged = 0;
  for (const [id, { pk, sk, counters }] of merged) {
    const stored = existing.get(id);
    if (stored && sameItemCounters(itemCountersOf(stored), counters)) {
      unchanged++;
      continue;
    }
    writes.push({
      change: { pk, sk, action: 'set', countBefore: stored ? Number(stored.n ?? 0) : null, countAfter: counters.total.count },
      item: counterItem({ pk, sk }, counters, stored, now),
      existing: stored,
    });
  }
  for (const [id, stored] of existing) {
    if (merged.has(id)) continue;
    const counters = itemCountersOf(stored);
    if (isZeroItemCounters(counters)) {
      unchanged++;
      continue;
    }
    const key = { pk: String(stored.pk), sk: String(stored.sk) };
    writes.push({
      change: { ...key, action: 'zeroed', countBefore: counters.total.count, countAfter: 0 },
      item: counterItem(key, emptyItemCounters(), stored, now),
      existing: stored,
    });
  }
  for (const old of before) {
    writes.push({ change: { pk: String(old.pk), sk: String(old.sk), action: 'deleted', countBefore: Number(old.count ?? 0), countAfter: 0 }, existing: old });
  }

  const conflicts: { pk: string; sk: string }[] = [];
  if (!options.dryRun) {
    await inParallel(writes, options.concurrency ?? 16, async (write) => {
      if (!write.item) {
        await store.documentClient.send(new DeleteCommand({ TableName: store.tableName, Key: { pk: write.change.pk, sk: write.change.sk } }));
        return;
      }
      if (!(await conditionHolds(store.documentClient.send(conditionalPut(store, write.item, write.existing))))) {
        conflicts.push({ pk: write.change.pk, sk: write.change.sk });
      }
    });
  }
  const conflicted = new Set(conflicts.map((conflict) => counterItemId(conflict)));
  const byKey = (a: { pk: string; sk: string }, b: { pk: string; sk: string }) => (counterItemId(a) < counterItemId(b) ? -1 : 1);
  return {
    projectId,
    now: now.toISOString(),
    dryRun: options.dryRun ?? false,
    responses,
    entities: entityPks.size,
    items: {
      recomputed: merged.size,
      existing: existing.size,
      rewritten: writes.filter((write) => write.item).length - conflicts.length,
      unchanged,
      deleted: before.length,
    },
    conflicts: conflicts.sort(byKey),
    rewritten: writes
      .map((write) => write.change)
      .filter((change) => !conflicted.has(counterItemId(change)))
      .sort(byKey),
  };
}

/**
 * Deletes every `counted#` marker of the layout before (stream/counting.ts no longer writes
 * them): one Scan of the table, filtered to the markers, and BatchWriteItem deletes. Returns
 * how many were deleted. Their TTL removes them within 3 days anyway; this is for an
 * operator who wants the table clean at once.
 */
export async function deleteCountedMarkers(store: TableClient): Promise<number> {
  let deleted = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await store.documentClient.send(
      new ScanCommand({
        TableName: store.tableName,
        FilterExpression: 'begins_with(pk, :marker)',
        ExpressionAttributeValues: { ':marker': 'counted#' },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey: start,
      }),
    );
    const keys = (page.Items ?? []).map((item) => ({ pk: item.pk, sk: item.sk }));
    for (let index = 0; index < keys.length; index += 25) {
      let requests = keys.slice(index, index + 25).map((Key) => ({ DeleteRequest: { Key } }));
      for (let attempt = 0; requests.length > 0; attempt++) {
        if (attempt > 0) await new Promise((wait) => setTimeout(wait, Math.min(1000, 50 * 2 ** attempt)));
        const answer = await store.documentClient.send(new BatchWriteCommand({ RequestItems: { [store.tableName]: requests } }));
        requests = (answer.UnprocessedItems?.[store.tableName] ?? []) as typeof requests;
      }
    }
    deleted += keys.length;
    start = page.LastEvaluatedKey;
  } while (start);
  return deleted;
}
