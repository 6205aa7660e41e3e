/** sets/top and contents/top: the entities with the most responses in a period, each with its stats. */
import type { ContentSetTopQueryModel, ContentTopQueryModel } from '../api/aggregate-models';
import { rankSuffix, type TopPeriod } from '../../shared/periods';
import { rankPartition, readRanked } from '../store/counters';
import { getRawItemsChunked, keyOf } from '../store/batch';
import type { ContentItemItem, ContentSetItem, Store } from '../store/entities';
import { loadContentSet } from './sets';
import { loadProject } from './projects';
import { contentItemSubject, contentSetSubject, subjectStats, type AggregateSubject, type PeriodRequest } from './stats';
import { contentItemView, contentSetView, type ContentItemView, type ContentSetView } from './views';

/** Stats of each ranked subject for the period (calendar: the current one; rolling: the window ending today). */
async function withStats<View>(store: Store, entries: { view: View; subject: AggregateSubject }[], period: TopPeriod, now: Date) {
  const request: PeriodRequest = { period, now };
  return Promise.all(entries.map(async ({ view, subject }) => ({ ...view, stats: await subjectStats(store, subject, request) })));
}

export async function topContentSets(store: Store, accountId: string, query: ContentSetTopQueryModel, now: Date) {
  const period = rankSuffix(query.period, now);
  let ranked: Record<string, unknown>[];
  if (query.projectId) {
    await loadProject(store, accountId, query.projectId);
    ranked = await readRanked(store, 'rank2', rankPartition('rank2', query.projectId, 'contentSet', period), query.$size);
  } else {
    ranked = await readRanked(store, 'rank3', rankPartition('rank3', accountId, 'contentSet', period), query.$size);
  }
  const { ContentSet } = store.entities;
  const ids = ranked.map((item) => String(item.entityId));
  const raws = await getRawItemsChunked(
    store,
    ids.map((id) => keyOf(ContentSet.get({ id }))),
  );
  const entries: { view: ContentSetView; subject: AggregateSubject }[] = [];
  for (const raw of raws) {
    const contentSet = raw ? (ContentSet.parse({ Item: raw }).data as ContentSetItem) : null;
    if (!contentSet || contentSet.accountId !== accountId) continue;
    entries.push({ view: contentSetView(contentSet), subject: contentSetSubject(contentSet) });
  }
  return withStats(store, entries, query.period, now);
}

export async function topContentItems(store: Store, accountId: string, query: ContentTopQueryModel, now: Date) {
  const period = rankSuffix(query.period, now);
  const knownSets = new Map<string, ContentSetItem>();
  let ranked: Record<string, unknown>[];
  if (query.contentSetId) {
    const contentSet = await loadContentSet(store, accountId, query.contentSetId);
    // Both filters apply: a set of another project has no items in this one.
    if (query.projectId && query.projectId !== contentSet.projectId) return [];
    knownSets.set(contentSet.id, contentSet);
    ranked = await readRanked(store, 'rank1', rankPartition('rank1', contentSet.id, 'contentItem', period), query.$size);
  } else if (query.projectId) {
    await loadProject(store, accountId, query.projectId);
    ranked = await readRanked(store, 'rank2', rankPartition('rank2', query.projectId, 'contentItem', period), query.$size);
  } else {
    ranked = await readRanked(store, 'rank3', rankPartition('rank3', accountId, 'contentItem', period), query.$size);
  }
  const { ContentItem, ContentSet } = store.entities;
  const itemIds = ranked.map((item) => String(item.entityId));
  const setIds = [...new Set(ranked.map((item) => String(item.contentSetId)))].filter((id) => !knownSets.has(id));
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
  return withStats(store, entries, query.period, now);
}
