/**
 * What the console does differently per schema, as one record per schema (SCHEMA_VIEWS in
 * index.ts holds one for every name of SCHEMAS, so a new schema without its record does not
 * compile), and the parts those records share. The live preview is the one exception: it
 * renders the published React widgets, which load lazily with the embed page, so its record
 * of one widget per schema lives with them (components/widget-preview.tsx).
 */
import type { ContentSet, ResponseAggregation, ResponseValue } from '@feedback-service/client';
import type { Schema, SchemaConfig } from '../../../shared/schema-options';
import type { ChartSpec } from '../components/chart-spec';
import { formatCount, formatPercent, formatScore } from '../lib/format';

/** How one option of a set is shown. */
export interface OptionDisplay {
  /** The stored value (yes-no: 'y' / 'n'; rating: the number as text). */
  value: string;
  label: string;
  emoji?: string;
}

export function optionText(option: OptionDisplay): string {
  return option.emoji ? `${option.emoji} ${option.label}` : option.label;
}

export type AggregationOf<S extends Schema> = Extract<ResponseAggregation, { schema: S }>;

/** A chart's data as a table: one row per point. */
export interface Table {
  columns: string[];
  rows: { title: string; cells: string[] }[];
}

/** What a chart of a period is drawn from. */
export interface ChartInput<S extends Schema> {
  data: AggregationOf<S>;
  config: SchemaConfig[S] | undefined;
  options: OptionDisplay[];
  colors: string[];
  labels: string[];
  titles: string[];
  /** Responses per point, for shapes whose points carry no counts (read per point). */
  pointCounts: (number | undefined)[];
}

/** The schema's part of the three snippets (lib/snippets.ts puts them together). */
export interface SnippetParts {
  reactImports: string[];
  reactElement: string;
  astroImport: string;
  astroElement: string;
  htmlBody: string;
  /** Said above the snippets (e.g. that no rating widget exists). */
  note?: string;
}

export interface SnippetInput<S extends Schema> {
  set: ContentSet;
  config: SchemaConfig[S];
  options: OptionDisplay[];
  /** `['showCount']` when the set's counts are public, else empty: the widgets' attribute. */
  count: string[];
}

/**
 * How a schema's score reads (the server computes it: docs/api.md, "Scores"): a share of yes,
 * a mean rating, a mean sentiment.
 */
export interface ScoreView<S extends Schema> {
  /** What the score measures, as the subject of a sentence: "the share of yes", "the average rating". */
  name: string;
  /** A value of the score: "82%", "4.2 ★", "+0.35". */
  format(value: number, config: SchemaConfig[S] | undefined): string;
  /** The size of a change, without its sign: "12 points", "0.4 stars", "0.15". */
  amount(delta: number): string;
  /** The range every value lies in, for the interval bars. */
  range(config: SchemaConfig[S] | undefined): [low: number, high: number];
  /** How a drop is typed in the alert settings: its unit, its value per unit of the score, the input's step. */
  dropInput: { unit: string; perScore: number; step: number };
}

export interface SchemaView<S extends Schema> {
  /** The schema's name in the console. */
  name: string;
  /** What one response is called in a sentence ("7 votes on Pricing"). */
  responseNoun: string;
  /** The options in the order of `values`, `counts` and each point's counts. */
  options(config: SchemaConfig[S]): OptionDisplay[];
  /** Whether responses fall in options a person can tell apart (a distribution, a filter by option). */
  hasOptions: boolean;
  /** What an option is called in the responses' filter ("Tag", "Value"). */
  optionWord: string;
  /** Whether responses carry text a person wrote (shown as a message; searchable). */
  hasText: boolean;
  /** The index of a stored value among the options (-1 when it is not one, e.g. a message). */
  optionIndex(value: ResponseValue, options: OptionDisplay[]): number;
  /** Colours of the options, in order. */
  colors(count: number): string[];
  /** The summary of a period with responses, in plain words. */
  summary(data: AggregationOf<S>, options: OptionDisplay[], config: SchemaConfig[S] | undefined): string;
  /** The chart of a period and its data table. */
  chart(input: ChartInput<S>): { spec: ChartSpec; table: Table };
  /** Responses per data point (every aggregation carries its points). */
  pointTotals(data: AggregationOf<S>): number[];
  /** The schema's score, or null for a schema without one (its changes are counts). */
  score: ScoreView<S> | null;
  /** The schema's part of the React, Astro and plain HTML snippets. */
  snippet(input: SnippetInput<S>): SnippetParts;
}

const PALETTE = ['#4f46e5', '#0891b2', '#ea580c', '#16a34a', '#db2777', '#ca8a04', '#7c3aed', '#0d9488', '#dc2626', '#2563eb', '#65a30d', '#9333ea'];

export function paletteColors(count: number): string[] {
  return Array.from({ length: count }, (_, index) => PALETTE[index % PALETTE.length]);
}

export function sentimentWord(score: number): string {
  if (score >= 0.5) return 'positive';
  if (score >= 0.15) return 'somewhat positive';
  if (score > -0.15) return 'neutral';
  if (score > -0.5) return 'somewhat negative';
  return 'negative';
}

