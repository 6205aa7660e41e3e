/** Content items: their query keys and reads, and the rankings of items (contents/top). */
import { useQueries, useQuery } from '@tanstack/react-query';
import type { TopPeriod } from '@feedback-service/client';
import { useSession } from '../session';

/** Whose items a ranking ranks: a project's or a set's. */
export type TopScope = { projectId: string } | { contentSetId: string };

export const contentKeys = {
  all: ['contents'] as const,
  details: () => [...contentKeys.all, 'detail'] as const,
  detail: (id: string | undefined) => [...contentKeys.details(), id] as const,
  tops: () => [...contentKeys.all, 'top'] as const,
  top: (scope: TopScope, period: TopPeriod | 'none') => [...contentKeys.tops(), scope, period] as const,
};

export function useContentItem(id: string | undefined) {
  const { client } = useSession();
  return useQuery({ queryKey: contentKeys.detail(id), queryFn: () => client.contents.get(id!), enabled: id !== undefined });
}

/** Several items by id (one read each, cached like `useContentItem`), for labels and links. */
export function useContentItems(ids: string[]) {
  const { client } = useSession();
  return useQueries({ queries: ids.map((id) => ({ queryKey: contentKeys.detail(id), queryFn: () => client.contents.get(id) })) });
}

/** The ten items with the most responses in a ranked (current) period; not asked while `period` is undefined. */
export function useTopItems(scope: TopScope, period: TopPeriod | undefined) {
  const { client } = useSession();
  return useQuery({
    queryKey: contentKeys.top(scope, period ?? 'none'),
    queryFn: () => client.contents.top({ ...scope, period, $size: 10 }),
    enabled: period !== undefined,
  });
}
