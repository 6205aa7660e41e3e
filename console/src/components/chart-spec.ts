/** What a chart shows: the lazily loaded canvas (chart-canvas.tsx) and its wrapper (chart.tsx) both read it. */
export interface ChartSeries {
  label: string;
  color: string;
  values: (number | null)[];
}

export interface ChartSpec {
  /** One label per data point (x axis). */
  labels: string[];
  kind: 'bars' | 'stacked';
  series: ChartSeries[];
  /** A line on its own scale (ratings: the average per point). */
  line?: ChartSeries & { min: number; max: number };
  height?: number;
  sparkline?: boolean;
  /** The top of the y scale when several charts share one (a table's sparklines); else the chart's own maximum. */
  yMax?: number;
}
