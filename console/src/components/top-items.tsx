import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { type TopScope, useTopItems } from '../data/contents';
import { useContentSets } from '../data/sets';
import { formatCount, formatPercent } from '../lib/format';
import { containsNow, currentPeriodName, periodChoiceLabel, periodLabel, resolveView, type StatPeriod, type TopPeriod } from '../lib/periods';
import { itemName } from './responses';
import { ErrorMessage, Loading } from './states';

/** What a ranking covers, named for every period: "Ranked by responses today (Monday 7 December 2026)." */
function rankedFor(period: TopPeriod, lifetimeStart: string | undefined): string {
  if (period === 'lifetime') {
    const firstYear = lifetimeStart ? new Date(lifetimeStart).getUTCFullYear() : undefined;
    const since = firstYear === undefined ? '' : ` (${periodLabel(resolveView('lifetime', undefined, new Date(), firstYear)).toLowerCase()})`;
    return `Ranked by every response ever received${since}.`;
  }
  const label = periodLabel(resolveView(period, undefined));
  return period === 'day' ? `Ranked by responses today (${label}, UTC).` : `Ranked by responses in ${currentPeriodName(period)} (${label}).`;
}

/**
 * The content items with the most responses in the period shown. `top` ranks every period,
 * but only the current one, so for a past period the list is not shown (never this week's
 * ranking under last week's statistics): a sentence says why, with a way back to the
 * current period.
 */
export function TopItems(props: {
  scope: TopScope;
  period: StatPeriod;
  reference: string | undefined;
  onShowCurrent: () => void;
  empty?: ReactNode;
  /** The lifetime's first day (the lifetime statistics' referenceDate), which names the lifetime. */
  lifetimeStart?: string;
}) {
  const ranked = containsNow(props.period, props.reference) ? props.period : undefined;
  const top = useTopItems(props.scope, ranked);
  // In a project, items of several sets can share a key: each names its set.
  const setIds = 'projectId' in props.scope ? [...new Set((top.data ?? []).map((entry) => entry.contentSetId))] : [];
  const sets = useContentSets(setIds);
  const setNames = new Map(sets.flatMap((result, index) => (result.data ? [[setIds[index], result.data.name] as const] : [])));
  if (!ranked) {
    return (
      <p className="note" data-testid="top-items-note">
        Rankings exist for the current {periodChoiceLabel(props.period).toLowerCase()} only, not for {periodLabel(resolveView(props.period, props.reference))}.{' '}
        <button type="button" className="link-button" onClick={props.onShowCurrent}>
          Show {currentPeriodName(props.period)}
        </button>
      </p>
    );
  }
  if (top.error) return <ErrorMessage error={top.error} retry={() => void top.refetch()} />;
  if (!top.data) return <Loading what="top items" />;
  const total = top.data.reduce((sum, entry) => sum + entry.stats.count, 0);
  return (
    <>
      <p className="muted" data-testid="top-items-period">
        {rankedFor(ranked, props.lifetimeStart)}
      </p>
      {top.data.length === 0 ? (
        (props.empty ?? <p className="muted">No responses in this period.</p>)
      ) : (
        <ol className="top-list">
          {top.data.map((entry) => (
            <li key={entry.id}>
              <Link href={`/items/${entry.id}`} className="top-title">
                {itemName(entry)}
              </Link>
              {(entry.metadata.title || setNames.has(entry.contentSetId)) && (
                <span className="top-key">
                  {entry.metadata.title ? entry.key : ''}
                  {entry.metadata.title && setNames.has(entry.contentSetId) ? ' · ' : ''}
                  {setNames.has(entry.contentSetId) ? `in ${setNames.get(entry.contentSetId)}` : ''}
                </span>
              )}
              <span className="top-count">
                {formatCount(entry.stats.count)} <span className="muted">({formatPercent(entry.stats.count, total)})</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
