/** Statistics of projects, sets and items (getStats): their query keys and reads. */
import { useQuery } from '@tanstack/react-query';
import type { AggregatedData } from '@feedback-service/client';
import { pointTotals } from '../schemas';
import { prefetchChart } from '../components/chart';
import { resolvedOf, type StatPeriod } from '../lib/periods';
import { useSession } from '../session';

export type SubjectKind = 'project' | 'set' | 'item';
export interface Subject {
  kind: SubjectKind;
  id: string;
}

export const statsKeys = {
  all: ['stats'] as const,
  /** One subject's statistics over one period, ending now or at a reference date; with `compared`, also the period before and the change. */
  of: (subject: Subject, period: StatPeriod, reference: string | undefined, compared = false) =>
    [...statsKeys.all, subject.kind, subject.id, period, reference ?? 'now', ...(compared ? (['compared'] as const) : [])] as const,
};

/** The typed client's resource of a subject: its projects, sets or contents operations. */
export function subjectResource(client: ReturnType<typeof useSession>['client'], subject: Subject) {
  switch (subject.kind) {
    case 'project':
      return client.projects;
    case 'set':
      return client.sets;
    case 'item':
      return client.contents;
  }
}

/**
 * A subject's statistics over one period. With `compare`, the answer also holds the period
 * before and the change since (`previous`, `change`), except for lifetime, which has no
 * period before.
 */
export function useStats(subject: Subject, period: StatPeriod, reference?: string, options: { enabled?: boolean; compare?: boolean } = {}) {
  const { client } = useSession();
  prefetchChart();
  const compared = (options.compare ?? false) && period !== 'lifetime';
  return useQuery({
    queryKey: statsKeys.of(subject, period, reference, compared),
    queryFn: () =>
      subjectResource(client, subject).getStats(subject.id, {
        period,
        ...(reference ? { reference } : {}),
        ...(compared ? { compare: 'previous' as const } : {}),
      }),
    enabled: options.enabled ?? true,
  });
}

/** Counts per data point of a period, whatever the schema: every aggregation has its points. */
export interface PointCounts {
  keys: string[];
  granularity: ReturnType<typeof resolvedOf>['pointGranularity'];
  counts: number[];
}

export function pointCounts(stats: AggregatedData): PointCounts {
  const resolved = resolvedOf(stats);
  return { keys: resolved.points, granularity: resolved.pointGranularity, counts: pointTotals(stats.data) };
}
