import { lazy, Suspense, useState } from 'react';

import type { ChartSpec } from './chart-spec';

const loadChart = () => import('./chart-canvas');
const ChartCanvas = lazy(loadChart);

let prefetched = false;
/** Starts loading the chart code (pages call this as they ask for statistics, so it arrives with the data). */
export function prefetchChart(): void {
  if (prefetched) return;
  prefetched = true;
  void loadChart();
}

/** A chart; uPlot is loaded with the first chart shown. `label` describes it for assistive technology. */
export function Chart(props: { spec: ChartSpec; label: string; onHover?: (index: number | null) => void }) {
  const height = props.spec.height ?? (props.spec.sparkline ? 32 : 240);
  return (
    <Suspense fallback={<div className={props.spec.sparkline ? 'sparkline-canvas' : 'chart-canvas'} style={{ height }} aria-hidden="true" />}>
      <ChartCanvas {...props} />
    </Suspense>
  );
}

/** A chart with a readout of the hovered point under it. */
export function ChartWithReadout(props: { spec: ChartSpec; label: string; readout: (index: number) => string }) {
  const [hovered, setHovered] = useState<number | null>(null);
  return (
    <div className="chart">
      <Chart spec={props.spec} label={props.label} onHover={setHovered} />
      <p className="chart-readout" aria-hidden="true">
        {hovered === null ? '\u00a0' : props.readout(hovered)}
      </p>
    </div>
  );
}
