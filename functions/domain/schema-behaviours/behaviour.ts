import * as z from 'zod';
import type { Schema, SchemaConfig } from '../../../shared/schema-options';
import { type Contribution, type Counter, nonNegative, type ResponseAggregation } from '../aggregation';
import type { ScoreSample } from '../statistics';
import { storable } from '../stored-numbers';

/** A stored response value: an option's value, a rating, a message, or a tag with its message. */
export type NormalizedValue = string | number | { tag: string; message?: string };

export type ValueResult = { ok: true; value: NormalizedValue; contribution: Contribution } | { ok: false; reason: string };

/** The export's value, tag and message columns of one response. */
export interface ExportCells {
  value: string;
  tag: string;
  message: string;
}

/** The counters of one period: its data points', oldest first, their sum, and the non-negative count. */
export interface PeriodCounters {
  optionCount: number;
  period: string;
  points: Counter[];
  total: Counter;
  count: number;
}

/**
 * Everything the server does differently per schema, in one record per schema
 * (SCHEMA_BEHAVIOURS in ../schemas.ts holds one for every name of SCHEMAS, so a new schema
 * without its record does not compile). The option labels are shared/schema-options.ts's,
 * since the console reads them too.
 */
export interface SchemaBehaviour<S extends Schema> {
  /** Parses a caller's schemaConfig and completes it with the defaults (its input is in the OpenAPI document). */
  config: z.ZodType<SchemaConfig[S], unknown>;
  /** Checks a response value: its stored form (one canonical spelling) and how it is counted, or why it is refused. */
  value(config: SchemaConfig[S], value: unknown): ValueResult;
  /**
   * What a period's counts say about its score (docs/api.md, "Scores"): a share or a mean
   * of values from the period's counter (its per-value counts), or `null`, said explicitly,
   * for a schema without one. Ranking by quality and the change between periods read it.
   */
  score: ((total: Counter, config: SchemaConfig[S]) => ScoreSample) | null;
  /** The SPEC's aggregation of one period from its counters. */
  aggregate(counters: PeriodCounters): Extract<ResponseAggregation, { schema: S }>;
  /** The value as a person reads it in a chat notification (`config` is absent when the set is gone). */
  describe(value: unknown, config: SchemaConfig[S] | undefined): string;
  /** The value in the export's value, tag and message columns. */
  exportCells(value: unknown): ExportCells;
  /** The value the export's cells hold, for `value` to check again: how an exported file imports back (npm run import). */
  valueOfCells(cells: ExportCells): unknown;
  /**
   * `onePerVisitor` of a set that does not say (docs/api.md, "One vote per visitor"): on
   * where a response is a vote, off where a visitor may well write several messages.
   */
  onePerVisitorByDefault: boolean;
}

/** The number of responses of each data point: the points of the shapes that count only (pulse, message, projects). */
export function pointCounts(points: Counter[]): number[] {
  return points.map((point) => nonNegative(point.count));
}

/**
 * The mean of the values `valueAt(option)` counted per option, on the scale [min, max]: the
 * sum of squares comes from the per-option counts (the counter keeps no such sum). Options
 * the counter has beyond the config (none today: options are never removed) are left out.
 */
export function meanOfOptions(total: Counter, optionCount: number, valueAt: (option: number) => number, min: number, max: number): ScoreSample {
  let n = 0;
  let sum = 0;
  let sumOfSquares = 0;
  for (let option = 0; option < optionCount; option++) {
    const count = nonNegative(total.options[option] ?? 0);
    const value = valueAt(option);
    n += count;
    sum += count * value;
    sumOfSquares += count * value * value;
  }
  return { kind: 'mean', n, sum, sumOfSquares, min, max };
}

export const BLANK_CELLS: ExportCells = { value: '', tag: '', message: '' };

/** A value as text when nothing better is known of it. */
export function plainText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value ?? '');
}

/** The config of the schemas that have none: only `{}` (or nothing) is accepted. */
export const emptyConfig = z.strictObject({}).transform(() => ({})) as unknown as z.ZodType<Record<string, never>, unknown>;

export const sentiment = storable(z.number().min(-1).max(1));
export const intensity = storable(z.number().min(0).max(1));
export const optionValue = z.string().min(1).max(30);

export function uniqueValues(options: { value: string }[]): boolean {
  return new Set(options.map((option) => option.value)).size === options.length;
}

export const MESSAGE_MAX_LENGTH = 4000;

/** Why a message is refused, or undefined. */
export function messageProblem(message: unknown): string | undefined {
  if (typeof message !== 'string') return 'must be a string';
  if (message.trim().length === 0) return 'must not be empty';
  if (message.length > MESSAGE_MAX_LENGTH) return `must be at most ${MESSAGE_MAX_LENGTH} characters`;
  return undefined;
}
