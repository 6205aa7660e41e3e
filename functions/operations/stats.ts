/**
 * Statistics of a project, set or item over a period (getStats), the base of the widget counts
 * and rankings (operations/widget-counts.ts, operations/top.ts).
 *
 * Everything here reads the counter items the stream consumer keeps (store/counters.ts),
 * never the responses, so the DynamoDB calls of every operation are a fixed number that
 * does not grow with the number of responses:
 *
 * | operation                      | calls                                                                |
 * |--------------------------------|----------------------------------------------------------------------|
 * | projects/getStats, sets/…      | 1 GetItem (the entity) + 1 Query (the items holding the points)     |
 * | contents/getStats              | 2 GetItem (item, then its set for the schema) + 1 Query             |
 * | responses/getAggregates id     | 1 BatchGetItem (item, set) + 1 Query; an id issued before ids named their set: 2 GetItem + 1 Query |
 * | responses/getAggregates key    | 1 BatchGetItem (set, key, alias) + 1 Query (none for a new key)     |
 * | sets/top, contents/top         | 1 Query (the top lists, per MB) + 1–2 BatchGetItem (entities, their |
 * |                                | sets) + 1 Query per entry ($size at most); see operations/top.ts    |
 * | getStats with compare previous | 1 Query more (the period before), read in parallel                  |
 *
 * A period is always read in ONE key range Query: hour points from one day item, day points
 * from 7-31 day items, month points from one or two year items, year points (lifetime) from
 * the year items from 0000 up to the reference year, which also tells the first year
 * without a separate query. The Query's read units are what those items weigh: a month of
 * day items of ~0.7 KB is about 22 KB, 3 RRU eventually consistent.
 */
import { DEFAULT_STAT_PERIOD, type StatsFilter } from '../api/aggregate-models';
import { badRequest } from '../api/errors';
import { summaryOf, type Counter, type ResponseAggregation } from '../domain/aggregation';
import { resolvePeriod, type ResolvedPeriod, type StatPeriod } from '../../shared/periods';
import { buildAggregation, buildProjectAggregation, optionLabels, type AnySchemaConfig, type Schema } from '../domain/schemas';
import { counterFromPoint, pointItemRange, pointRecords, readCounterItems, yearSk, type AggregateEntity, type PointRecord } from '../store/counters';
import type { TableClient } from '../store/dynamodb-clients';
import type { ContentItemItem, ContentSetItem, ProjectItem } from '../store/entities';

/** SPEC part 2, AggregatedData. Dates are ISO 8601 strings, like every Date of the API. */
export interface AggregatedData {
  /** `<entity>:<entityId>:<period>:<first day of the period, YYYY-MM-DD>`: names one entity's period. */
  id: string;
  accountId: string;
  projectId: string;
  /** Present for content sets and content items. */
  contentSetId?: string;
  /** Earliest creation of the counter items read (referenceDate when there are none). */
  createdAt: string;
  /** Latest update of the counter items read (referenceDate when there are none). */
  updatedAt: string;
  entity: AggregateEntity;
  entityId: string;
  period: StatPeriod;
  /** Start of the period (inclusive). */
  referenceDate: string;
  data: ResponseAggregation;
  /** Responses counted in the period. */
  count: number;
  /** data.summary, for the schemas that have one. */
  summary?: number;
}

/** What an aggregate is computed for. `shape` is the set's schema; projects have none (pulse shape). */
export interface AggregateSubject {
  entity: AggregateEntity;
  entityId: string;
  accountId: string;
  projectId: string;
  contentSetId?: string;
  shape?: SetShape;
}

interface SetShape {
  schema: Schema;
  config: AnySchemaConfig;
  optionCount: number;
}

function shapeOf(contentSet: Pick<ContentSetItem, 'schema' | 'schemaConfig'>): SetShape {
  const schema = contentSet.schema as Schema;
  const config = contentSet.schemaConfig as AnySchemaConfig;
  return { schema, config, optionCount: optionLabels(schema, config).length };
}

export function projectSubject(project: ProjectItem): AggregateSubject {
  return { entity: 'project', entityId: project.id, accountId: project.accountId, projectId: project.id };
}

export function contentSetSubject(contentSet: ContentSetItem): AggregateSubject {
  return {
    entity: 'contentSet',
    entityId: contentSet.id,
    accountId: contentSet.accountId,
    projectId: contentSet.projectId,
    contentSetId: contentSet.id,
    shape: shapeOf(contentSet),
  };
}

export function contentItemSubject(
  item: Pick<ContentItemItem, 'id'>,
  contentSet: Pick<ContentSetItem, 'id' | 'accountId' | 'projectId' | 'schema' | 'schemaConfig'>,
): AggregateSubject {
  return {
    entity: 'contentItem',
    entityId: item.id,
    accountId: contentSet.accountId,
    projectId: contentSet.projectId,
    contentSetId: contentSet.id,
    shape: shapeOf(contentSet),
  };
}

/** A period as the caller asked for it; `reference` is already a valid Date. */
export interface PeriodRequest {
  period: StatPeriod;
  reference?: Date;
  shift?: number;
  now: Date;
}

export function periodRequest(filter: StatsFilter | null | undefined, now: Date): PeriodRequest {
  return {
    period: filter?.period ?? DEFAULT_STAT_PERIOD,
    reference: filter?.reference === undefined ? undefined : new Date(filter.reference),
    shift: filter?.shift,
    now,
  };
}

