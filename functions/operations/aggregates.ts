/**
 * Read side of the aggregates: getStats, responses/getAggregates and the top queries.
 *
 * Everything here reads the counter items the stream consumer keeps (store/aggregates.ts),
 * never the responses, so the DynamoDB calls of every operation are a fixed number that
 * does not grow with the number of responses:
 *
 * | operation                      | calls                                                                |
 * |--------------------------------|----------------------------------------------------------------------|
 * | projects/getStats, sets/…      | 1 GetItem (the entity) + 1 Query (the period's point buckets)       |
 * | contents/getStats              | 2 GetItem (item, then its set for the schema) + 1 Query             |
 * | responses/getAggregates id     | 2 GetItem (item, set) + 1 Query                                      |
 * | responses/getAggregates key    | 1 BatchGetItem (set, key, alias) + 1 Query (none for a new key)     |
 * | sets/top, contents/top         | ≤1 GetItem (scope check) + 1 Query (rank index) + 1–2 BatchGetItem  |
 * |                                | (entities, their sets) + 1 Query per entry ($size at most)          |
 *
 * A period is always read as its data points (hour/day/month/year buckets) in ONE key
 * range Query; lifetime reads the year buckets from year 0000 up to the reference year,
 * which also tells the first year without a separate query.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '../api/auth';
import { DEFAULT_STAT_PERIOD, type ContentSetTopQueryModel, type ContentTopQueryModel, type StatsFilter } from '../api/aggregate-models';
import { ApiError, badRequest, notFound } from '../api/errors';
import { buildAggregation, buildProjectAggregation, summaryOf, type ResponseAggregation } from '../domain/aggregation';
import { bucketKey, resolvePeriod, type ResolvedPeriod, type StatPeriod, type TopPeriod } from '../domain/periods';
import { optionLabels, type AnySchemaConfig, type Schema } from '../domain/schemas';
import { counterFromItem, readBuckets, type AggregateEntity } from '../store/aggregates';
import { getRawItems, type ItemKey } from '../store/batch';
import type { ContentItemItem, ContentSetItem, ProjectItem, Store } from '../store/entities';
import { resolveContentKey } from './content-keys';
import { loadContentItem } from './contents';
import { loadProject } from './projects';
import { loadContentSet } from './sets';
import { contentItemView, contentSetView, type ContentItemView, type ContentSetView } from './views';

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
  optionCount: number;
}

function shapeOf(contentSet: ContentSetItem): SetShape {
  const schema = contentSet.schema as Schema;
  return { schema, optionCount: optionLabels(schema, contentSet.schemaConfig as AnySchemaConfig).length };
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

export function contentItemSubject(item: Pick<ContentItemItem, 'id'>, contentSet: ContentSetItem): AggregateSubject {
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

const FIRST_YEAR = 0;
const LAST_YEAR = 9999;
/** First bucket key of year FIRST_YEAR; lifetime reads the year buckets from here. */
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

/** The resolved period and its point buckets, read in one Query. */
async function readPeriod(store: Store, subject: AggregateSubject, request: PeriodRequest) {
  if (request.period === 'lifetime') {
    // Validates the reference first (and gives its year) before anything is read.
    const referenceYear = resolveChecked(request).points.at(-1)!;
    const buckets = await readBuckets(store, subject.entity, subject.entityId, 'year', FIRST_YEAR_KEY, referenceYear);
    const years = [...buckets.keys()].map(Number).filter(Number.isInteger);
    const resolved = resolveChecked(request, years.length > 0 ? Math.min(...years) : undefined);
    return { resolved, buckets };
  }
  const resolved = resolveChecked(request);
  const buckets = await readBuckets(store, subject.entity, subject.entityId, resolved.pointGranularity, resolved.points[0], resolved.points.at(-1)!);
  return { resolved, buckets };
}

