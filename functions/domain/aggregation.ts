import type { Schema } from '../../shared/schema-options';

/**
 * How one response is counted: the option it falls in and the numbers averaged in
 * summaries. The stream consumer stores these with the response's weight (+1 / -1).
 */
export interface Contribution {
  option: number;
  sentiment?: number;
  intensity?: number;
  rating?: number;
}

/** The summed fields of a counter besides `count` and `options`; stored as one attribute each. */
export const COUNTER_SUMS = ['sentimentSum', 'sentimentCount', 'intensitySum', 'intensityCount', 'ratingSum'] as const;
export type CounterSum = (typeof COUNTER_SUMS)[number];

/**
 * What the service stores per (entity, bucket). Counters hold sums only, so that a
 * response can be added (+1) and taken back (-1) in any order and buckets can be summed
 * into periods; means are derived when read. `ratingSum`'s divisor is `count`: responses
 * without a rating do not exist in a rating set.
 */
export interface Counter extends Record<CounterSum, number> {
  count: number;
  /** Count per option index, in the order of optionLabels. */
  options: number[];
}

export function emptyCounter(optionCount: number): Counter {
  const counter = { count: 0, options: new Array<number>(optionCount).fill(0) } as Counter;
  for (const field of COUNTER_SUMS) counter[field] = 0;
  return counter;
}

/**
 * Counts a response with `weight` +1 (created, or the new value of an edit) or -1
 * (revoked, or the old value of an edit). `options` grows when the contribution names an
 * option beyond it, so a counter written before options were added stays usable.
 */
export function addContribution(counter: Counter, contribution: Contribution, weight: number): Counter {
  const { option, sentiment, intensity, rating } = contribution;
  if (!Number.isInteger(option) || option < 0) throw new RangeError(`option must be a non-negative integer, got ${option}`);
  const options = [...counter.options];
  while (options.length <= option) options.push(0);
  options[option] += weight;
  return {
    count: counter.count + weight,
    options,
    sentimentSum: counter.sentimentSum + (sentiment ?? 0) * weight,
    sentimentCount: counter.sentimentCount + (sentiment === undefined ? 0 : weight),
    intensitySum: counter.intensitySum + (intensity ?? 0) * weight,
    intensityCount: counter.intensityCount + (intensity === undefined ? 0 : weight),
    ratingSum: counter.ratingSum + (rating ?? 0) * weight,
  };
}

/** Element-wise sum; the shorter `options` counts as zeros where it ends. */
export function mergeCounters(a: Counter, b: Counter): Counter {
  const optionCount = Math.max(a.options.length, b.options.length);
  const merged = {
    count: a.count + b.count,
    options: Array.from({ length: optionCount }, (_, index) => (a.options[index] ?? 0) + (b.options[index] ?? 0)),
  } as Counter;
  for (const field of COUNTER_SUMS) merged[field] = a[field] + b[field];
  return merged;
}

/** Equal up to float noise (sums of fractional sentiments are binary floats; DynamoDB adds decimals exactly). */
function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Same counts and sums (a missing option counts as 0). */
export function sameCounter(a: Counter, b: Counter): boolean {
  const length = Math.max(a.options.length, b.options.length);
  for (let index = 0; index < length; index++) if (!close(a.options[index] ?? 0, b.options[index] ?? 0)) return false;
  return close(a.count, b.count) && COUNTER_SUMS.every((field) => close(a[field], b[field]));
}

/** Every count and sum is 0 (up to float noise): such a delta changes nothing and is not written. */
export function isZeroCounter(counter: Counter): boolean {
  return sameCounter(counter, emptyCounter(0));
}

export function sumCounters(counters: Counter[], optionCount: number): Counter {
  return counters.reduce(mergeCounters, emptyCounter(optionCount));
}

/* Read side: the SPEC's ResponseAggregation union, distinguished by `schema`. */

interface AggregationBase {
  schema: Schema;
  /** Name of the period, e.g. 'week'. */
  period: string;
  values: number[];
  count: number;
}

export interface ResponsePulseAggregation extends AggregationBase {
  schema: 'pulse';
  /** Responses per data point (an extension: SPEC gives the pulse shape no points). */
  points: number[];
}

export interface ResponseYesNoAggregation extends AggregationBase {
  schema: 'yes-no';
  /** [yes, no] per data point. */
  points: [number, number][];
  counts: [number, number];
  /** In [-1, 1]: -1 all no, +1 all yes. */
  summary: number;
}

export interface ResponseReactionAggregation extends AggregationBase {
  schema: 'reaction';
  /** [count per reaction, mean sentiment, mean intensity] per data point. */
  points: [number[], number, number][];
  counts: number[];
  /** Mean sentiment in [-1, 1]. */
  summary?: number;
  /** Mean intensity in [0, 1]. */
  intensity?: number;
}

export interface ResponseRatingAggregation extends AggregationBase {
  schema: 'rating';
  /** [count, mean rating] per data point. */
  points: [number, number][];
  /** Mean rating in the period. */
  summary: number;
}

export interface ResponseMessageAggregation extends AggregationBase {
  schema: 'message';
  /** Responses per data point (an extension: SPEC gives the message shape no points). */
  points: number[];
}

export interface ResponseTaggedMessageAggregation extends AggregationBase {
  schema: 'tagged-message';
  /** [count per tag, mean sentiment] per data point. */
  points: [number[], number][];
  counts: number[];
  /** Mean sentiment in [-1, 1]. */
  summary?: number;
}

export type ResponseAggregation =
  | ResponsePulseAggregation
  | ResponseYesNoAggregation
  | ResponseReactionAggregation
  | ResponseRatingAggregation
  | ResponseMessageAggregation
  | ResponseTaggedMessageAggregation;

/**
 * Sums of fractional sentiments pick up float noise (0.1 + 0.2); six decimals hide it.
 * `|| 0` turns -0 into 0, which JSON would print as 0 anyway but comparisons would not.
 */
export function round(value: number): number {
  return Math.round(value * 1e6) / 1e6 || 0;
}

/**
 * A removal can be counted before the creation it takes back (after a replay of the
 * stream, for instance), so a counter may briefly be negative.
 * Readers see 0 instead; the counter itself keeps the true sum so that it converges.
 */
export function nonNegative(count: number): number {
  return Math.max(0, count);
}

export function mean(sum: number, count: number): number {
  return count > 0 ? round(sum / count) : 0;
}

export function countsOf(counter: Counter, optionCount: number): number[] {
  return Array.from({ length: optionCount }, (_, index) => nonNegative(counter.options[index] ?? 0));
}

/** The aggregation's `summary`, for the members that have one (AggregatedData.summary). */
export function summaryOf(aggregation: ResponseAggregation): number | undefined {
  return 'summary' in aggregation ? aggregation.summary : undefined;
}
