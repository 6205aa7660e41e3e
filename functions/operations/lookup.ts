import { LOOKUP_LIMIT } from '../api/models';
import { ID_PATTERN } from '../domain/text';

/** One page of an ElectroDB query over an index, sorted by the looked-up text. */
export type PrefixQuery<T> = (cursor: string | null) => Promise<{ data: T[]; cursor: string | null }>;

const PAGE_SIZE = 100;
/** Bounds the work of one lookup whatever the filters reject; narrowing the text finds the rest. */
export const MAX_EXAMINED_PER_INDEX = 1000;

/**
 * Case-insensitive prefix lookup over one or more indexes (e.g. name and key), plus an
 * exact id match. Filters apply in memory while reading pages in index order, stopping
 * once `LOOKUP_LIMIT` results are found.
 */
export async function prefixLookup<T extends { id: string }>(options: {
  text: string;
  byId: (id: string) => Promise<T | null>;
  indexes: PrefixQuery<T>[];
  matches: (item: T) => boolean;
}): Promise<T[]> {
  const found = new Map<string, T>();
  if (ID_PATTERN.test(options.text)) {
    const exact = await options.byId(options.text);
    if (exact && options.matches(exact)) found.set(exact.id, exact);
  }
  for (const query of options.indexes) {
    let cursor: string | null = null;
    let examined = 0;
    do {
      const page = await query(cursor);
      for (const item of page.data) {
        if (found.size >= LOOKUP_LIMIT) break;
        if (!found.has(item.id) && options.matches(item)) found.set(item.id, item);
      }
      examined += page.data.length;
      cursor = page.cursor;
    } while (cursor && found.size < LOOKUP_LIMIT && examined < MAX_EXAMINED_PER_INDEX);
    if (found.size >= LOOKUP_LIMIT) break;
  }
  return [...found.values()];
}

export const LOOKUP_PAGE = { limit: PAGE_SIZE } as const;

export function stateMatches(filter: string, state: string): boolean {
  return filter === 'all' || filter === state;
}
