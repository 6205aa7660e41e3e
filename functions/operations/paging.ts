/**
 * The one way lists page through an index: responses/list (offset or cursor),
 * responses/export, keys/list, responses/erase by user. Every list that returns a cursor
 * goes through `cursorPage` or `walkIndex` + `sealPosition` here, never a copy.
 *
 * Positions are index keys serialized by ElectroDB (the key just after the last item
 * taken); callers only ever see them sealed (functions/domain/cursor.ts).
 */
import { cursorSealingKey } from '../secrets/keys';
import { badRequest } from '../api/errors';
import { openCursorFor, scopeFingerprint, sealCursor } from '../domain/cursor';

/**
 * Up to `count` items after `start` (null: from the beginning), in index order. Fewer come
 * back when the index ends, or when a filtered read used up its budget among items its
 * filter dropped: then `resume` is where it stopped, and reading on from there continues.
 */
export type IndexRead<T> = (start: string | null, count: number) => Promise<{ items: T[]; resume?: string }>;

export interface IndexSource<T> {
  read: IndexRead<T>;
  /** The position just after an item, to start the next read there. */
  positionOf: (item: T) => string;
}

export interface WalkOptions<T> {
  start: string | null;
  /** At most this many items are taken. */
  limit: number;
  /** Items per read (default 100); one more is read to know whether more exist. */
  chunk?: number;
  /**
   * Receives the items read, in order, and answers how many of them it took (a budget may
   * stop it early). Taking fewer than given ends the walk. Default: takes all.
   */
  visit?: (items: T[]) => number | Promise<number>;
}

export interface WalkResult {
  taken: number;
  /** Whether items remain after the last one taken. */
  more: boolean;
  /** Where to continue: after the last item taken (the start when none was). */
  next: string | null;
}

export const DEFAULT_CHUNK = 100;
/** Skipped items are only counted, so they are read in larger chunks. */
const SKIP_CHUNK = 1000;

/**
 * Walks an index from `start`, handing items to `visit` a chunk at a time. Each read asks
 * for one item more than it may take, so `more` is exact without a read past the end.
 * A read that stopped at its budget ends the walk there (`more`, `next` = where it
 * stopped): one request's reads stay bounded however sparse a filter's matches are, and
 * the caller pages on.
 */
export async function walkIndex<T>(source: IndexSource<T>, options: WalkOptions<T>): Promise<WalkResult> {
  const chunk = options.chunk ?? DEFAULT_CHUNK;
  let start = options.start;
  let taken = 0;
  while (taken < options.limit) {
    const wanted = Math.min(chunk, options.limit - taken);
    const { items: read, resume } = await source.read(start, wanted + 1);
    const offered = read.slice(0, wanted);
    const accepted = options.visit ? Math.max(0, Math.min(offered.length, await options.visit(offered))) : offered.length;
    taken += accepted;
    if (accepted > 0) start = source.positionOf(offered[accepted - 1]);
    if (accepted < offered.length) return { taken, more: true, next: start };
    if (read.length <= wanted) return resume === undefined ? { taken, more: false, next: start } : { taken, more: true, next: resume };
  }
  return { taken, more: true, next: start };
}

/** Whose list a cursor belongs to and what it lists; `path` names the cursor argument in errors. */
export interface CursorScope {
  accountId: string;
  scope: Record<string, unknown>;
  path: string;
}

function fingerprint(list: CursorScope) {
  return { accountId: list.accountId, scope: scopeFingerprint(list.scope) };
}

/** The position a caller's cursor stands for; bad-request unless it was sealed here for this account and list. */
export async function openPosition(list: CursorScope, cursor: string | undefined): Promise<string | null> {
  if (cursor === undefined) return null;
  const position = openCursorFor(await cursorSealingKey.get(), cursor, fingerprint(list));
  if (position === null) {
    throw badRequest('The cursor is not valid for this list: pass the cursor a previous page of the same list returned', [
      { path: list.path, message: 'not a cursor of this list' },
    ]);
  }
  return position;
}

export async function sealPosition(list: CursorScope, position: string): Promise<string> {
  return sealCursor(await cursorSealingKey.get(), { ...fingerprint(list), position });
}

export interface Page<T> {
  items: T[];
  /** Present while more items exist: where the next page starts. */
  cursor?: string;
}

/**
 * One page of `size` items: after the caller's cursor, or after skipping `skip` items
 * from the start (offset paging reads the skipped items too).
 */
export async function cursorPage<T>(source: IndexSource<T>, list: CursorScope, options: { cursor?: string; size: number; skip?: number }): Promise<Page<T>> {
  let start = await openPosition(list, options.cursor);
  if (options.skip) {
    const skipped = await walkIndex(source, { start, limit: options.skip, chunk: SKIP_CHUNK });
    if (!skipped.more) return { items: [] };
    if (skipped.taken < options.skip) {
      // A filter matched too sparsely to count off the skipped items within one request's reads.
      throw badRequest('This page lies further into the filtered list than one request reads; page through it with the cursor instead', [
        // `$page` sits beside the cursor in the same argument.
        {
          path: `${list.path.slice(0, list.path.lastIndexOf('.'))}.$page`,
          message: `the first ${options.skip} matching items could not be counted off in one request`,
        },
      ]);
    }
    start = skipped.next;
  }
  const items: T[] = [];
  const walked = await walkIndex(source, {
    start,
    limit: options.size,
    chunk: options.size,
    visit: (read) => {
      items.push(...read);
      return read.length;
    },
  });
  return walked.more && walked.next !== null ? { items, cursor: await sealPosition(list, walked.next) } : { items };
}