/** AggregatedData of a subject from its resolved period and the bucket items read for it. */
export function aggregatedData(subject: AggregateSubject, resolved: ResolvedPeriod, buckets: Map<string, Record<string, unknown>>): AggregatedData {
  const optionCount = subject.shape?.optionCount ?? 1;
  const points = resolved.points.map((key) => counterFromItem(buckets.get(key), optionCount));
  const data = subject.shape
    ? buildAggregation(subject.shape.schema, optionCount, resolved.period, points)
    : buildProjectAggregation(resolved.period, points);
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

export async function subjectStats(store: Store, subject: AggregateSubject, request: PeriodRequest): Promise<AggregatedData> {
  const { resolved, buckets } = await readPeriod(store, subject, request);
  return aggregatedData(subject, resolved, buckets);
}

/* getStats */

export async function projectStats(store: Store, accountId: string, projectId: string, filter: StatsFilter | null | undefined, now: Date) {
  const request = periodRequest(filter, now);
  resolveChecked(request); // a bad reference or shift is refused before anything is read
  return subjectStats(store, projectSubject(await loadProject(store, accountId, projectId)), request);
}

export async function contentSetStats(store: Store, accountId: string, contentSetId: string, filter: StatsFilter | null | undefined, now: Date) {
  const request = periodRequest(filter, now);
  resolveChecked(request);
  return subjectStats(store, contentSetSubject(await loadContentSet(store, accountId, contentSetId)), request);
}

export async function contentItemStats(store: Store, accountId: string, contentId: string, filter: StatsFilter | null | undefined, now: Date) {
  const request = periodRequest(filter, now);
  resolveChecked(request);
  const item = await loadContentItem(store, accountId, contentId);
  const contentSet = await loadContentSet(store, accountId, item.contentSetId);
  return subjectStats(store, contentItemSubject(item, contentSet), request);
}

/* responses/getAggregates */

const keyOf = (request: { params(): { Key?: Record<string, unknown> } }) => request.params().Key as ItemKey;

/**
 * Who may read a set's aggregates: keyed callers of its account always; anonymous callers
 * (the widgets) only when the set makes them public. Another account's set does not exist.
 */
function checkAggregatesAccess(caller: Caller, contentSet: ContentSetItem | null, what: string, id: string): ContentSetItem {
  if (!contentSet || (caller.level !== 'anonymous' && caller.accountId !== contentSet.accountId)) throw notFound(what, id);
  if (caller.level === 'anonymous' && !contentSet.publicAggregates) {
    throw new ApiError(
      'unauthorized',
      'The aggregates of this content set are not public: call with an API key of its account, or save the set with publicAggregates: true',
      { contentSetId: contentSet.id },
    );
  }
  return contentSet;
}

export type AggregatesTarget = string | { contentSetId: string; key: string };

/**
 * `data.values` of a content item's period (default lifetime): one number per option of
 * its set, in option order. A key that has no item yet (nobody answered on that page)
 * is all zeros, not an error.
 */
export async function targetAggregates(
  store: Store,
  caller: Caller,
  target: AggregatesTarget,
  period: StatPeriod | null | undefined,
  now: Date,
): Promise<number[]> {
  const request: PeriodRequest = { period: period ?? DEFAULT_STAT_PERIOD, now };
  const { ContentSet, ContentItem } = store.entities;
  if (typeof target === 'string') {
    const { data: item } = await ContentItem.get({ id: target }).go({ consistent: true });
    if (!item || (caller.level !== 'anonymous' && caller.accountId !== item.accountId)) throw notFound('Content item', target);
    const { data: setData } = await ContentSet.get({ id: item.contentSetId }).go({ consistent: true });
    const contentSet = checkAggregatesAccess(caller, setData, 'Content item', target);
    return (await subjectStats(store, contentItemSubject(item, contentSet), request)).data.values;
  }
  const { contentSetId, key } = target;
  // One BatchGetItem: the set, the exact key, and the alias of a widget's decoded key.
  const { setRaw, contentItemId: itemId } = await resolveContentKey(store, contentSetId, key);
  const setData = setRaw ? (ContentSet.parse({ Item: setRaw }).data as ContentSetItem) : null;
  const contentSet = checkAggregatesAccess(caller, setData, 'Content set', contentSetId);
  const subject = contentItemSubject({ id: itemId ?? '' }, contentSet);
  if (!itemId) return new Array<number>(subject.shape!.optionCount).fill(0);
  return (await subjectStats(store, subject, request)).data.values;
}

/* top */

type RankIndex = 'rank1' | 'rank2' | 'rank3';

/** Rank partition suffix of a period: calendar periods rank their current bucket, rolling ones their window item. */
export function rankPeriod(period: TopPeriod, now: Date): string {
  return period === 'week' || period === 'month' || period === 'year' ? `${period}#${bucketKey(period, now)}` : period;
}

/** The counter items of one rank partition with a positive count, highest first: one Query. */
async function rankQuery(store: Store, index: RankIndex, partition: string, size: number): Promise<Record<string, unknown>[]> {
  const page = await store.documentClient.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: index,
      KeyConditionExpression: '#pk = :pk AND #count > :zero',
      ExpressionAttributeNames: { '#pk': `${index}pk`, '#count': 'count' },
      ExpressionAttributeValues: { ':pk': partition, ':zero': 0 },
      ScanIndexForward: false,
      Limit: size,
    }),
  );
  return page.Items ?? [];
}

