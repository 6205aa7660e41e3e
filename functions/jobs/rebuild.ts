/**
 * Rebuild of a project's aggregate counters from its responses (`npm run
 * aggregates:rebuild -- --project <id>`), for when they drifted: records dead-lettered by
 * the stream consumer, a replay older than its markers, a bug, a missed rollover.
 *
 * 1. Reads every response of the project (Response byProject on gsi3, all pages, every
 *    state), one page at a time.
 * 2. Recomputes in memory every counter item the stream path would hold, with the
 *    consumer's own code: each active response is one change that adds its stored
 *    `contribution`, coalesced per item by `counterDeltas` (store/counters.ts) (so buckets come from counterTargets
 *    of its createdAt, project counters keep no per-option counts, and the rolling items
 *    hold the responses inside the window ending at `now`, as after that day's rollover),
 *    page sums merged per item. Memory holds the counter items, not the responses.
 * 3. Reads the existing counter items of every entity met in step 1 (the project, and
 *    each set and item that has responses in any state), one Query per entity.
 * 4. Writes with Put, replacing counters and static attributes (from counterTargets):
 *    - a recomputed item that differs from the stored one;
 *    - a stored item that is not recomputed (no active response left in its bucket) and
 *      is not zero: it is set to zero, not deleted. That is what the stream path leaves
 *      behind when a bucket's responses are revoked, so the set of items stays the same
 *      as streaming's and every read (getStats sums buckets, top skips counts of 0)
 *      answers the same. Items equal to their recomputed value are left untouched, so
 *      rebuilding a healthy project writes nothing, and a second rebuild writes nothing.
 *    Each Put is conditional on the version read in step 3 (absence for a new item): a
 *    counter that changed meanwhile is not overwritten but reported as a conflict.
 *
 * Run it when the project is quiet: no responses being written and the stream drained
 * (check the consumer's IteratorAge). It OVERWRITES counters: a response the consumer
 * has not counted yet but step 1 read would be counted twice (once here, once when the
 * consumer gets to it), and one written after step 1 would be missing until counted. The
 * version conditions catch counter updates between steps 3 and 4, not those.
 */
import { emptyCounter, isZeroCounter, mergeCounters, sameCounter, type Counter } from '../domain/aggregation';
import type { Contribution } from '../domain/schemas';
import {
  aggregatePk,
  conditionalPut,
  counterDeltas,
  counterFromItem,
  counterItem,
  counterItemId,
  readEntityItems,
  staticAttributesOf,
  type CounterDelta,
  type ResponseChange,
} from '../store/counters';
import { conditionHolds } from '../store/conditions';
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
  /** `set`: recomputed value differs (or the item was missing); `zeroed`: no active response left in it. */
  action: 'set' | 'zeroed';
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
    /** Counter items stored before the rebuild. */
    existing: number;
    /** Written (or, dry run, to be written). */
    rewritten: number;
    unchanged: number;
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

/** What the stream path would have made of these responses: one delta per counter item, from zero. */
export function recomputeCounters(responses: ResponseItem[], now: Date): CounterDelta[] {
  const changes: ResponseChange[] = responses
    .filter((response) => response.state === 'active')
    .map((response) => ({
      eventId: response.id,
      sequenceNumber: '',
      scope: {
        accountId: response.accountId,
        projectId: response.projectId,
        contentSetId: response.contentSetId,
        contentItemId: response.contentItemId,
      },
      createdAt: new Date(response.createdAt),
      added: response.contribution as Contribution,
    }));
  return counterDeltas(changes, now);
}

function sameAttributes(wanted: Record<string, string>, item: Record<string, unknown>): boolean {
  return Object.entries(wanted).every(([name, value]) => item[name] === value);
}

interface PlannedWrite {
  change: RewrittenItem;
  item: Record<string, unknown>;
  existing: Record<string, unknown> | undefined;
}

/** Recomputes a project's counter items from its responses and writes those that differ (see the header). */
export async function rebuildProject(store: Store, projectId: string, now: Date, options: RebuildOptions = {}): Promise<RebuildResult> {
  const merged = new Map<string, CounterDelta>();
  const entityPks = new Set<string>([aggregatePk('project', projectId)]);
  const responses = { total: 0, active: 0 };
  await forEachResponsePage(store, projectId, (page) => {
    for (const response of page) {
      responses.total++;
      if (response.state === 'active') responses.active++;
      entityPks.add(aggregatePk('contentSet', response.contentSetId));
      entityPks.add(aggregatePk('contentItem', response.contentItemId));
    }
    for (const { target, delta } of recomputeCounters(page, now)) {
      const id = counterItemId(target);
      const existing = merged.get(id);
      merged.set(id, { target, delta: existing ? mergeCounters(existing.delta, delta) : delta });
    }
  });
  const recomputed = [...merged.values()];

  const existing = new Map<string, Record<string, unknown>>();
  await inParallel([...entityPks], options.concurrency ?? 16, async (pk) => {
    for (const item of await readEntityItems(store, pk)) existing.set(counterItemId(item), item);
  });

  const writes: PlannedWrite[] = [];
  let unchanged = 0;
  const recomputedIds = new Set<string>();
  for (const { target, delta } of recomputed) {
    const id = counterItemId(target);
    recomputedIds.add(id);
    const stored = existing.get(id);
    if (stored && sameCounter(counterFromItem(stored, 0), delta) && sameAttributes(target.attributes, stored)) {
      unchanged++;
      continue;
    }
    writes.push({
      change: { pk: target.pk, sk: target.sk, action: 'set', countBefore: stored ? Number(stored.count ?? 0) : null, countAfter: delta.count },
      item: counterItem(target, target.attributes, delta, stored, now),
      existing: stored,
    });
  }
  for (const [id, stored] of existing) {
    if (recomputedIds.has(id)) continue;
    const counter: Counter = counterFromItem(stored, 0);
    if (isZeroCounter(counter)) {
      unchanged++;
      continue;
    }
    const key = { pk: String(stored.pk), sk: String(stored.sk) };
    writes.push({
      change: { ...key, action: 'zeroed', countBefore: counter.count, countAfter: 0 },
      item: counterItem(key, staticAttributesOf(stored), emptyCounter(0), stored, now),
      existing: stored,
    });
  }

  const conflicts: { pk: string; sk: string }[] = [];
  if (!options.dryRun) {
    await inParallel(writes, options.concurrency ?? 16, async (write) => {
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
    items: { recomputed: recomputed.length, existing: existing.size, rewritten: writes.length - conflicts.length, unchanged },
    conflicts: conflicts.sort(byKey),
    rewritten: writes
      .map((write) => write.change)
      .filter((change) => !conflicted.has(counterItemId(change)))
      .sort(byKey),
  };
}
