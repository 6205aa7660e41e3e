/**
 * The statistics of a project, set or item over one period: the summary in words, the
 * chart of the period's points (with its data as a table beside it), and for sets and
 * items the distribution per option.
 */
import type { AggregatedData, ResponseAggregation } from '@feedback-service/client';
import { formatCount, formatDecimal, formatPercent, formatScore, percentOf, plural } from '../lib/format';
import { optionColors, optionText, setOptions, type OptionDisplay } from '../lib/options';
import { pointLabel, pointTitle, type Granularity } from '../lib/periods';
import { usePointCounts, type SetLike, type Subject } from '../data/stats';
import type { SchemaConfig } from '../../../shared/schema-options';
import { ChartWithReadout } from './chart';
import type { ChartSpec } from './chart-spec';
import { ErrorMessage, Loading } from './states';

export function sentimentWord(score: number): string {
  if (score >= 0.5) return 'positive';
  if (score >= 0.15) return 'somewhat positive';
  if (score > -0.15) return 'neutral';
  if (score > -0.5) return 'somewhat negative';
  return 'negative';
}

function intensityWord(intensity: number): string {
  if (intensity >= 0.7) return 'strong';
  if (intensity >= 0.35) return 'moderate';
  return 'mild';
}

function mostChosen(options: OptionDisplay[], counts: number[], total: number): string {
  let best = -1;
  counts.forEach((count, index) => {
    if (count > 0 && (best < 0 || count > counts[best])) best = index;
  });
  return best < 0 ? '' : `${optionText(options[best])} (${formatPercent(counts[best], total)})`;
}

/** The summary of a period in plain words. */
export function summaryText(data: ResponseAggregation, set: SetLike | undefined): string {
  const total = data.count;
  if (total === 0) return 'No feedback in this period.';
  const options = set ? setOptions(set) : [];
  switch (data.schema) {
    case 'pulse':
      return `${plural(total, 'response')}.`;
    case 'message':
      return `${plural(total, 'message')}.`;
    case 'yes-no': {
      const [yes, no] = data.counts;
      return `${formatPercent(yes, yes + no)} said yes (${formatCount(yes)} yes, ${formatCount(no)} no): ${sentimentWord(data.summary)} overall, score ${formatScore(data.summary)}.`;
    }
    case 'reaction': {
      const sentiment = data.summary ?? 0;
      const intensity = data.intensity ?? 0;
      return `${plural(total, 'reaction')}, ${sentimentWord(sentiment)} (sentiment ${formatScore(sentiment)}) with ${intensityWord(intensity)} intensity (${formatDecimal(intensity)}). Most chosen: ${mostChosen(options, data.counts, total)}.`;
    }
    case 'rating': {
      const config = set?.schemaConfig as SchemaConfig['rating'] | undefined;
      return `Average rating ${formatDecimal(data.summary)}${config ? ` out of ${formatDecimal(config.max)}` : ''} from ${plural(total, 'rating')}.`;
    }
    case 'tagged-message': {
      const sentiment = data.summary ?? 0;
      return `${plural(total, 'message')}, ${sentimentWord(sentiment)} overall (sentiment ${formatScore(sentiment)}). Most tagged: ${mostChosen(options, data.counts, total)}.`;
    }
  }
}

interface Table {
  columns: string[];
  rows: { title: string; cells: string[] }[];
}

function chartOf(
  data: ResponseAggregation,
  set: SetLike | undefined,
  granularity: Granularity,
  keys: string[],
  pointCounts: (number | undefined)[],
): { spec: ChartSpec; table: Table } {
  const labels = keys.map((key) => pointLabel(granularity, key));
  const titles = keys.map((key) => pointTitle(granularity, key));
  const options = set ? setOptions(set) : [];
  const colors = set ? optionColors(set.schema, options.length) : [];
  switch (data.schema) {
    case 'yes-no':
    case 'reaction':
    case 'tagged-message': {
      const perPoint: number[][] = data.schema === 'yes-no' ? data.points.map((point) => [...point]) : data.points.map((point) => point[0]);
      const series = options.map((option, index) => ({
        label: optionText(option),
        color: colors[index],
        values: perPoint.map((counts) => counts[index] ?? 0),
      }));
      return {
        spec: { labels, kind: 'stacked', series },
        table: {
          columns: [...options.map(optionText), 'Total'],
          rows: perPoint.map((counts, point) => ({
            title: titles[point],
            cells: [...options.map((_, index) => formatCount(counts[index] ?? 0)), formatCount(counts.reduce((sum, count) => sum + count, 0))],
          })),
        },
      };
    }
    case 'rating': {
      const config = set?.schemaConfig as SchemaConfig['rating'] | undefined;
      return {
        spec: {
          labels,
          kind: 'bars',
          series: [{ label: 'Ratings', color: 'var-bar', values: data.points.map(([count]) => count) }],
          line: {
            label: 'Average',
            color: '#ea580c',
            values: data.points.map(([count, mean]) => (count > 0 ? mean : null)),
            min: config?.min ?? 0,
            max: config?.max ?? 5,
          },
        },
        table: {
          columns: ['Ratings', 'Average'],
          rows: data.points.map(([count, mean], point) => ({ title: titles[point], cells: [formatCount(count), count > 0 ? formatDecimal(mean) : '–'] })),
        },
      };
    }
    case 'pulse':
    case 'message':
      return {
        spec: {
          labels,
          kind: 'bars',
          series: [{ label: data.schema === 'message' ? 'Messages' : 'Responses', color: 'var-bar', values: pointCounts.map((count) => count ?? null) }],
        },
        table: {
          columns: [data.schema === 'message' ? 'Messages' : 'Responses'],
          rows: pointCounts.map((count, point) => ({ title: titles[point], cells: [count === undefined ? '…' : formatCount(count)] })),
        },
      };
  }
}

