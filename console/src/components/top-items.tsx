import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { type TopScope, useTopItems } from '../data/contents';
import { useContentSets } from '../data/sets';
import { formatCount, formatPercent } from '../lib/format';
import { isCalendarPeriod, periodChoiceLabel, rankedPeriodFor, type StatPeriod } from '../lib/periods';
import { ErrorMessage, Loading } from './states';

/** The content items with the most responses (rankings exist for current periods only). */
export function TopItems(props: { scope: TopScope; period: StatPeriod; isCurrent: boolean; empty?: ReactNode }) {
  const ranked = rankedPeriodFor(props.period);
  const top = useTopItems(props.scope, ranked);
  const note =
    ranked !== props.period || !props.isCurrent
      ? `Rankings cover the current period only: ${periodChoiceLabel(ranked).toLowerCase()}${isCalendarPeriod(ranked) ? ' (this one)' : ''}.`
      : undefined;
  // In a project, items of several sets can share a key: each names its set.
  const setIds = 'projectId' in props.scope ? [...new Set((top.data ?? []).map((entry) => entry.contentSetId))] : [];
  const sets = useContentSets(setIds);
  const setNames = new Map(sets.flatMap((result, index) => (result.data ? [[setIds[index], result.data.name] as const] : [])));
  if (top.error) return <ErrorMessage error={top.error} />;
  if (!top.data) return <Loading what="top items" />;
  const total = top.data.reduce((sum, entry) => sum + entry.stats.count, 0);
  return (
    <>
      {note && <p className="note">{note}</p>}
      {top.data.length === 0 ? (
        (props.empty ?? <p className="muted">No responses in this period.</p>)
      ) : (
        <ol className="top-list">
          {top.data.map((entry) => (
            <li key={entry.id}>
              <Link href={`/items/${entry.id}`} className="top-title">
                {entry.metadata.title || entry.key}
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
