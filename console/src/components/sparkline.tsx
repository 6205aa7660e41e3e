import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { formatCount, plural } from '../lib/format';
import { pointTitle } from '../lib/periods';
import { pointCounts, useStats, type Subject } from '../data/stats';
import { Chart } from './chart';

/**
 * One y scale for the sparklines of a table: each reports its highest day, and all are drawn
 * up to the highest of them, so 29 and 75 do not look alike.
 */
const SharedScale = createContext<{ max: number; report: (id: string, max: number) => void } | undefined>(undefined);

export function SparklineScale(props: { children: ReactNode }) {
  const [maxima, setMaxima] = useState<Record<string, number>>({});
  const report = useCallback((id: string, max: number) => setMaxima((known) => (known[id] === max ? known : { ...known, [id]: max })), []);
  const max = Math.max(1, ...Object.values(maxima));
  const scale = useMemo(() => ({ max, report }), [max, report]);
  return (
    <SharedScale.Provider value={scale}>
      {props.children}
      <p className="muted small" data-testid="sparkline-scale">
        The bars of “Last 7 days” share one scale: full height is {plural(max, 'response')} in a day.
      </p>
    </SharedScale.Provider>
  );
}

/** Responses in the last 7 days: the number and a bar per day, on the table's shared scale. */
export function SevenDays(props: { subject: Subject; name: string }) {
  const stats = useStats(props.subject, 'rolling7d');
  const scale = useContext(SharedScale);
  const points = stats.data ? pointCounts(stats.data) : undefined;
  const highest = points ? Math.max(0, ...points.counts) : undefined;
  const report = scale?.report;
  useEffect(() => {
    if (report && highest !== undefined) report(props.subject.id, highest);
  }, [report, highest, props.subject.id]);
  if (stats.error) return <span className="muted">unavailable</span>;
  if (!stats.data || !points) return <span className="muted">…</span>;
  const description = `${props.name}, responses per day over the last 7 days: ${points.keys.map((key, index) => `${pointTitle('day', key)} ${points.counts[index] ?? 0}`).join(', ')}`;
  return (
    <span className="seven-days" data-scale-max={scale?.max}>
      <span className="number" data-testid="seven-day-count">
        {formatCount(stats.data.count)}
      </span>
      <Chart
        spec={{
          labels: points.keys,
          kind: 'bars',
          sparkline: true,
          height: 28,
          yMax: scale?.max,
          series: [{ label: 'Responses', color: accent(), values: points.counts }],
        }}
        label={description}
      />
    </span>
  );
}

function accent(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#4f46e5';
}
