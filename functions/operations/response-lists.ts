/**
 * The responses of an item, a set or a project, newest first, merged from the write
 * shards of their list index (domain/response-shards.ts) and the unsharded partition where
 * responses written before shards are.
 *
 * A position is the sort key (`<createdAt>#<id>`) of the last item emitted: every source is
 * read below it, so a cursor stays valid however many responses are written meanwhile
 * (newer ones are above it, and sort keys never change). One read asks each source for a
 * share of what it needs, then more (doubling) of the sources that may still hold items
 * above the `count`-th best seen; an item is emitted only once every source has read past
 * it (its sort key is at least every unfinished source's frontier), so nothing is emitted
 * out of order. A read that spends its budget answers what it may emit and where to resume.
 */
import { RESPONSE_LIST_SHARDS } from '../domain/response-shards';
import type { TableClient } from '../store/dynamodb-clients';
import type { RawItem, ResponseListIndex } from '../store/items';
import { listPartitions, readResponsePartition } from '../store/response-lists';
import type { IndexRead } from './paging';

export interface ListSelection {
  index: ResponseListIndex;
  /** The item, set or project id. */
  scopeId: string;
  from?: string;
  to?: string;
  /** Undefined: every state. */
  state?: string;
}

/** One partition of a merged list: up to `limit` items examined below `below` (its page and frontier). */
export type PartitionReader<T> = (below: string | undefined, limit: number) => Promise<{ items: T[]; frontier?: string }>;

interface Source<T> {
  read: PartitionReader<T>;
  below?: string;
  /** The last sort key examined, while the partition may hold more. */
  frontier?: string;
  done: boolean;
}

/**
 * Reads of a merged list for the paging helpers (paging.ts `IndexSource.read`): up to
 * `count` raw items below `start`, newest first; `budget` bounds the items examined per read.
 */
export function mergedListRead(table: TableClient, selection: ListSelection, budget: number): IndexRead<RawItem> {
  return mergedPartitionsRead(
    listPartitions(selection.index, selection.scopeId).map(
      (partition): PartitionReader<RawItem> =>
        (below, limit) =>
          readResponsePartition(table, { index: selection.index, partition, from: selection.from, to: selection.to, state: selection.state, limit, below }),
    ),
    (item) => item[`${selection.index}sk`] as string,
    budget,
    RESPONSE_LIST_SHARDS,
  );
}

/**
 * Any partitions whose items sort by unique sort keys, merged newest first (see the header):
 * the list indexes' shards, and the themes job's messages of a project's sets.
 */
export function mergedPartitionsRead<T>(
  readers: readonly PartitionReader<T>[],
  sortKeyOf: (item: T) => string,
  budget: number,
  spread = readers.length,
): IndexRead<T> {
  return async (start, count) => {
    const sources: Source<T>[] = readers.map((read) => ({ read, ...(start === null ? {} : { below: start }), done: false }));
    const found: T[] = [];
    let examined = 0;
    let limit = Math.ceil(count / Math.max(1, spread)) + 2;
    for (;;) {
      found.sort((a, b) => (sortKeyOf(a) < sortKeyOf(b) ? 1 : -1));
      // Sources that may hold items above the count-th best found so far.
      const cutoff = found.length >= count ? sortKeyOf(found[count - 1]) : undefined;
      const open = sources.filter((source) => !source.done && (cutoff === undefined || source.frontier === undefined || source.frontier > cutoff));
      // The first round reads every source, whatever the budget: what is emitted needs all of them.
      if (open.length === 0 || (examined > 0 && examined >= budget)) break;
      const each = Math.max(1, Math.min(limit, Math.floor((budget - examined) / open.length)));
      examined += each * open.length;
      const pages = await Promise.all(open.map((source) => source.read(source.below, each)));
      pages.forEach((page, index) => {
        const source = open[index];
        found.push(...page.items);
        source.frontier = page.frontier;
        source.below = page.frontier;
        source.done = page.frontier === undefined;
      });
      limit *= 2;
    }
    // Everything at or above the highest unfinished frontier has been read from every source.
    const frontier = sources.reduce<string | undefined>(
      (highest, source) => (!source.done && source.frontier !== undefined && (highest === undefined || source.frontier > highest) ? source.frontier : highest),
      undefined,
    );
    const emittable = frontier === undefined ? found : found.filter((item) => sortKeyOf(item) >= frontier);
    if (emittable.length >= count) return { items: emittable.slice(0, count) };
    // Fewer: the list ended, or the budget ran out first (what is certain, and where to go on).
    return frontier === undefined ? { items: emittable } : { items: emittable, resume: frontier };
  };
}
