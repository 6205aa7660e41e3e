/**
 * The uPlot chart (loaded lazily: uPlot is only fetched when a page shows a chart). Bars,
 * stacked bars (each option drawn as the running total up to it, largest first, so each
 * visible segment is one option), and an average line on a second scale for ratings.
 * Colours follow the page's light or dark theme.
 */
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import type { ChartSpec } from './chart-spec';

function themeColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

function useColorScheme(): string {
  const [scheme, setScheme] = useState(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  useEffect(() => {
    const query = matchMedia('(prefers-color-scheme: dark)');
    const changed = () => setScheme(query.matches ? 'dark' : 'light');
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  return scheme;
}

// Bars take 70% of their slot (less a pixel, at most 48 px) so that neighbours read apart. In a
// narrow slot (28 days on a phone get ~9 px) that leaves 5 px slivers, so there a bar fills its
// slot but for a 2 px gap, which still parts it from the next.
const WIDE_BARS = uPlot.paths.bars!({ size: [0.7, 48], gap: 1 });
const NARROW_BARS = uPlot.paths.bars!({ size: [1, 48], gap: 2 });
/** CSS px; below it a wide bar would be under 7 px. */
const NARROW_SLOT = 12;

/** Chosen at each draw, as the slot depends on the width and the chart follows resizes (a phone turned). */
function barsForSlot(points: number): uPlot.Series.PathBuilder {
  return (chart, seriesIndex, first, last) => {
    const slot = chart.bbox.width / uPlot.pxRatio / Math.max(points, 1);
    return (slot < NARROW_SLOT ? NARROW_BARS : WIDE_BARS)(chart, seriesIndex, first, last);
  };
}

function optionsOf(spec: ChartSpec, width: number): { options: uPlot.Options; data: uPlot.AlignedData } {
  const text = themeColor('--muted', '#6b7280');
  const grid = themeColor('--grid', 'rgba(128,128,128,0.2)');
  const xs = spec.labels.map((_, index) => index);
  const sparkline = spec.sparkline === true;
  // A sparkline has one fixed size everywhere, so its bars need not follow the width.
  const bars = sparkline ? WIDE_BARS : barsForSlot(xs.length);
  const series: uPlot.Series[] = [{}];
  const data: (number | null)[][] = [xs];
  if (spec.kind === 'stacked') {
    const running: (number | null)[][] = [];
    spec.series.forEach((entry, index) => {
      running.push(entry.values.map((value, point) => (value === null ? null : value + (index > 0 ? (running[index - 1][point] ?? 0) : 0))));
    });
    for (let index = spec.series.length - 1; index >= 0; index--) {
      series.push({
        label: spec.series[index].label,
        fill: spec.series[index].color,
        stroke: spec.series[index].color,
        width: 0,
        paths: bars,
        points: { show: false },
      });
      data.push(running[index]);
    }
  } else {
    for (const entry of spec.series) {
      series.push({ label: entry.label, fill: entry.color, stroke: entry.color, width: 0, paths: bars, points: { show: false } });
      data.push(entry.values);
    }
  }
  if (spec.line) {
    series.push({
      label: spec.line.label,
      stroke: spec.line.color,
      width: 2,
      scale: 'line',
      spanGaps: true,
      points: { show: true, size: 5, fill: spec.line.color },
    });
    data.push(spec.line.values);
  }
  const axes: uPlot.Axis[] = sparkline
    ? [{ show: false }, { show: false }]
    : [
        {
          stroke: text,
          grid: { show: false },
          ticks: { stroke: grid },
          values: (_chart, ticks) => ticks.map((tick) => spec.labels[tick] ?? ''),
          // A label exists only at a point, so steps are whole points: ones that divide a day's
          // hours and a year's months. A label is up to ~40 px wide ("22 Nov"), so ticks at
          // least 50 px apart leave a clear gap between labels (a phone's 28 days: every 6th).
          incrs: [1, 2, 3, 6, 12, 24],
          space: 50,
          size: 30,
        },
        {
          stroke: text,
          grid: { stroke: grid },
          ticks: { stroke: grid },
          size: 44,
          values: (_chart, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? String(tick) : '')),
        },
      ];
  if (spec.line && !sparkline) {
    axes.push({
      scale: 'line',
      side: 1,
      stroke: spec.line.color,
      grid: { show: false },
      size: 40,
      values: (_chart, ticks) => ticks.map((tick) => tick.toFixed(1)),
    });
  }
  const options: uPlot.Options = {
    width,
    height: spec.height ?? (sparkline ? 32 : 240),
    legend: { show: false },
    cursor: sparkline ? { show: false } : { points: { show: false }, drag: { x: false, y: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    padding: sparkline ? [2, 0, 0, 0] : [12, 8, 0, 0],
    scales: {
      x: { time: false, range: [-0.5, Math.max(xs.length - 0.5, 0.5)] },
      y: { range: (_chart, _min, max) => [0, Math.max(spec.yMax ?? max, sparkline ? 1 : 4) * (sparkline ? 1 : 1.1)] },
      ...(spec.line ? { line: { range: [spec.line.min, spec.line.max] as uPlot.Range.MinMax } } : {}),
    },
    axes,
    series,
  };
  return { options, data: data as uPlot.AlignedData };
}

export default function ChartCanvas(props: { spec: ChartSpec; label: string; onHover?: (index: number | null) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const scheme = useColorScheme();
  const onHover = useRef(props.onHover);
  onHover.current = props.onHover;

  // biome-ignore lint/correctness/useExhaustiveDependencies: scheme is not read here, but the chart takes its colours from the page's CSS when built, so a change of the OS scheme rebuilds it.
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    // A floor for a chart in a box not yet laid out; a sparkline's box has its size from the stylesheet.
    const minWidth = props.spec.sparkline ? 0 : 120;
    const width = Math.max(element.clientWidth, minWidth);
    const { options, data } = optionsOf(props.spec, width);
    options.hooks = { setCursor: [(chart) => onHover.current?.(chart.cursor.idx ?? null)] };
    const chart = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => {
      const next = Math.max(element.clientWidth, minWidth);
      if (next !== chart.width) chart.setSize({ width: next, height: chart.height });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [props.spec, scheme]);

  return <div ref={container} className={props.spec.sparkline ? 'sparkline-canvas' : 'chart-canvas'} role="img" aria-label={props.label} />;
}