/** The request of getStats' filter, checked: a bad reference or shift, or lifetime compared, is refused before anything is read. */
export function checkedRequest(filter: StatsFilter | null | undefined, now: Date): PeriodRequest {
  const request = periodRequest(filter, now);
  resolveChecked(request);
  if (filter?.compare === 'previous' && request.period === 'lifetime') {
    // Lifetime is the one period from the first response on: there is no lifetime before it.
    throw badRequest('lifetime has no previous period to compare with', [
      { path: 'args.1.compare', message: 'compare "previous" needs a period other than lifetime' },
    ]);
  }
  if (filter?.compare === 'previous') resolveChecked({ ...request, shift: (request.shift ?? 0) - 1 });
  return request;
}

const FIRST_YEAR = 0;
const LAST_YEAR = 9999;
/** Key of year FIRST_YEAR; lifetime reads the year items from here. */
const FIRST_YEAR_KEY = '0000';

/** resolvePeriod, with its RangeErrors and periods beyond what bucket keys can write as bad-request. */
function resolveChecked(request: PeriodRequest, firstBucketYear?: number): ResolvedPeriod {
  let resolved: ResolvedPeriod;
  try {
    resolved = resolvePeriod(request.period, { reference: request.reference, shift: request.shift, firstBucketYear, now: request.now });
  } catch (error) {
    if (error instanceof RangeError) throw badRequest(`Invalid period: ${error.message}`, [{ path: 'args.1', message: error.message }]);
    throw error;
  }
  const lastInstant = new Date(resolved.end.getTime() - 1);
  if (resolved.start.getUTCFullYear() < FIRST_YEAR || lastInstant.getUTCFullYear() > LAST_YEAR) {
    throw badRequest('The period is outside the years 0000 to 9999', [
      { path: 'args.1', message: `reference and shift must name a period within the years ${FIRST_YEAR} to ${LAST_YEAR}` },
    ]);
  }
  return resolved;
}

/** The resolved period and its data points, read in one Query. */
export async function readPeriod(store: TableClient, subject: AggregateSubject, request: PeriodRequest) {
  if (request.period === 'lifetime') {
    // Validates the reference first (and gives its year) before anything is read.
    const referenceYear = resolveChecked(request).points.at(-1)!;
    const items = await readCounterItems(store, subject.entity, subject.entityId, { from: yearSk(FIRST_YEAR_KEY), to: yearSk(referenceYear) });
    const buckets = pointRecords(items, 'year');
    const years = [...buckets.keys()].map(Number).filter(Number.isInteger);
    const resolved = resolveChecked(request, years.length > 0 ? Math.min(...years) : undefined);
    return { resolved, buckets };
  }
  const resolved = resolveChecked(request);
  const granularity = resolved.pointGranularity;
  const items = await readCounterItems(store, subject.entity, subject.entityId, pointItemRange(granularity, resolved.points[0], resolved.points.at(-1)!));
  return { resolved, buckets: pointRecords(items, granularity) };
}

/** The counters of a period's data points, oldest first. */
export function pointCounters(subject: AggregateSubject, resolved: ResolvedPeriod, buckets: Map<string, PointRecord>): Counter[] {
  const optionCount = subject.shape?.optionCount ?? 1;
  return resolved.points.map((key) => counterFromPoint(buckets.get(key), optionCount));
}

/** AggregatedData of a subject from its resolved period and the bucket items read for it. */
export function aggregatedData(subject: AggregateSubject, resolved: ResolvedPeriod, buckets: Map<string, PointRecord>): AggregatedData {
  const optionCount = subject.shape?.optionCount ?? 1;
  const points = pointCounters(subject, resolved, buckets);
  const data = subject.shape ? buildAggregation(subject.shape.schema, optionCount, resolved.period, points) : buildProjectAggregation(resolved.period, points);
  const referenceDate = resolved.start.toISOString();
  let createdAt: string | undefined;
  let updatedAt: string | undefined;
  for (const key of resolved.points) {
    const item = buckets.get(key);
    if (!item) continue;
    if (typeof item.createdAt === 'string' && (createdAt === undefined || item.createdAt < createdAt)) createdAt = item.createdAt;
    if (typeof item.updatedAt === 'string' && (updatedAt === undefined || item.updatedAt > updatedAt)) updatedAt = item.updatedAt;
  }
  const summary = summaryOf(data);
  return {
    id: `${subject.entity}:${subject.entityId}:${resolved.period}:${referenceDate.slice(0, 10)}`,
    accountId: subject.accountId,
    projectId: subject.projectId,
    ...(subject.contentSetId === undefined ? {} : { contentSetId: subject.contentSetId }),
    createdAt: createdAt ?? referenceDate,
    updatedAt: updatedAt ?? referenceDate,
    entity: subject.entity,
    entityId: subject.entityId,
    period: resolved.period,
    referenceDate,
    data,
    count: data.count,
    ...(summary === undefined ? {} : { summary }),
  };
}

export async function subjectStats(store: TableClient, subject: AggregateSubject, request: PeriodRequest): Promise<AggregatedData> {
  const { resolved, buckets } = await readPeriod(store, subject, request);
  return aggregatedData(subject, resolved, buckets);
}
