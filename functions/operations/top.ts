/**
 * sets/top and contents/top: the entities with the most responses in a period (`$sort`
 * count), or with the best or worst score (`$sort` best, worst: by the bounds of its 95%
 * interval, among those with at least `$minCount` responses), each with its stats (and its
 * score), from the materialised top lists (store/top-lists.ts) the ranker keeps within
 * about a minute of the counters (functions/jobs/ranker.ts). The order is as fresh as the
 * ranker's last run; each entry's stats and score are read live.
 *
 * DynamoDB requests: a set's top reads its list (1 Query of its parts); a project's or an account's,
 * its lists (1 Query per MB of lists: one list per set); then the ranked entities (1-2
 * BatchGetItem) and their stats (1 Query per entry, `$size` at most). None of it depends
 * on the number of content items.
 */
import type { ContentSetTopQueryModel, ContentTopQueryModel } from '../api/aggregate-models';
import { badRequest } from '../api/errors';
import { sumCounters } from '../domain/aggregation';
import { rankItems, rankItemsByScore, rankSets, rankSetsByScore, type RankedEntry } from '../domain/ranking';
import { hasScore, scoreSample, type Schema } from '../domain/schemas';
import { scoreInterval, type ScoreInterval } from '../domain/statistics';
import { getRawItemsChunked, keyOf } from '../store/batch';
import type { ContentItemItem, ContentSetItem, Store } from '../store/entities';
import { readTopList, readTopLists, type StoredTopList } from '../store/top-lists';
import { loadContentSet } from './sets';
import { loadProject } from './projects';
import { aggregatedData, contentItemSubject, contentSetSubject, pointCounters, readPeriod, type AggregateSubject, type PeriodRequest } from './stats';
import { contentItemView, contentSetView, type ContentItemView, type ContentSetView } from './views';

/**
 * Stats of each ranked subject for the period (calendar: the current one; rolling: the window
 * ending today), and sorted by quality its score, from the same counters (no read more).
 */
async function withStats<View>(store: Store, entries: { view: View; subject: AggregateSubject }[], query: TopQuery, now: Date) {
  const request: PeriodRequest = { period: query.period, now };
  return Promise.all(
    entries.map(async ({ view, subject }) => {
      const { resolved, buckets } = await readPeriod(store, subject, request);
      const stats = aggregatedData(subject, resolved, buckets);
      if (query.$sort === 'count' || !subject.shape) return { ...view, stats };
      const total = sumCounters(pointCounters(subject, resolved, buckets), subject.shape.optionCount);
      const sample = scoreSample(subject.shape.schema, subject.shape.config, total);
      const score: ScoreInterval | null = sample ? scoreInterval(sample) : null;
      return { ...view, stats, ...(score ? { score } : {}) };
    }),
  );
}

type TopQuery = ContentSetTopQueryModel | ContentTopQueryModel;

const ranked = (lists: StoredTopList[]) => lists.map(({ scope, list }) => ({ contentSetId: scope.contentSetId, list }));

/** A schema without a score cannot be sorted by quality: bad-request naming `$sort`. */
function checkScored(schema: Schema) {
  if (!hasScore(schema)) {
    throw badRequest(`A ${schema} content set has no score to sort by: use $sort "count"`, [
      { path: 'args.0.$sort', message: `best and worst need a schema with a score; ${schema} has none` },
    ]);
  }
}

/**
 * The lists a project's or an account's top ranks: with a `schema` filter, those of its sets
 * (a list written before lists named their schema has none, and is left out until the
 * ranker rewrites it). Sorted by quality, a schema with a score is required: scores of
 * different schemas do not compare.
 */
function listsOfSchema(lists: StoredTopList[], query: TopQuery): StoredTopList[] {
  if (query.$sort !== 'count') {
    if (!query.schema) {
      throw badRequest('best and worst rank the sets of one schema: give a schema filter (or a contentSetId)', [
        { path: 'args.0.schema', message: 'is required with $sort best or worst, unless contentSetId is given' },
      ]);
    }
    checkScored(query.schema);
  }
  return query.schema ? lists.filter(({ list }) => list.schema === query.schema) : lists;
}

/** The ranked entries of the lists in the query's order. */
function rankOf(lists: StoredTopList[], query: TopQuery, now: Date, rank: 'sets' | 'items'): RankedEntry[] {
  if (query.$sort === 'count') return (rank === 'sets' ? rankSets : rankItems)(ranked(lists), query.period, now, query.$size);
  const options = { now, minCount: query.$minCount, size: query.$size };
  return (rank === 'sets' ? rankSetsByScore : rankItemsByScore)(ranked(lists), query.period, query.$sort, options);
}

export async function topContentSets(store: Store, accountId: string, query: ContentSetTopQueryModel, now: Date) {
  if (query.projectId) await loadProject(store, accountId, query.projectId);
  const top = rankOf(listsOfSchema(await readTopLists(store, accountId, query.projectId ?? undefined), query), query, now, 'sets');
  const { ContentSet } = store.entities;
  const raws = await getRawItemsChunked(
    store,
    top.map(({ id }) => keyOf(ContentSet.get({ id }))),
  );
  const entries: { view: ContentSetView; subject: AggregateSubject }[] = [];
  for (const raw of raws) {
    const contentSet = raw ? (ContentSet.parse({ Item: raw }).data as ContentSetItem) : null;
    if (!contentSet || contentSet.accountId !== accountId) continue;
    entries.push({ view: contentSetView(contentSet), subject: contentSetSubject(contentSet) });
  }
  return withStats(store, entries, query, now);
}

export async function topContentItems(store: Store, accountId: string, query: ContentTopQueryModel, now: Date) {
  const knownSets = new Map<string, ContentSetItem>();
  let lists: StoredTopList[];
  if (query.contentSetId) {
    const contentSet = await loadContentSet(store, accountId, query.contentSetId);
    if (query.$sort !== 'count') checkScored(contentSet.schema as Schema);
    // Every filter applies: a set of another project (schema) has no items in this one.
    if (query.projectId && query.projectId !== contentSet.projectId) return [];
    if (query.schema && query.schema !== contentSet.schema) return [];
    knownSets.set(contentSet.id, contentSet);
    const list = await readTopList(store, { accountId, projectId: contentSet.projectId, contentSetId: contentSet.id });
    lists = list ? [list] : [];
  } else {
    if (query.projectId) await loadProject(store, accountId, query.projectId);
    lists = listsOfSchema(await readTopLists(store, accountId, query.projectId ?? undefined), query);
  }
  const top = rankOf(lists, query, now, 'items');
  const { ContentItem, ContentSet } = store.entities;
  const itemIds = top.map(({ id }) => id);
  const setIds = [...new Set(top.map(({ contentSetId }) => contentSetId))].filter((id) => !knownSets.has(id));
  const raws = await getRawItemsChunked(store, [...itemIds.map((id) => keyOf(ContentItem.get({ id }))), ...setIds.map((id) => keyOf(ContentSet.get({ id })))]);
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
  return withStats(store, entries, query, now);
}
