import type { ContentSet, ResponseAggregation, ResponseValue, ScoreChange } from '@feedback-service/client';
import { plural } from '../lib/format';
import type { Schema } from '../../../shared/schema-options';
import type { ChartSpec } from '../components/chart-spec';
import { pointLabel, pointTitle, type Granularity } from '../lib/periods';
import { message } from './message';
import { pulse } from './pulse';
import { rating } from './rating';
import { reaction } from './reaction';
import { taggedMessage } from './tagged-message';
import type { AggregationOf, OptionDisplay, SchemaView, ScoreView, SnippetParts, Table } from './view';
import { yesNo } from './yes-no';

export { indentFollowingLines, optionText, sentimentWord, type OptionDisplay, type SnippetParts, type Table } from './view';
export { reactionPreset } from './reaction';
export { tagPreset } from './tagged-message';

/** What the console does per schema: one record per schema, or the console does not compile. */
export const SCHEMA_VIEWS: { [S in Schema]: SchemaView<S> } = {
  pulse,
  'yes-no': yesNo,
  reaction,
  rating,
  message,
  'tagged-message': taggedMessage,
};

export type SetLike = Pick<ContentSet, 'schema' | 'schemaConfig'>;

function viewOf<S extends Schema>(schema: S): SchemaView<S> {
  return SCHEMA_VIEWS[schema];
}

/** The record and the aggregation of one schema together (TypeScript cannot correlate the two through the union). */
function viewOfData<S extends Schema>(data: AggregationOf<S>): SchemaView<S> {
  return viewOf(data.schema as S);
}

export function schemaName(schema: Schema): string {
  return SCHEMA_VIEWS[schema].name;
}

/** The options of a set in the order of `values`, `counts` and each point's counts. */
export function setOptions(set: SetLike): OptionDisplay[] {
  return viewOf(set.schema).options(set.schemaConfig as never);
}

/** `count` responses of a schema in words: "7 votes", "1 rating", "3 messages". */
export function responsesOf(schema: Schema, count: number): string {
  return plural(count, SCHEMA_VIEWS[schema].responseNoun);
}

export function hasOptions(schema: Schema): boolean {
  return SCHEMA_VIEWS[schema].hasOptions;
}

export function hasText(schema: Schema): boolean {
  return SCHEMA_VIEWS[schema].hasText;
}

export function optionWord(schema: Schema): string {
  return SCHEMA_VIEWS[schema].optionWord;
}

/** Index of a stored value among the set's options (-1 when it is not one, e.g. a message). */
export function optionIndex(set: SetLike, value: ResponseValue): number {
  return viewOf(set.schema).optionIndex(value, setOptions(set));
}

/** Colours of the options, in order. */
export function optionColors(schema: Schema, count: number): string[] {
  return SCHEMA_VIEWS[schema].colors(count);
}

/** How a schema's score reads, or null for a schema without one. */
export function scoreView(schema: Schema): ScoreView<Schema> | null {
  return SCHEMA_VIEWS[schema].score as ScoreView<Schema> | null;
}

/** A value of a set's score in words: "82%", "4.2 ★", "+0.35". */
export function formatScoreOf(set: SetLike, value: number): string {
  return scoreView(set.schema)?.format(value, set.schemaConfig as never) ?? String(value);
}

/**
 * A change since the previous period in plain words: "down 12 points, outside the noise",
 * "up 0.3 stars, within the noise", "8 fewer responses". The noise is the change's 95%
 * interval (docs/api.md, "Scores"): outside it when the interval excludes no change.
 */
export function changeWords(change: ScoreChange, schema: Schema | undefined): string {
  const score = schema ? scoreView(schema) : null;
  if (change.method === 'count' || !score) {
    const fewer = change.delta < 0;
    if (change.delta === 0) return 'as many responses as the period before';
    return `${plural(Math.abs(change.delta), fewer ? 'fewer response' : 'more response', fewer ? 'fewer responses' : 'more responses')}`;
  }
  const amount = score.amount(change.delta);
  const direction = change.delta > 0 ? `up ${amount}` : change.delta < 0 ? `down ${amount}` : 'unchanged';
  return `${direction}, ${change.significant ? 'outside the noise' : 'within the noise'}`;
}

/** The summary of a period in plain words (`set` is absent for a project, whose aggregation has the pulse shape). */
export function summaryText(data: ResponseAggregation, set: SetLike | undefined): string {
  if (data.count === 0) return 'No feedback in this period.';
  return viewOfData(data).summary(data as never, set ? setOptions(set) : [], set?.schemaConfig as never);
}

/** The chart of a period's points and its data table. */
export function chartOf(
  data: ResponseAggregation,
  set: SetLike | undefined,
  granularity: Granularity,
  keys: string[],
  pointCounts: (number | undefined)[],
): { spec: ChartSpec; table: Table } {
  const options = set ? setOptions(set) : [];
  return viewOfData(data).chart({
    data: data as never,
    config: set?.schemaConfig as never,
    options,
    colors: set ? optionColors(set.schema, options.length) : [],
    labels: keys.map((key) => pointLabel(granularity, key)),
    titles: keys.map((key) => pointTitle(granularity, key)),
    pointCounts,
  });
}

/** Responses per data point of a period. */
export function pointTotals(data: ResponseAggregation): number[] {
  return viewOfData(data).pointTotals(data as never);
}

/** The set's schema's part of the snippets. */
export function snippetParts(set: ContentSet, count: string[]): SnippetParts {
  return viewOf(set.schema).snippet({ set, config: set.schemaConfig as never, options: setOptions(set), count });
}
