/**
 * The statistics of a project, set or item over one period: the summary in words, the
 * chart of the period's points (with its data as a table beside it), and for sets and
 * items the distribution per option.
 */
import type { AggregatedData, ResponseAggregation, Stats } from '@feedback-service/client';
import { formatCount, formatPercent, percentOf, plural } from '../lib/format';
import { periodLabel, resolvedOf } from '../lib/periods';
import { pointCounts } from '../data/stats';
import { changeWords, chartOf, hasOptions, optionColors, scoreView, setOptions, summaryText, type SetLike, type Table } from '../schemas';
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

/**
 * This period against the one before, in words: "This period vs the previous one (3 – 30 Oct
 * 2026): the share of yes is down 12 points, outside the noise." The noise is the change's 95%
 * interval, said after it, with how many responses each period had.
 */
export function PeriodChange(props: { stats: Stats; set?: SetLike }) {
  const { previous, change } = props.stats;
  if (!previous || change === undefined) return null;
  const before = `This period vs the previous one (${periodLabel(resolvedOf(previous))})`;
  const counts = `${plural(props.stats.count, 'response')} now, ${formatCount(previous.count)} then.`;
  if (change === null) {
    return (
      <p className="period-change" data-testid="change">
        {before}: nothing to compare, since {previous.count === 0 ? 'the period before' : 'this period'} has no responses.
      </p>
    );
  }
  const score = props.set ? scoreView(props.set.schema) : null;
  const scored = score !== null && change.method !== 'count';
  const direction = change.delta > 0 ? 'up' : change.delta < 0 ? 'down' : 'same';
  const signed = (value: number) => `${value < 0 ? '−' : value > 0 ? '+' : ''}${score?.amount(value)}`;
  return (
    <p className={`period-change change-${direction}${change.significant ? ' change-significant' : ''}`} data-testid="change">
      {before}:{' '}
      <strong>
        {scored ? `${score.name} is ` : ''}
        {changeWords(change, props.set?.schema)}
      </strong>
      .{' '}
      <span className="muted">
        {scored && change.low !== null && change.high !== null ? `The change lies between ${signed(change.low)} and ${signed(change.high)} (95%). ` : ''}
        {counts}
      </span>
    </p>
  );
}

/** Summary, chart and distribution of one period. */
export function StatsPanel(props: {
  /** With `previous` and `change` (getStats' compare), the comparison is said beside the summary. */
  stats: Stats | undefined;
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
      <PeriodChange stats={stats} set={props.set} />
      <div className="stats-grid">
        <PeriodChart stats={stats} set={props.set} title={props.title} />
        {props.set && <Distribution data={stats.data} set={props.set} />}
      </div>
    </div>
  );
}
