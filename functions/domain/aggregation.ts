import type { Contribution, Schema } from './schemas';

/**
 * What the service stores per (entity, bucket). Counters hold sums only, so that a
 * response can be added (+1) and taken back (-1) in any order and buckets can be summed
 * into periods; means are derived when read.
 */
export interface Counter {
  count: number;
  /** Count per option index, in the order of optionLabels. */
  options: number[];
  sentimentSum: number;
  sentimentCount: number;
  intensitySum: number;
  intensityCount: number;
  /** Responses without a rating do not exist in a rating set, so `count` is its divisor. */
  ratingSum: number;
}

export function emptyCounter(optionCount: number): Counter {
  return {
    count: 0,
    options: new Array<number>(optionCount).fill(0),
    sentimentSum: 0,
    sentimentCount: 0,
    intensitySum: 0,
    intensityCount: 0,
    ratingSum: 0,
  };
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
  return {
    count: a.count + b.count,
    options: Array.from({ length: optionCount }, (_, index) => (a.options[index] ?? 0) + (b.options[index] ?? 0)),
    sentimentSum: a.sentimentSum + b.sentimentSum,
    sentimentCount: a.sentimentCount + b.sentimentCount,
    intensitySum: a.intensitySum + b.intensitySum,
    intensityCount: a.intensityCount + b.intensityCount,
    ratingSum: a.ratingSum + b.ratingSum,
  };
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
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6 || 0;
}

/**
 * A removal can be counted before the creation it takes back (after a replay of the
 * stream, for instance), so a counter may briefly be negative.
 * Readers see 0 instead; the counter itself keeps the true sum so that it converges.
 */
function nonNegative(count: number): number {
  return Math.max(0, count);
}

function mean(sum: number, count: number): number {
  return count > 0 ? round(sum / count) : 0;
}

function countsOf(counter: Counter, optionCount: number): number[] {
  return Array.from({ length: optionCount }, (_, index) => nonNegative(counter.options[index] ?? 0));
}

function yesNoOf(counter: Counter): [number, number] {
  return [nonNegative(counter.options[0] ?? 0), nonNegative(counter.options[1] ?? 0)];
}

/**
 * The aggregation of one period for an entity whose responses all have `schema`.
 * `points` are the counters of the period's data points, oldest first; the period total
 * is their sum.
 */
export function buildAggregation(schema: Schema, optionCount: number, period: string, points: Counter[]): ResponseAggregation {
  const total = sumCounters(points, optionCount);
  const count = nonNegative(total.count);
  switch (schema) {
    case 'pulse':
    case 'message':
      return { schema, period, values: [count], count };
    case 'yes-no': {
      const counts = yesNoOf(total);
      const [yes, no] = counts;
      return {
        schema,
        period,
        values: [...counts],
        count,
        counts,
        summary: yes + no > 0 ? round((yes - no) / (yes + no)) : 0,
        points: points.map(yesNoOf),
      };
    }
    case 'reaction': {
      const counts = countsOf(total, optionCount);
      return {
        schema,
        period,
        values: [...counts],
        count,
        counts,
        summary: mean(total.sentimentSum, total.sentimentCount),
        intensity: mean(total.intensitySum, total.intensityCount),
        points: points.map((point) => [
          countsOf(point, optionCount),
          mean(point.sentimentSum, point.sentimentCount),
          mean(point.intensitySum, point.intensityCount),
        ]),
      };
    }
    case 'rating':
      return {
        schema,
        period,
        values: countsOf(total, optionCount),
        count,
        summary: mean(total.ratingSum, total.count),
        points: points.map((point) => [nonNegative(point.count), mean(point.ratingSum, point.count)]),
      };
    case 'tagged-message': {
      const counts = countsOf(total, optionCount);
      return {
        schema,
        period,
        values: [...counts],
        count,
        counts,
        summary: mean(total.sentimentSum, total.sentimentCount),
        points: points.map((point) => [countsOf(point, optionCount), mean(point.sentimentSum, point.sentimentCount)]),
      };
    }
  }
}

/**
 * A project's sets can have different schemas, whose options and means do not add up;
 * only the number of responses does, so a project is aggregated in the pulse shape.
 */
export function buildProjectAggregation(period: string, points: Counter[]): ResponseAggregation {
  return buildAggregation('pulse', 1, period, points);
}

/** The aggregation's `summary`, for the members that have one (AggregatedData.summary). */
export function summaryOf(aggregation: ResponseAggregation): number | undefined {
  return 'summary' in aggregation ? aggregation.summary : undefined;
}
