import type normalCdfFunction from '@stdlib/stats-base-dists-normal-cdf';
import type normalQuantileFunction from '@stdlib/stats-base-dists-normal-quantile';
import type tCdfFunction from '@stdlib/stats-base-dists-t-cdf';
import type tQuantileFunction from '@stdlib/stats-base-dists-t-quantile';

/**
 * The scores of docs/api.md ("Scores and their uncertainty"): a period's score with its
 * confidence interval, and the change between two periods with the interval of the
 * difference. Pure; the quantiles come from stdlib's maintained distribution functions.
 *
 * - A proportion: Wilson's score interval, no continuity correction (Wilson 1927; Newcombe
 *   1998a, method 3). Its change: Newcombe's hybrid score interval built from the two Wilson
 *   intervals (Newcombe 1998b, method 10).
 * - A mean: Student's t interval with the sample variance (n >= 2; n = 1 gives the whole
 *   scale), clipped to the scale. Its change: Welch's t interval with the Welch-Satterthwaite
 *   degrees of freedom, clipped to the largest possible difference.
 *
 * A change's p-value is its interval's own (`changePValue`): the p at which the interval of
 * confidence 1 - p has an end at 0, so p < 0.05 exactly when the 95% interval excludes 0.
 * A drop's p-value (`dropPValue`), the alerts' test, counts only a fall.
 */

export interface ScoreInterval {
  value: number;
  low: number;
  high: number;
  method: 'wilson' | 't';
}

export interface ScoreChange {
  delta: number;
  low: number | null;
  high: number | null;
  significant: boolean | null;
  method: 'newcombe' | 'welch' | 'count';
}

/** What a period's counts say about a score: a proportion (yes-no) or a mean of values (rating, sentiment). */
export type ScoreSample =
  | { kind: 'proportion'; successes: number; n: number }
  | { kind: 'mean'; n: number; sum: number; sumOfSquares: number; min: number; max: number }; // min/max: the scale's range for clipping

export type ProportionSample = Extract<ScoreSample, { kind: 'proportion' }>;
export type MeanSample = Extract<ScoreSample, { kind: 'mean' }>;

export const DEFAULT_CONFIDENCE = 0.95;

/**
 * stdlib's quantile functions, loaded at their first use: the two packages bring 136 small
 * packages (427 module files, a third of a second of CPU to load, measured), which every
 * importer of this module paid at load (the registry through the alert models, the stream
 * consumers), also where no interval is ever computed: a Lambda cold start, each test file.
 * The distribution functions of the p-values likewise.
 */
let quantiles: { normal: typeof normalQuantileFunction; t: typeof tQuantileFunction } | undefined;
let distributions: { normal: typeof normalCdfFunction; t: typeof tCdfFunction } | undefined;

function loadedQuantiles(): NonNullable<typeof quantiles> {
  quantiles ??= { normal: require('@stdlib/stats-base-dists-normal-quantile'), t: require('@stdlib/stats-base-dists-t-quantile') };
  return quantiles;
}

function loadedDistributions(): NonNullable<typeof distributions> {
  distributions ??= { normal: require('@stdlib/stats-base-dists-normal-cdf'), t: require('@stdlib/stats-base-dists-t-cdf') };
  return distributions;
}

function normalQuantile(p: number, mu: number, sigma: number): number {
  return loadedQuantiles().normal(p, mu, sigma);
}

function tQuantile(p: number, degrees: number): number {
  return loadedQuantiles().t(p, degrees);
}

/** The two-sided critical value of the standard normal distribution (1.959964 for 95%). */
function normalCritical(confidence: number): number {
  return normalQuantile(1 - (1 - confidence) / 2, 0, 1);
}

function checkConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must lie strictly between 0 and 1, got ${confidence}`);
}

function clip(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Wilson's score interval of successes / n (n >= 1), no continuity correction. */
function wilson({ successes, n }: ProportionSample, z: number): ScoreInterval {
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Clipped for float noise only: the exact bounds lie in [0, 1], and equal p at 0 of n and n of n.
  return {
    value: p,
    low: successes === 0 ? 0 : clip(centre - half, 0, p),
    high: successes === n ? 1 : clip(centre + half, p, 1),
    method: 'wilson',
  };
}

/** The mean and the sample variance (n >= 2; 0 for n = 1); rounding noise never makes the variance negative. */
function moments({ n, sum, sumOfSquares }: MeanSample): { mean: number; variance: number } {
  const mean = sum / n;
  const variance = n < 2 ? 0 : Math.max(0, (sumOfSquares - sum * mean) / (n - 1));
  return { mean, variance };
}

function tInterval(sample: MeanSample, confidence: number): ScoreInterval {
  const { n, min, max } = sample;
  const { mean, variance } = moments(sample);
  if (n < 2) return { value: mean, low: min, high: max, method: 't' };
  const half = tQuantile(1 - (1 - confidence) / 2, n - 1) * Math.sqrt(variance / n);
  return { value: mean, low: clip(mean - half, min, max), high: clip(mean + half, min, max), method: 't' };
}

/** The score of a period and its interval at `confidence` (default 95%); null when nothing was counted. */
export function scoreInterval(sample: ScoreSample, confidence = DEFAULT_CONFIDENCE): ScoreInterval | null {
  checkConfidence(confidence);
  if (sample.n <= 0) return null;
  return sample.kind === 'proportion' ? wilson(sample, normalCritical(confidence)) : tInterval(sample, confidence);
}

function significance(low: number, high: number): boolean {
  return low > 0 || high < 0;
}

/** The ends of Newcombe's hybrid score interval for p1 - p2 at critical value z. */
function newcombeBounds(current: ProportionSample, previous: ProportionSample, z: number): { delta: number; low: number; high: number } {
  const one = wilson(current, z);
  const two = wilson(previous, z);
  const delta = one.value - two.value;
  const low = delta - Math.sqrt((one.value - one.low) ** 2 + (two.high - two.value) ** 2);
  const high = delta + Math.sqrt((one.high - one.value) ** 2 + (two.value - two.low) ** 2);
  return { delta, low, high };
}

/** Newcombe's hybrid score interval for p1 - p2 (1998b, method 10): each side from the nearer bounds of the two Wilson intervals. */
function newcombe(current: ProportionSample, previous: ProportionSample, z: number): ScoreChange {
  const { delta, low, high } = newcombeBounds(current, previous, z);
  return { delta, low, high, significant: significance(low, high), method: 'newcombe' };
}

/** Past this critical value the two-sided p-value is below 1e-300: 0 as far as any decision goes. */
const MAX_CRITICAL = 37;

/**
 * The p-value of Newcombe's interval: the z at which its end nearer 0 reaches 0, found by
 * bisection (the ends move outward as z grows, since each Wilson bound does), as the
 * two-sided normal tail 2 * Phi(-z). The interval has no closed-form inverse, and no
 * maintained package finds a root of a function: 80 halvings of [0, 37] leave z within 1e-22.
 */
function newcombePValue(current: ProportionSample, previous: ProportionSample): number {
  const delta = current.successes / current.n - previous.successes / previous.n;
  if (delta === 0) return 1;
  const reachesZero = (z: number) => {
    const bounds = newcombeBounds(current, previous, z);
    return delta < 0 ? bounds.high >= 0 : bounds.low <= 0;
  };
  if (!reachesZero(MAX_CRITICAL)) return 0;
  let inside = 0;
  let outside = MAX_CRITICAL;
  for (let step = 0; step < 80; step++) {
    const middle = (inside + outside) / 2;
    if (reachesZero(middle)) outside = middle;
    else inside = middle;
  }
  return Math.min(1, 2 * loadedDistributions().normal(-(inside + outside) / 2, 0, 1));
}

/**
 * Welch's interval for mean1 - mean2. With fewer than two values on a side its variance is
 * unknown, so the interval is every possible difference; with no spread on either side it is
 * the difference itself (the t interval's own degenerate answer).
 */
function welch(current: MeanSample, previous: MeanSample, confidence: number): ScoreChange {
  const one = moments(current);
  const two = moments(previous);
  const delta = one.mean - two.mean;
  const range = Math.max(current.max, previous.max) - Math.min(current.min, previous.min);
  if (current.n < 2 || previous.n < 2) return { delta, low: -range, high: range, significant: false, method: 'welch' };
  const shareOne = one.variance / current.n;
  const shareTwo = two.variance / previous.n;
  const standardError = Math.sqrt(shareOne + shareTwo);
  if (standardError === 0) return { delta, low: delta, high: delta, significant: delta !== 0, method: 'welch' };
  const degrees = (shareOne + shareTwo) ** 2 / (shareOne ** 2 / (current.n - 1) + shareTwo ** 2 / (previous.n - 1));
  const half = tQuantile(1 - (1 - confidence) / 2, degrees) * standardError;
  const low = clip(delta - half, -range, range);
  const high = clip(delta + half, -range, range);
  return { delta, low, high, significant: significance(low, high), method: 'welch' };
}

/**
 * Welch's t statistic of mean1 - mean2 and its Welch-Satterthwaite degrees of freedom;
 * undefined when a side has fewer than two values (its variance is unknown). With no spread
 * on either side the statistic is infinite for a change and 0 for none.
 */
function welchStatistic(current: MeanSample, previous: MeanSample): { t: number; degrees: number } | undefined {
  if (current.n < 2 || previous.n < 2) return undefined;
  const one = moments(current);
  const two = moments(previous);
  const delta = one.mean - two.mean;
  const shareOne = one.variance / current.n;
  const shareTwo = two.variance / previous.n;
  const standardError = Math.sqrt(shareOne + shareTwo);
  if (standardError === 0) return { t: delta === 0 ? 0 : delta * Number.POSITIVE_INFINITY, degrees: current.n + previous.n - 2 };
  const degrees = (shareOne + shareTwo) ** 2 / (shareOne ** 2 / (current.n - 1) + shareTwo ** 2 / (previous.n - 1));
  return { t: delta / standardError, degrees };
}

/** Student's t distribution function (stdlib's: 0 and 1 at the infinite statistics of samples without spread). */
function tCdf(t: number, degrees: number): number {
  return loadedDistributions().t(t, degrees);
}

/** The two-sided p-value of Welch's t test, the one its interval inverts; 1 where the interval is every possible difference. */
function welchPValue(current: MeanSample, previous: MeanSample): number {
  const statistic = welchStatistic(current, previous);
  if (!statistic) return 1;
  return Math.min(1, 2 * tCdf(-Math.abs(statistic.t), statistic.degrees));
}

/**
 * The two-sided p-value of the change from `previous` to `current`, from the same method as
 * its interval (Newcombe's for proportions, Welch's for means): the interval at confidence
 * 1 - p has an end at 0, so the 95% interval excludes 0 exactly when p < 0.05. Null when
 * either counted nothing.
 */
export function changePValue(current: ScoreSample, previous: ScoreSample): number | null {
  if (current.n <= 0 || previous.n <= 0) return null;
  if (current.kind === 'proportion' && previous.kind === 'proportion') return newcombePValue(current, previous);
  if (current.kind === 'mean' && previous.kind === 'mean') return welchPValue(current, previous);
  throw new TypeError(`cannot compare a ${current.kind} with a ${previous.kind}`);
}

/**
 * The p-value of a drop from `previous` to `current`, the test of an alert (docs/api.md
 * "Alerts"): only a fall of the score counts, so a rise has a p-value of at least one half.
 *
 * - A mean: Welch's one-sided t test (the alternative: the mean fell), F(t) with the same
 *   statistic and degrees as the interval: half the two-sided p-value for a fall. Below
 *   0.025 exactly when the 95% interval lies below 0. Its size for a fall is at most the
 *   level (ratings skewed towards the top of the scale, as most are, make it conservative:
 *   a low mean comes with a high variance).
 * - A share: twice the one-sided p-value of Newcombe's interval for a fall, that is the
 *   two-sided `changePValue`, and 1 for a rise. The one-sided half is not used because the
 *   interval's normal approximation understates the chance of a large fall from a high share
 *   about twice at the levels many pages are tested at (docs/api.md "Alerts"); doubled, its
 *   size for a fall is about the level.
 *
 * Null when either counted nothing.
 */
export function dropPValue(current: ScoreSample, previous: ScoreSample): number | null {
  if (current.n <= 0 || previous.n <= 0) return null;
  if (current.kind === 'proportion' && previous.kind === 'proportion') {
    return current.successes / current.n < previous.successes / previous.n ? newcombePValue(current, previous) : 1;
  }
  if (current.kind === 'mean' && previous.kind === 'mean') {
    const statistic = welchStatistic(current, previous);
    return statistic ? tCdf(statistic.t, statistic.degrees) : 1;
  }
  throw new TypeError(`cannot compare a ${current.kind} with a ${previous.kind}`);
}

/** The change of the score from `previous` to `current` with its interval; null when either counted nothing. */
export function scoreChange(current: ScoreSample, previous: ScoreSample, confidence = DEFAULT_CONFIDENCE): ScoreChange | null {
  checkConfidence(confidence);
  if (current.n <= 0 || previous.n <= 0) return null;
  if (current.kind === 'proportion' && previous.kind === 'proportion') return newcombe(current, previous, normalCritical(confidence));
  if (current.kind === 'mean' && previous.kind === 'mean') return welch(current, previous, confidence);
  throw new TypeError(`cannot compare a ${current.kind} with a ${previous.kind}`);
}

/** The change of a count alone, for schemas without a score: no interval, no significance. */
export function countChange(current: number, previous: number): ScoreChange {
  return { delta: current - previous, low: null, high: null, significant: null, method: 'count' };
}
