import { formatCount } from '../lib/format';
import { pointTitle } from '../lib/periods';
import { usePointCounts, useStats, type Subject } from '../data/stats';
import { Chart } from './chart';

/** Responses in the last 7 days: the number and a bar per day. */
export function SevenDays(props: { subject: Subject; name: string }) {
  const stats = useStats(props.subject, 'rolling7d');
  const points = usePointCounts(props.subject, stats.data);
  if (stats.error) return <span className="muted">unavailable</span>;
  if (!stats.data) return <span className="muted">…</span>;
  const counts = points && !points.pending && !points.unavailable ? points.counts : undefined;
  const description = counts
    ? `${props.name}, responses per day over the last 7 days: ${points!.keys.map((key, index) => `${pointTitle('day', key)} ${counts[index] ?? 0}`).join(', ')}`
    : '';
  return (
    <span className="seven-days">
      <span className="number" data-testid="seven-day-count">
        {formatCount(stats.data.count)}
      </span>
      {counts && (
        <Chart
          spec={{
            labels: points!.keys,
            kind: 'bars',
            sparkline: true,
            height: 28,
            series: [{ label: 'Responses', color: accent(), values: counts.map((count) => count ?? 0) }],
          }}
          label={description}
        />
      )}
    </span>
  );
}

function accent(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#4f46e5';
}
