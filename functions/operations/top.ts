/**
 * sets/top and contents/top: the entities with the most responses in a period, each with
 * its stats, from the materialised top lists (store/top-lists.ts) the ranker keeps within
 * about a minute of the counters (functions/jobs/ranker.ts). The order is as fresh as the
 * ranker's last run; each entry's stats are read live.
 *
 * DynamoDB requests: a set's top reads its list (1 Query of its parts); a project's or an account's,
 * its lists (1 Query per MB of lists: one list per set); then the ranked entities (1-2
 * BatchGetItem) and their stats (1 Query per entry, `$size` at most). None of it depends
 * on the number of content items.
 */
import type { ContentSetTopQueryModel, ContentTopQueryModel } from '../api/aggregate-models';
import type { TopPeriod } from '../../shared/periods';
import { rankItems, rankSets } from '../domain/ranking';
import { getRawItemsChunked, keyOf } from '../store/batch';
import type { ContentItemItem, ContentSetItem, Store } from '../store/entities';
import { readTopList, readTopLists, type StoredTopList } from '../store/top-lists';
import { loadContentSet } from './sets';
import { loadProject } from './projects';
import { contentItemSubject, contentSetSubject, subjectStats, type AggregateSubject, type PeriodRequest } from './stats';
import { contentItemView, contentSetView, type ContentItemView, type ContentSetView } from './views';

/** Stats of each ranked subject for the period (calendar: the current one; rolling: the window ending today). */
async function withStats<View>(store: Store, entries: { view: View; subject: AggregateSubject }[], period: TopPeriod, now: Date) {
  const request: PeriodRequest = { period, now };
  return Promise.all(entries.map(async ({ view, subject }) => ({ ...view, stats: await subjectStats(store, subject, request) })));
}

const ranked = (lists: StoredTopList[]) => lists.map(({ scope, list }) => ({ contentSetId: scope.contentSetId, list }));

export async function topContentSets(store: Store, accountId: string, query: ContentSetTopQueryModel, now: Date) {
  if (query.projectId) await loadProject(store, accountId, query.projectId);
  const top = rankSets(ranked(await readTopLists(store, accountId, query.projectId ?? undefined)), query.period, now, query.$size);
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
  return withStats(store, entries, query.period, now);
}

export async function topContentItems(store: Store, accountId: string, query: ContentTopQueryModel, now: Date) {
  const knownSets = new Map<string, ContentSetItem>();
  let lists: StoredTopList[];
  if (query.contentSetId) {
    const contentSet = await loadContentSet(store, accountId, query.contentSetId);
    // Both filters apply: a set of another project has no items in this one.
    if (query.projectId && query.projectId !== contentSet.projectId) return [];
    knownSets.set(contentSet.id, contentSet);
    const list = await readTopList(store, { accountId, projectId: contentSet.projectId, contentSetId: contentSet.id });
    lists = list ? [list] : [];
  } else {
    if (query.projectId) await loadProject(store, accountId, query.projectId);
    lists = await readTopLists(store, accountId, query.projectId ?? undefined);
  }
  const top = rankItems(ranked(lists), query.period, now, query.$size);
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
  return withStats(store, entries, query.period, now);
}
