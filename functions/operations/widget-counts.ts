/**
 * responses/getAggregates: the counts per option the widgets show next to their buttons.
 *
 * DynamoDB round trips for (contentSetId, key): 1 BatchGetItem (set, key, alias) + 1 Query
 * of the counters; a key nobody answered yet is the BatchGetItem alone. For a content id:
 * 1 BatchGetItem (item, and the set its id names) + 1 Query; an id issued before ids
 * named their set reads the item, then the set. Nothing is remembered between calls;
 * page views are absorbed at the edge instead: answers of public sets may be cached for
 * AGGREGATES_MAX_AGE_SECONDS (handlers/responses/getAggregates.ts).
 *
 * Every read is eventually consistent (half the read units of a strongly consistent one):
 * the counts themselves arrive through the stream seconds after a response, and answers
 * are cached for seconds, so a moved key or a changed publicAggregates showing a second
 * later changes nothing a widget can tell. A BatchGetItem costs per key even for a key
 * that is absent (the alias, usually): 1.5 RRU eventually consistent, 3 strongly.
 */
import type { Caller } from '../api/auth';
import { DEFAULT_STAT_PERIOD } from '../api/aggregate-models';
import { ApiError, notFound } from '../api/errors';
import type { StatPeriod } from '../../shared/periods';
import { getRawItem, getRawItems } from '../store/batch';
import { contentSetOfItemId } from '../domain/text';
import type { TableClient } from '../store/dynamodb-clients';
import type { ContentSetItem } from '../store/entities';
import { contentItemOf, contentSetOf, keys } from '../store/items';
import { resolveContentKey } from './content-keys';
import { contentItemSubject, subjectStats, type PeriodRequest } from './stats';

const EVENTUALLY = { consistent: false };

type AggregatesSet = Pick<ContentSetItem, 'id' | 'accountId' | 'projectId' | 'schema' | 'schemaConfig' | 'publicAggregates' | 'publicMinCount'>;

/**
 * The counts a caller may see: anonymous callers get zeros while the period holds fewer
 * responses than the set's `publicMinCount`, so a page with one answer does not show what
 * that one person answered (docs/api.md); keyed callers see the counts.
 */
function visibleValues(caller: Caller, contentSet: AggregatesSet, data: { values: number[]; count: number }): number[] {
  const threshold = contentSet.publicMinCount ?? 0;
  return caller.level === 'anonymous' && data.count < threshold ? data.values.map(() => 0) : data.values;
}

/**
 * Who may read a set's aggregates: keyed callers of its account always; anonymous callers
 * (the widgets) only when the set makes them public. Another account's set does not exist.
 */
function checkAggregatesAccess<Set extends AggregatesSet>(caller: Caller, contentSet: Set | undefined, what: string, id: string): Set {
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

export interface WidgetCounts {
  values: number[];
  /** Whether the set's aggregates are public: the answer may then be cached by anyone. */
  publicAggregates: boolean;
}

/**
 * `data.values` of a content item's period (default lifetime): one number per option of
 * its set, in option order. A key that has no item yet (nobody answered on that page)
 * is all zeros, not an error.
 */
export async function widgetCounts(
  store: TableClient,
  caller: Caller,
  target: AggregatesTarget,
  period: StatPeriod | null | undefined,
  now: Date,
): Promise<WidgetCounts> {
  const request: PeriodRequest = { period: period ?? DEFAULT_STAT_PERIOD, now };
  if (typeof target === 'string') {
    const named = contentSetOfItemId(target);
    const [itemRaw, namedSetRaw] = named
      ? await getRawItems(store, [keys.contentItem(target), keys.contentSet(named)], EVENTUALLY)
      : [await getRawItem(store, keys.contentItem(target), EVENTUALLY), undefined];
    const item = contentItemOf(itemRaw);
    if (!item || (caller.level !== 'anonymous' && caller.accountId !== item.accountId)) throw notFound('Content item', target);
    const setData = contentSetOf(item.contentSetId === named ? namedSetRaw : await getRawItem(store, keys.contentSet(item.contentSetId), EVENTUALLY));
    const contentSet = checkAggregatesAccess(caller, setData, 'Content item', target);
    const stats = await subjectStats(store, contentItemSubject(item, contentSet), request);
    return { values: visibleValues(caller, contentSet, { values: stats.data.values, count: stats.count }), publicAggregates: contentSet.publicAggregates };
  }
  const { contentSetId, key } = target;
  // One BatchGetItem: the set, the exact key, and the alias of a widget's decoded key.
  const { setRaw, contentItemId: itemId } = await resolveContentKey(store, contentSetId, key, EVENTUALLY);
  const contentSet = checkAggregatesAccess(caller, contentSetOf(setRaw), 'Content set', contentSetId);
  const subject = contentItemSubject({ id: itemId ?? '' }, contentSet);
  if (!itemId) return { values: new Array<number>(subject.shape!.optionCount).fill(0), publicAggregates: contentSet.publicAggregates };
  const stats = await subjectStats(store, subject, request);
  return { values: visibleValues(caller, contentSet, { values: stats.data.values, count: stats.count }), publicAggregates: contentSet.publicAggregates };
}