/** The score of reactions and tags: a mean sentiment in [-1, 1]. */
export const SENTIMENT_SCORE: ScoreView<'reaction' | 'tagged-message'> = {
  name: 'the sentiment',
  format: (value) => formatScore(value),
  amount: (delta) => Math.abs(delta).toFixed(2),
  range: () => [-1, 1],
  dropInput: { unit: 'on the scale from −1 to +1', perScore: 1, step: 0.01 },
};

export function intensityWord(intensity: number): string {
  if (intensity >= 0.7) return 'strong';
  if (intensity >= 0.35) return 'moderate';
  return 'mild';
}

export function mostChosen(options: OptionDisplay[], counts: number[], total: number): string {
  let best = -1;
  counts.forEach((count, index) => {
    if (count > 0 && (best < 0 || count > counts[best])) best = index;
  });
  return best < 0 ? '' : `${optionText(options[best])} (${formatPercent(counts[best], total)})`;
}

/** A stacked bar per point, one series per option, for aggregations that count each option per point. */
export function stackedChart(
  perPoint: number[][],
  input: Pick<ChartInput<Schema>, 'options' | 'colors' | 'labels' | 'titles'>,
): { spec: ChartSpec; table: Table } {
  const { options, colors, labels, titles } = input;
  const series = options.map((option, index) => ({ label: optionText(option), color: colors[index], values: perPoint.map((counts) => counts[index] ?? 0) }));
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

/** One bar per point from counts read per point, for aggregations without points (`what`: Responses, Messages). */
export function countChart(what: string, input: Pick<ChartInput<Schema>, 'labels' | 'titles' | 'pointCounts'>): { spec: ChartSpec; table: Table } {
  const { labels, titles, pointCounts } = input;
  return {
    spec: { labels, kind: 'bars', series: [{ label: what, color: 'var-bar', values: pointCounts.map((count) => count ?? null) }] },
    table: { columns: [what], rows: pointCounts.map((count, point) => ({ title: titles[point], cells: [count === undefined ? '…' : formatCount(count)] })) },
  };
}

export function sumOf(counts: number[]): number {
  return counts.reduce((sum, count) => sum + count, 0);
}

/** The points of a schema whose points begin with the counts per option (reaction, tagged message). */
type OptionCountPoints = { points: [number[], ...number[]][] };

/** The chart of such a schema: each point's counts per option, stacked. */
export function optionCountsChart(input: Pick<ChartInput<Schema>, 'options' | 'colors' | 'labels' | 'titles'> & { data: OptionCountPoints }) {
  return stackedChart(
    input.data.points.map((point) => point[0]),
    input,
  );
}

/** Each point's total of such a schema: the sum of its counts per option. */
export function optionCountsTotals(data: OptionCountPoints): number[] {
  return data.points.map(([counts]) => sumOf(counts));
}

/** Titles of known option values: [emoji, title]. */
export type Titles = Record<string, [emoji: string, title: string]>;

export function titled(value: string, titles: Titles | undefined): OptionDisplay {
  const known = titles?.[value];
  return known ? { value, emoji: known[0], label: known[1] } : { value, label: value };
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A preset array as JavaScript source, for the snippets (lines after the first indented by
 * whoever places it: `jsxElement`). An icon is `{ text }` for @feelback/react and the markup
 * itself for astro-feelback, whose own presets hold their icons as strings.
 */
export function valuesLiteral(values: { value: string; title: string; text?: string }[], library: 'react' | 'astro' = 'react'): string {
  const icon = (text: string) => (library === 'react' ? `{ text: ${JSON.stringify(text)} }` : JSON.stringify(text));
  return `[\n${values.map((value) => `  { value: ${JSON.stringify(value.value)}, title: ${JSON.stringify(value.title)}${value.text ? `, icon: ${icon(value.text)}` : ''} },`).join('\n')}\n]`;
}

/** Every line of `text` but the first, moved right by `prefix` (the first goes where the caller writes it). */
export function indentFollowingLines(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line, index) => (index > 0 && line !== '' ? `${prefix}${line}` : line))
    .join('\n');
}

/** Up to this many characters an element of a snippet stays on one line. */
const SNIPPET_LINE = 80;

/**
 * A JSX or Astro element of a snippet: on one line when short, else one attribute a line
 * (an attribute of several lines, a preset array, indented under it), so that no line of a
 * snippet runs far off and a pasted snippet reads as its author would have written it.
 */
export function jsxElement(name: string, attributes: string[]): string {
  const oneLine = `<${name} ${attributes.join(' ')} />`;
  if (oneLine.length <= SNIPPET_LINE && !oneLine.includes('\n')) return oneLine;
  return `<${name}\n${attributes.map((attribute) => `  ${indentFollowingLines(attribute, '  ')}`).join('\n')}\n/>`;
}

/** The plain HTML snippet's buttons, one per option. */
export function buttonsHtml(values: { value: string; label: string; emoji?: string }[]): string {
  return `  <div class="feelback-buttons">\n${values
    .map(
      (option) =>
        `    <button class="feelback-btn" data-feelback-value="${escapeHtml(option.value)}" title="${escapeHtml(option.label)}">${escapeHtml(option.emoji ?? option.label)}</button>`,
    )
    .join('\n')}\n  </div>`;
}
