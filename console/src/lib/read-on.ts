/**
 * Paged lists whose pages can come back short: a state or status filter that the API reads
 * within a budget (docs/api.md, Sparse filters) may answer a page with few or no rows and
 * a cursor, and a filter the console applies to loaded rows (tag, value, text) may match
 * none of a page. A person should not see "0 shown; more below" and have to guess that
 * Load more would help, so the list reads on by itself until a page's worth of rows shows.
 *
 * Bounded: at most READ_ON_CALLS calls per request of the person (opening the list,
 * changing a filter, Load more), so a filter that matches nothing in a long history does
 * not read it all unasked; then the list says so and offers to keep searching.
 */
import { useEffect, useState } from 'react';

export const READ_ON_CALLS = 8;

/** The parts of a TanStack infinite query this reads. */
interface PagedQuery {
  data?: { pages: unknown[] };
  hasNextPage: boolean;
  isFetching: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
}

export interface ReadOn {
  /** Reading further pages by itself, since fewer rows show than were asked for. */
  searching: boolean;
  /** Stopped after READ_ON_CALLS calls short of a page's worth; `more` goes on. */
  paused: boolean;
  /** Pages read so far. */
  pages: number;
  /** A page's worth of rows more (Load more, Keep searching). */
  more: () => void;
}

interface Asked {
  /** The filters the request was made under: new filters are a new request. */
  filterKey: string;
  rows: number;
  untilPages: number;
}

export function useReadOn(query: PagedQuery, shownRows: number, pageSize: number, filterKey: string): ReadOn {
  const pages = query.data?.pages.length ?? 0;
  const fresh = (rows: number): Asked => ({ filterKey, rows, untilPages: Math.max(pages, 1) + READ_ON_CALLS });
  const [stored, setAsked] = useState<Asked>(() => fresh(pageSize));
  // New filters restart the count here, in render, so no effect below sees the old request.
  const asked = stored.filterKey === filterKey ? stored : fresh(pageSize);
  if (asked !== stored) setAsked(asked);

  const short = query.data !== undefined && query.hasNextPage && !query.error && shownRows < asked.rows;
  const searching = short && pages < asked.untilPages;
  const { isFetching, fetchNextPage } = query;
  useEffect(() => {
    if (searching && !isFetching) void fetchNextPage();
  }, [searching, isFetching, fetchNextPage]);

  return {
    searching,
    paused: short && !searching,
    pages,
    more: () => setAsked({ filterKey, rows: shownRows + pageSize, untilPages: pages + READ_ON_CALLS }),
  };
}
