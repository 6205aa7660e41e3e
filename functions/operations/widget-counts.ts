/** responses/getAggregates: the counts per option the widgets show next to their buttons. */
import type { Caller } from '../api/auth';
import { DEFAULT_STAT_PERIOD } from '../api/aggregate-models';
import { ApiError, notFound } from '../api/errors';
import type { StatPeriod } from '../domain/periods';
import type { ContentSetItem, Store } from '../store/entities';
import { resolveContentKey } from './content-keys';
import { contentItemSubject, subjectStats, type PeriodRequest } from './stats';

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
