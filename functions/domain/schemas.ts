import { SCHEMAS, type AnySchemaConfig, type Schema, type SchemaConfig } from '../../shared/schema-options';
import { nonNegative, sumCounters, type Counter, type ResponseAggregation } from './aggregation';
import type { ScoreSample } from './statistics';
import type { ExportCells, SchemaBehaviour, ValueResult } from './schema-behaviours/behaviour';
import { message } from './schema-behaviours/message';
import { pulse } from './schema-behaviours/pulse';
import { rating } from './schema-behaviours/rating';
import { reaction } from './schema-behaviours/reaction';
import { taggedMessage } from './schema-behaviours/tagged-message';
import { yesNo } from './schema-behaviours/yes-no';

/**
 * Feedback schemas of a content set: which values a response may carry and how they
 * are counted. `schemaConfig` is validated and completed here, once, when a set is
 * created or saved; responses and aggregates then rely on the stored, complete form.
 * The names, presets and option labels live in schema-options.ts (no zod, so the console
 * can bundle them) and are re-exported here.
 */

export {
  DEFAULT_RATING,
  DEFAULT_TAGS,
  MAX_OPTIONS,
  optionLabels,
  REACTION_PRESETS,
  SCHEMAS,
  type AnySchemaConfig,
  type ReactionOption,
  type Schema,
  type SchemaConfig,
  type TagOption,
} from '../../shared/schema-options';

export { MESSAGE_MAX_LENGTH, type NormalizedValue, type ValueResult } from './schema-behaviours/behaviour';
export type { Contribution } from './aggregation';

/** What each schema does on the server, one record per schema (schema-behaviours/): a schema without one does not compile. */
export const SCHEMA_BEHAVIOURS: { [S in Schema]: SchemaBehaviour<S> } = {
  pulse,
  'yes-no': yesNo,
  reaction,
  rating,
  message,
  'tagged-message': taggedMessage,
};

function behaviourOf<S extends Schema>(schema: S): SchemaBehaviour<S> {
  return SCHEMA_BEHAVIOURS[schema];
}

/** A set's `onePerVisitor` as it applies: as saved, else its schema's default (sets saved before the setting have none). */
export function onePerVisitorOf(set: { schema: Schema; onePerVisitor?: boolean }): boolean {
  return set.onePerVisitor ?? behaviourOf(set.schema).onePerVisitorByDefault;
}

export function isSchema(name: unknown): name is Schema {
  return typeof name === 'string' && Object.hasOwn(SCHEMA_BEHAVIOURS, name);
}

/** The schemaConfig parser of each schema (the OpenAPI document describes their input). */
export const configParsers = Object.fromEntries(SCHEMAS.map((schema) => [schema, behaviourOf(schema).config])) as {
  [S in Schema]: SchemaBehaviour<S>['config'];
};

/** Validates a schemaConfig as given by a caller (null/undefined = defaults) and completes it. */
export function parseSchemaConfig(schema: Schema, input: unknown) {
  return behaviourOf(schema).config.safeParse(input ?? {});
}

/**
 * Checks a response value against its set's schema and returns the form we store.
 * Values with several spellings (yes-no) are stored in one canonical form so that
 * reads and counts agree; free text is stored verbatim.
 */
export function normalizeValue<S extends Schema>(schema: S, config: AnySchemaConfig, value: unknown): ValueResult {
  return behaviourOf(schema).value(config as SchemaConfig[S], value);
}

/**
 * The aggregation of one period for an entity whose responses all have `schema`.
 * `points` are the counters of the period's data points, oldest first; the period total
 * is their sum.
 */
export function buildAggregation(schema: Schema, optionCount: number, period: string, points: Counter[]): ResponseAggregation {
  const total = sumCounters(points, optionCount);
  return behaviourOf(schema).aggregate({ optionCount, period, points, total, count: nonNegative(total.count) });
}

/**
 * A project's sets can have different schemas, whose options and means do not add up;
 * only the number of responses does, so a project is aggregated in the pulse shape.
 */
export function buildProjectAggregation(period: string, points: Counter[]): ResponseAggregation {
  return buildAggregation('pulse', 1, period, points);
}

/** Whether a schema has a score (docs/api.md, "Scores"): pulse and message do not. */
export function hasScore(schema: Schema): boolean {
  return behaviourOf(schema).score !== null;
}

/** What a period's counter says about the set's score, or undefined for a schema without one. */
export function scoreSample(schema: Schema, config: AnySchemaConfig, total: Counter): ScoreSample | undefined {
  const score = behaviourOf(schema).score as ((total: Counter, config: AnySchemaConfig) => ScoreSample) | null;
  return score?.(total, config);
}

/** The value the export's value, tag and message cells hold (the inverse of readableValue). */
export function valueOfCells(schema: Schema, cells: ExportCells): unknown {
  return behaviourOf(schema).valueOfCells(cells);
}

/** A stored value as a person reads it, in the export's value, tag and message columns. */
export function readableValue(schema: Schema, value: unknown): ExportCells {
  return behaviourOf(schema).exportCells(value);
}

/**
 * The value of a response as a person reads it (chat notifications). `config` is the set's
 * complete schemaConfig; `schema` is absent when the set is gone, and the value is then
 * shown as it is stored.
 */
export function describeValue(schema: string | undefined, config: unknown, value: unknown): string {
  if (!isSchema(schema)) return typeof value === 'string' ? value : JSON.stringify(value);
  return behaviourOf(schema).describe(value, config as SchemaConfig[typeof schema] | undefined);
}
