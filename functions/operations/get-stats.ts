/**
 * getStats of a project, set or item: the period's stats and, with compare "previous", the
 * period before and the change since. Apart from stats.ts so that the widgets' getAggregates,
 * which reads periods through stats.ts, does not carry the statistics' quantile packages.
 */
import type { StatsFilter } from '../api/aggregate-models';
import type { Counter } from '../domain/aggregation';
import { sumCounters } from '../domain/aggregation';
import { scoreSample } from '../domain/schemas';
import { countChange, scoreChange, type ScoreChange } from '../domain/statistics';
import type { TableClient } from '../store/dynamodb-clients';
import type { Store } from '../store/entities';
import { loadContentItem } from './contents';
import { loadProject } from './projects';
import { loadContentSet } from './sets';
import {
  type AggregatedData,
  type AggregateSubject,
  aggregatedData,
  checkedRequest,
  contentItemSubject,
  contentSetSubject,
  type PeriodRequest,
  pointCounters,
  projectSubject,
  readPeriod,
  subjectStats,
} from './stats';

/** A subject's period: its AggregatedData and the counter of its whole span (what its score is computed from). */
async function subjectPeriod(store: TableClient, subject: AggregateSubject, request: PeriodRequest): Promise<{ data: AggregatedData; total: Counter }> {
  const { resolved, buckets } = await readPeriod(store, subject, request);
  return { data: aggregatedData(subject, resolved, buckets), total: sumCounters(pointCounters(subject, resolved, buckets), subject.shape?.optionCount ?? 1) };
}

/**
 * The change from `previous` to `current`: of the score, for a set's schema that has one
 * (null when either period counted nothing), else of the count alone (projects, pulse, message).
 */
export function changeBetween(
  subject: AggregateSubject,
  current: { data: AggregatedData; total: Counter },
  previous: { data: AggregatedData; total: Counter },
): ScoreChange | null {
  const shape = subject.shape;
  const samples = shape && [scoreSample(shape.schema, shape.config, current.total), scoreSample(shape.schema, shape.config, previous.total)];
  if (!samples?.[0] || !samples[1]) return countChange(current.data.count, previous.data.count);
  return scoreChange(samples[0], samples[1]);
}

/** getStats: the period's stats, and with compare "previous" the period before (one shift earlier) and the change since. */
async function statsOf(store: TableClient, subject: AggregateSubject, request: PeriodRequest, filter: StatsFilter | null | undefined) {
  if (filter?.compare !== 'previous') return subjectStats(store, subject, request);
  const [current, previous] = await Promise.all([
    subjectPeriod(store, subject, request),
    subjectPeriod(store, subject, { ...request, shift: (request.shift ?? 0) - 1 }),
  ]);
  return { ...current.data, previous: previous.data, change: changeBetween(subject, current, previous) };
}

/* getStats */

export async function projectStats(store: Store, accountId: string, projectId: string, filter: StatsFilter | null | undefined, now: Date) {
  const request = checkedRequest(filter, now);
  return statsOf(store, projectSubject(await loadProject(store, accountId, projectId)), request, filter);
}

export async function contentSetStats(store: Store, accountId: string, contentSetId: string, filter: StatsFilter | null | undefined, now: Date) {
  const request = checkedRequest(filter, now);
  return statsOf(store, contentSetSubject(await loadContentSet(store, accountId, contentSetId)), request, filter);
}

export async function contentItemStats(store: Store, accountId: string, contentId: string, filter: StatsFilter | null | undefined, now: Date) {
  const request = checkedRequest(filter, now);
  const item = await loadContentItem(store, accountId, contentId);
  const contentSet = await loadContentSet(store, accountId, item.contentSetId);
  return statsOf(store, contentItemSubject(item, contentSet), request, filter);
}
