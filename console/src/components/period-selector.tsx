/**
 * The period and reference of a statistics page, kept in the URL (`?period=week&ref=2026-11-16`)
 * so a deep link or a reload shows the same period.
 */
import { useId } from 'react';
import { useSearchParams } from 'wouter';
import {
  containsNow,
  DEFAULT_PERIOD,
  isPeriod,
  parseReference,
  PERIOD_CHOICES,
  periodLabel,
  resolveView,
  shiftReference,
  type StatPeriod,
} from '../lib/periods';

export interface PeriodView {
  period: StatPeriod;
  /** `YYYY-MM-DD`, or undefined for the current period. */
  reference: string | undefined;
}

export function usePeriodView(): [PeriodView, (next: PeriodView) => void] {
  const [params, setParams] = useSearchParams();
  const requested = params.get('period');
  const period = isPeriod(requested) ? requested : DEFAULT_PERIOD;
  const reference = parseReference(params.get('ref'));
  const set = (next: PeriodView) =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      updated.set('period', next.period);
      if (next.reference && next.period !== 'lifetime' && !containsNow(next.period, next.reference)) updated.set('ref', next.reference);
      else updated.delete('ref');
      return updated;
    });
  return [{ period, reference }, set];
}

export function PeriodSelector(props: {
  view: PeriodView;
  onChange: (next: PeriodView) => void /** referenceDate of the lifetime stats: its first year. */;
  lifetimeStart?: string;
}) {
  const { period, reference } = props.view;
  const firstYear = period === 'lifetime' && props.lifetimeStart ? new Date(props.lifetimeStart).getUTCFullYear() : undefined;
  const resolved = resolveView(period, reference, new Date(), firstYear);
  const isLifetime = period === 'lifetime';
  const atNow = containsNow(period, reference);
  const selectId = useId();
  return (
    <div className="period-selector">
      <div className="period-choice">
        <label htmlFor={selectId}>Period</label>
        <select id={selectId} value={period} onChange={(event) => props.onChange({ period: event.target.value as StatPeriod, reference })}>
          {PERIOD_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="period-nav" aria-label="Move through periods">
        <button
          type="button"
          disabled={isLifetime}
          onClick={() => props.onChange({ period, reference: shiftReference(period, reference, -1) })}
          aria-label="Previous period"
        >
          ‹ Previous
        </button>
        <output className="period-label" aria-live="polite" data-testid="period-label">
          {periodLabel(resolved)}
        </output>
        <button
          type="button"
          disabled={isLifetime || atNow}
          onClick={() => props.onChange({ period, reference: shiftReference(period, reference, 1) })}
          aria-label="Next period"
        >
          Next ›
        </button>
        {!atNow && (
          <button type="button" className="link-button" onClick={() => props.onChange({ period, reference: undefined })}>
            Current
          </button>
        )}
      </fieldset>
    </div>
  );
}
