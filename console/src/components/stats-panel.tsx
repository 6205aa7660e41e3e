/**
 * The statistics of a project, set or item over one period: the summary in words, the
 * chart of the period's points (with its data as a table beside it), and for sets and
 * items the distribution per option.
 */
import type { AggregatedData, ResponseAggregation } from '@feedback-service/client';
import { formatCount, formatPercent, percentOf } from '../lib/format';
import { pointCounts } from '../data/stats';
import { chartOf, hasOptions, optionColors, setOptions, summaryText, type SetLike, type Table } from '../schemas';
import { ChartWithReadout } from './chart';
import type { ChartSpec } from './chart-spec';
import { ErrorMessage, Loading } from './states';

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
export function PeriodChart(props: { stats: AggregatedData; set?: SetLike; title: string }) {
  const points = pointCounts(props.stats);
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
  if (!hasOptions(props.data.schema)) return null;
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
  stats: AggregatedData | undefined;
  error: unknown;
  /** Asks for the statistics again after an error. */
  retry: () => void;
  set?: SetLike;
  title: string;
}) {
  if (props.error) return <ErrorMessage error={props.error} retry={props.retry} />;
  if (!props.stats) return <Loading what="statistics" />;
  const { stats } = props;
  return (
    <div className="stats-panel">
      <p className="summary" data-testid="summary">
        {summaryText(stats.data, props.set)}
      </p>
      <div className="stats-grid">
        <PeriodChart stats={stats} set={props.set} title={props.title} />
        {props.set && <Distribution data={stats.data} set={props.set} />}
      </div>
    </div>
  );
}