function barColor(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#4f46e5';
}

function Legend(props: { spec: ChartSpec }) {
  if (props.spec.series.length < 2 && !props.spec.line) return null;
  return (
    <ul className="legend" aria-hidden="true">
      {props.spec.series.map((series) => (
        <li key={series.label}>
          <span className="swatch" style={{ background: series.color }} />
          {series.label}
        </li>
      ))}
      {props.spec.line && (
        <li>
          <span className="swatch line" style={{ background: props.spec.line.color }} />
          {props.spec.line.label}
        </li>
      )}
    </ul>
  );
}

export function DataTable(props: { table: Table; caption: string }) {
  return (
    <details className="data-table">
      <summary>Data table</summary>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">{props.caption}</caption>
          <thead>
            <tr>
              <th scope="col">Point</th>
              {props.table.columns.map((column) => (
                <th scope="col" key={column}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.table.rows.map((row) => (
              <tr key={row.title}>
                <th scope="row">{row.title}</th>
                {row.cells.map((cell, index) => (
                  <td key={props.table.columns[index]}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** The chart of a period with its legend and data table. */
export function PeriodChart(props: { subject: Subject; stats: AggregatedData; set?: SetLike; reference: string | undefined; title: string }) {
  const points = usePointCounts(props.subject, props.stats);
  if (!points) return null;
  if (points.error) return <ErrorMessage error={points.error} />;
  if (points.unavailable) {
    return (
      <p className="note">
        Hourly points are counted only for sets with options; choose a week or longer to see this chart. The day’s total is {formatCount(props.stats.count)}.
      </p>
    );
  }
  if (points.pending) return <Loading what="chart" />;
  const { spec, table } = chartOf(props.stats.data, props.set, points.granularity, points.keys, points.counts);
  const bar = barColor();
  const themed: ChartSpec = { ...spec, series: spec.series.map((series) => (series.color === 'var-bar' ? { ...series, color: bar } : series)) };
  const readout = (index: number) => {
    const row = table.rows[index];
    return row ? `${row.title}: ${table.columns.map((column, cell) => `${column} ${row.cells[cell]}`).join(', ')}` : '';
  };
  return (
    <figure className="period-chart">
      <figcaption className="visually-hidden">{props.title}</figcaption>
      <Legend spec={themed} />
      <ChartWithReadout spec={themed} label={`${props.title}: chart of ${table.rows.length} points; the data table below lists them`} readout={readout} />
      <DataTable table={table} caption={props.title} />
    </figure>
  );
}

/** Count and share per option, with the label or emoji of each. */
export function Distribution(props: { data: ResponseAggregation; set: SetLike }) {
  const options = setOptions(props.set);
  if (props.data.schema === 'pulse' || props.data.schema === 'message') return null;
  const counts = props.data.values;
  const total = counts.reduce((sum, count) => sum + count, 0);
  const colors = optionColors(props.set.schema, options.length);
  return (
    <table className="distribution">
      <caption>Distribution</caption>
      <thead>
        <tr>
          <th scope="col">Option</th>
          <th scope="col">Responses</th>
          <th scope="col">Share</th>
        </tr>
      </thead>
      <tbody>
        {options.map((option, index) => (
          <tr key={option.value} data-option={option.value}>
            <th scope="row">
              {option.emoji && (
                <span className="emoji" aria-hidden="true">
                  {option.emoji}{' '}
                </span>
              )}
              {option.label}
            </th>
            <td className="number">{formatCount(counts[index] ?? 0)}</td>
            <td className="share">
              <span className="share-bar" aria-hidden="true">
                <span style={{ width: `${percentOf(counts[index] ?? 0, total)}%`, background: colors[index] }} />
              </span>
              <span className="number">{formatPercent(counts[index] ?? 0, total)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Summary, chart and distribution of one period. */
export function StatsPanel(props: {
  subject: Subject;
  stats: AggregatedData | undefined;
  error: unknown;
  set?: SetLike;
  reference: string | undefined;
  title: string;
}) {
  if (props.error) return <ErrorMessage error={props.error} />;
  if (!props.stats) return <Loading what="statistics" />;
  const { stats } = props;
  return (
    <div className="stats-panel">
      <p className="summary" data-testid="summary">
        {summaryText(stats.data, props.set)}
      </p>
      <div className="stats-grid">
        <PeriodChart subject={props.subject} stats={stats} set={props.set} reference={props.reference} title={props.title} />
        {props.set && <Distribution data={stats.data} set={props.set} />}
      </div>
    </div>
  );
}
