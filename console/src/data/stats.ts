/** Statistics of projects, sets and items (getStats): their query keys and reads. */
import { useQueries, useQuery } from '@tanstack/react-query';
import type { AggregatedData } from '@feedback-service/client';
import { pointTotals } from '../schemas';
import { prefetchChart } from '../components/chart';
import { pointPeriod, resolvedOf, type StatPeriod } from '../lib/periods';
import { useSession } from '../session';

export type SubjectKind = 'project' | 'set' | 'item';
export interface Subject {
  kind: SubjectKind;
  id: string;
}

export const statsKeys = {
  all: ['stats'] as const,
  /** One subject's statistics over one period, ending now or at a reference date. */
  of: (subject: Subject, period: StatPeriod, reference: string | undefined) =>
    [...statsKeys.all, subject.kind, subject.id, period, reference ?? 'now'] as const,
};

function statsCall(client: ReturnType<typeof useSession>['client'], subject: Subject) {
  switch (subject.kind) {
    case 'project':
      return client.projects.getStats;
    case 'set':
      return client.sets.getStats;
    case 'item':
      return client.contents.getStats;
  }
}

export function useStats(subject: Subject, period: StatPeriod, reference?: string, options: { enabled?: boolean } = {}) {
  const { client } = useSession();
  prefetchChart();
  return useQuery({
    queryKey: statsKeys.of(subject, period, reference),
    queryFn: () => statsCall(client, subject)(subject.id, { period, ...(reference ? { reference } : {}) }),
    enabled: options.enabled ?? true,
  });
}

/** Counts per data point of a period, whatever the schema. */
export interface PointCounts {
  keys: string[];
  granularity: ReturnType<typeof resolvedOf>['pointGranularity'];
  counts: (number | undefined)[];
  /** Still loading some points, or failed. */
  pending: boolean;
  error?: unknown;
  /** The period's points have no period of their own (hours), so only the total is known. */
  unavailable: boolean;
}

/**
 * The number of responses per data point. Aggregations with points carry them; the pulse
 * shape (projects, pulse and message sets) has only the period's total, so each point is
 * read as a getStats of its own period (a day, a month, a year); cached like any query.
 */
export function usePointCounts(subject: Subject, stats: AggregatedData | undefined): PointCounts | undefined {
  const { client } = useSession();
  const resolved = stats ? resolvedOf(stats) : undefined;
  const direct = stats ? pointTotals(stats.data) : undefined;
  const subPeriod = resolved ? pointPeriod(resolved.pointGranularity) : undefined;
  const needed = stats !== undefined && direct === undefined && subPeriod !== undefined;
  const keys = resolved?.points ?? [];
  const results = useQueries({
    queries: (needed ? keys : []).map((key) => {
      const pointReference = key.length === 4 ? `${key}-01-01` : key.length === 7 ? `${key}-01` : key.slice(0, 10);
      return {
        queryKey: statsKeys.of(subject, subPeriod!, pointReference),
        queryFn: () => statsCall(client, subject)(subject.id, { period: subPeriod!, reference: pointReference }),
      };
    }),
  });
  if (!stats || !resolved) return undefined;
  if (direct) return { keys, granularity: resolved.pointGranularity, counts: direct, pending: false, unavailable: false };
  if (!needed) return { keys, granularity: resolved.pointGranularity, counts: [], pending: false, unavailable: true };
  return {
    keys,
    granularity: resolved.pointGranularity,
    counts: results.map((result) => result.data?.count),
    pending: results.some((result) => result.isPending),
    error: results.find((result) => result.error)?.error ?? undefined,
    unavailable: false,
  };
}
