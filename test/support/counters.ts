import type { Counter } from '../../functions/domain/aggregation';

const round = (value: number) => Math.round(value * 1e9) / 1e9 || 0;

/**
 * A counter as comparisons should see it: float sums rounded (the order of additions may
 * differ between two ways of counting), options as a sparse map (trailing zeros do not
 * matter).
 */
export function normalCounter(counter: Counter) {
  return {
    count: counter.count,
    options: Object.fromEntries(counter.options.map((value, index) => [index, value]).filter(([, value]) => value !== 0)),
    sentimentSum: round(counter.sentimentSum),
    sentimentCount: counter.sentimentCount,
    intensitySum: round(counter.intensitySum),
    intensityCount: counter.intensityCount,
    ratingSum: round(counter.ratingSum),
  };
}
