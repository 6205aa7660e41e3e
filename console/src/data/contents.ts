/** Content items: their query keys and reads, and the rankings of items (contents/top). */
import { useQueries, useQuery } from '@tanstack/react-query';
import type { SchemaName, TopPeriod } from '@feedback-service/client';
import { useSession } from '../session';

/** Whose items a ranking ranks: a project's or a set's. */
export type TopScope = { projectId: string } | { contentSetId: string };

export const contentKeys = {
  all: ['contents'] as const,
  details: () => [...contentKeys.all, 'detail'] as const,
  detail: (id: string | undefined) => [...contentKeys.details(), id] as const,
  tops: () => [...contentKeys.all, 'top'] as const,
  top: (scope: TopScope, period: TopPeriod | 'none') => [...contentKeys.tops(), scope, period] as const,
  /** A project's items of one schema ranked worst first over the last 7 days. */
  worst: (projectId: string, schema: SchemaName) => [...contentKeys.tops(), { projectId }, 'rolling7d', 'worst', schema] as const,
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

/** Pages ranked by quality leave out those with fewer responses in the period (the API's default, the digest's too). */
export const WORST_MIN_COUNT = 10;

/**
 * A project's five worst items of each scored schema over the last 7 days, ending today
 * (contents/top, `$sort: "worst"`, one call per schema): by the high end of each score's 95%
 * interval, at most about a minute behind the counts, read again like the page's other
 * statistics.
 */
export function useWorstItems(projectId: string, schemas: readonly SchemaName[]) {
  const { client } = useSession();
  return useQueries({
    queries: schemas.map((schema) => ({
      queryKey: contentKeys.worst(projectId, schema),
      queryFn: () => client.contents.top({ projectId, schema, period: 'rolling7d', $sort: 'worst', $minCount: WORST_MIN_COUNT, $size: 5 }),
    })),
  });
}
