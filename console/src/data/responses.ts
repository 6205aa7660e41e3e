/** Responses: their query keys, the paged list, the latest few, a person's erasure, and the review of held ones. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FeedbackClient, ResponseQueryModel, ResponseReviewModel } from '@feedback-service/client';
import { useSession } from '../session';
import { byCursor, cursorOf, type Then } from './paging';
import { statsKeys } from './stats';

/** Which responses a list shows: its scope and the filters the API applies. */
export type ResponseQuery = Omit<ResponseQueryModel, '$size' | '$page' | 'cursor'>;

export const responseKeys = {
  all: ['responses'] as const,
  lists: () => [...responseKeys.all, 'list'] as const,
  list: (query: ResponseQuery) => [...responseKeys.lists(), query] as const,
  latest: (setId: string) => [...responseKeys.all, 'latest', setId] as const,
  held: (projectId: string) => [...responseKeys.all, 'held', projectId] as const,
};

/** Responses, newest first, `pageSize` a page, paged on by cursor. */
export function useResponses(query: ResponseQuery, pageSize: number) {
  const { client } = useSession();
  return useInfiniteQuery({
    queryKey: responseKeys.list(query),
    queryFn: ({ pageParam }) => client.responses.list({ ...query, $size: pageSize, ...cursorOf(pageParam) }),
    ...byCursor,
  });
}

/** A set's five newest responses, read again every two seconds (the embed page's live view). */
export function useLatestResponses(setId: string) {
  const { client } = useSession();
  return useQuery({
    queryKey: responseKeys.latest(setId),
    queryFn: () => client.responses.list({ contentSetId: setId, $size: 5 }),
    refetchInterval: 2000,
  });
}

/** Counts a person's responses (every state) by paging through them. */
async function countResponses(client: FeedbackClient, userId: string): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await client.responses.list({ userId, state: 'all', $size: 100, ...cursorOf(cursor) });
    count += page.items.length;
    cursor = page.cursor;
  } while (cursor);
  return count;
}

/** How many responses a person has, before erasing them. */
export function useCountPersonResponses(userId: string, then: Then<number> = {}) {
  const { client } = useSession();
  return useMutation({ mutationFn: () => countResponses(client, userId), onSuccess: then.onSuccess });
}

/** Erases every response of a person, call after call until none remain; returns how many. */
export function useErasePerson(userId: string, then: Then<number> = {}) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      let erased = 0;
      for (;;) {
        const answer = await client.responses.erase({ userId });
        erased += answer.erased;
        if (!answer.more) return erased;
      }
    },
    onSuccess: (erased) => {
      then.onSuccess?.(erased);
      void queryClient.invalidateQueries({ queryKey: responseKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
    },
  });
}

/**
 * Erases what the live preview recorded and took back: the revoked responses of the item
 * keyed by the preview page's address (only the preview answers there), so that nothing of
 * them stays in lists or exports. Needs an admin (`responses/erase`); returns how many.
 */
export function useErasePreviewResponses(setId: string, previewKey: string) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const item = (await client.contents.lookup(previewKey, { contentSetId: setId })).find((entry) => entry.key === previewKey);
      if (!item) return 0;
      let erased = 0;
      // Each round erases the first page of what is left; a few rounds cover any preview's leftovers.
      for (let round = 0; round < 10; round++) {
        const page = await client.responses.list({ contentId: item.id, state: 'revoked', $size: 100 });
        if (page.items.length === 0) break;
        erased += (await client.responses.erase({ responseIds: page.items.map((response) => response.id) })).erased;
      }
      return erased;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: responseKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
    },
  });
}

/** Held responses a project's count reads at most: past it, the count says "100+". */
export const HELD_COUNT_LIMIT = 100;

/** How many held (quarantined) responses wait for review in a project. */
export function useHeldCount(projectId: string | undefined) {
  const { client } = useSession();
  return useQuery({
    queryKey: responseKeys.held(projectId ?? ''),
    queryFn: async () => {
      const page = await client.responses.list({ projectId: projectId!, state: 'quarantined', $size: HELD_COUNT_LIMIT });
      return { count: page.items.length, more: page.hasMore };
    },
    enabled: projectId !== undefined,
  });
}

export type Verdict = 'release' | 'discard';

/** Releases or discards held responses (by id, or all of an item, call after call until none remain); returns how many. */
export function useJudgeResponses(then: Then<number> = {}) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ verdict, selection }: { verdict: Verdict; selection: ResponseReviewModel }) => {
      let changed = 0;
      for (;;) {
        const answer = await client.responses[verdict](selection);
        changed += answer.changed;
        if (!answer.more) return changed;
      }
    },
    onSuccess: (changed) => {
      then.onSuccess?.(changed);
      void queryClient.invalidateQueries({ queryKey: responseKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
    },
  });
}