/** BatchGetItem takes at most 100 keys; a top page with its sets can need up to 200. */
const BATCH_GET_LIMIT = 100;

async function getRawItemsChunked(store: Store, keys: ItemKey[]) {
  const chunks: ItemKey[][] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) chunks.push(keys.slice(start, start + BATCH_GET_LIMIT));
  return (await Promise.all(chunks.map((chunk) => getRawItems(store, chunk)))).flat();
}

/** Stats of each ranked subject for the period (calendar: the current one; rolling: the window ending today). */
async function withStats<View>(store: Store, entries: { view: View; subject: AggregateSubject }[], period: TopPeriod, now: Date) {
  const request: PeriodRequest = { period, now };
  return Promise.all(entries.map(async ({ view, subject }) => ({ ...view, stats: await subjectStats(store, subject, request) })));
}

export async function topContentSets(store: Store, accountId: string, query: ContentSetTopQueryModel, now: Date) {
  const period = rankPeriod(query.period, now);
  let ranked: Record<string, unknown>[];
  if (query.projectId) {
    await loadProject(store, accountId, query.projectId);
    ranked = await rankQuery(store, 'rank2', `project#${query.projectId}#contentSet#${period}`, query.$size);
  } else {
    ranked = await rankQuery(store, 'rank3', `account#${accountId}#contentSet#${period}`, query.$size);
  }
  const { ContentSet } = store.entities;
  const ids = ranked.map((item) => String(item.entityId));
  const raws = await getRawItemsChunked(store, ids.map((id) => keyOf(ContentSet.get({ id }))));
  const entries: { view: ContentSetView; subject: AggregateSubject }[] = [];
  for (const raw of raws) {
    const contentSet = raw ? (ContentSet.parse({ Item: raw }).data as ContentSetItem) : null;
    if (!contentSet || contentSet.accountId !== accountId) continue;
    entries.push({ view: contentSetView(contentSet), subject: contentSetSubject(contentSet) });
  }
  return withStats(store, entries, query.period, now);
}

export async function topContentItems(store: Store, accountId: string, query: ContentTopQueryModel, now: Date) {
  const period = rankPeriod(query.period, now);
  const knownSets = new Map<string, ContentSetItem>();
  let ranked: Record<string, unknown>[];
  if (query.contentSetId) {
    const contentSet = await loadContentSet(store, accountId, query.contentSetId);
    // Both filters apply: a set of another project has no items in this one.
    if (query.projectId && query.projectId !== contentSet.projectId) return [];
    knownSets.set(contentSet.id, contentSet);
    ranked = await rankQuery(store, 'rank1', `set#${contentSet.id}#contentItem#${period}`, query.$size);
  } else if (query.projectId) {
    await loadProject(store, accountId, query.projectId);
    ranked = await rankQuery(store, 'rank2', `project#${query.projectId}#contentItem#${period}`, query.$size);
  } else {
    ranked = await rankQuery(store, 'rank3', `account#${accountId}#contentItem#${period}`, query.$size);
  }
  const { ContentItem, ContentSet } = store.entities;
  const itemIds = ranked.map((item) => String(item.entityId));
  const setIds = [...new Set(ranked.map((item) => String(item.contentSetId)))].filter((id) => !knownSets.has(id));
  const raws = await getRawItemsChunked(store, [
    ...itemIds.map((id) => keyOf(ContentItem.get({ id }))),
    ...setIds.map((id) => keyOf(ContentSet.get({ id }))),
  ]);
  raws.slice(itemIds.length).forEach((raw) => {
    const contentSet = raw ? (ContentSet.parse({ Item: raw }).data as ContentSetItem) : null;
    if (contentSet) knownSets.set(contentSet.id, contentSet);
  });
  const entries: { view: ContentItemView; subject: AggregateSubject }[] = [];
  for (const raw of raws.slice(0, itemIds.length)) {
    const item = raw ? (ContentItem.parse({ Item: raw }).data as ContentItemItem) : null;
    const contentSet = item ? knownSets.get(item.contentSetId) : undefined;
    if (!item || !contentSet || item.accountId !== accountId) continue;
    entries.push({ view: contentItemView(item), subject: contentItemSubject(item, contentSet) });
  }
  return withStats(store, entries, query.period, now);
}
