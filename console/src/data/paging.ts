/** The one way the console pages through a list: by the cursor each page returns while more remain. */
import type { InfiniteData } from '@tanstack/react-query';

export interface CursorPage<Item> {
  items: Item[];
  /** There while more remain. */
  cursor?: string;
}

/** The paging options of an infinite query over a cursor-paged list. */
export const byCursor = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last: { cursor?: string }) => last.cursor,
};

/** `{ cursor }` for a page after the first, nothing for the first. */
export function cursorOf(pageParam: string | undefined): { cursor?: string } {
  return pageParam ? { cursor: pageParam } : {};
}

/** The rows of every page loaded so far, in order. */
export function loadedItems<Item>(data: InfiniteData<CursorPage<Item>, unknown> | undefined): Item[] {
  return data?.pages.flatMap((page) => page.items) ?? [];
}

/** After a mutation has updated the cache: what the component does next (close, navigate). */
export interface Then<Result> {
  onSuccess?: (result: Result) => void;
}
