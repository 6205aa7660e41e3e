import { formatCount } from '../lib/format';
import { pointTitle } from '../lib/periods';
import { pointCounts, useStats, type Subject } from '../data/stats';
import { Chart } from './chart';

/** Under a table of sparklines: how to read them (each is drawn to its own scale, so the numbers compare sets). */
export function SparklineNote() {
  return (
    <p className="muted small" data-testid="sparkline-scale">
      Each bar chart of “Last 7 days” is drawn to its own busiest day, so a quiet set’s days show as clearly as a busy one’s; the number beside it is its total,
      to compare sets by.
    </p>
  );
}

/**
 * Responses in the last 7 days: the number, and a bar per day scaled to this subject's own
 * busiest day (a shared scale made a set of 5 an invisible sliver beside one of 500).
 */
export function SevenDays(props: { subject: Subject; name: string }) {
  const stats = useStats(props.subject, 'rolling7d');
  if (stats.error) return <span className="muted">unavailable</span>;
  const points = stats.data ? pointCounts(stats.data) : undefined;
  if (!stats.data || !points) return <span className="muted">…</span>;
  const busiest = Math.max(1, ...points.counts);
  const description = `${props.name}, responses per day over the last 7 days (busiest day ${formatCount(busiest)}): ${points.keys.map((key, index) => `${pointTitle('day', key)} ${points.counts[index] ?? 0}`).join(', ')}`;
  return (
    <span className="seven-days" data-scale-max={busiest}>
      <span className="number" data-testid="seven-day-count">
        {formatCount(stats.data.count)}
      </span>
      <Chart
        spec={{
          labels: points.keys,
          kind: 'bars',
          sparkline: true,
          height: 28,
          yMax: busiest,
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
