import * as z from 'zod';
import { DEFAULT_RATING, MAX_OPTIONS, ratingOfOption, ratingOptionCount, STEP_TOLERANCE } from '../../../shared/schema-options';
import { countsOf, mean, nonNegative } from '../aggregation';
import { isStorableNumber, STORED_NUMBER_RULE, storable } from '../stored-numbers';
import type { SchemaBehaviour } from './behaviour';
import { BLANK_CELLS, meanOfOptions, plainText } from './behaviour';

/**
 * How far from 0 a rating's bounds may be. The counters sum ratings, and their sums must stay
 * within ±(2^53 - 1), what the table and JavaScript hold exactly: a million keeps that true for
 * billions of responses, far beyond any rating scale.
 */
export const RATING_LIMIT = 1_000_000;

/** A rating written as a string: decimal digits, an optional fraction and exponent (`"4"`, `"4.5"`, `"-1"`, `"1e-7"`), nothing else. */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

const bound = storable(z.number().min(-RATING_LIMIT).max(RATING_LIMIT));
const stepSize = storable(
  z
    .number()
    .positive()
    .max(2 * RATING_LIMIT),
);

/**
 * The option of a rating on the scale, or undefined: a rating is within [min, max] (also
 * within STEP_TOLERANCE of a bound outside it is off the scale: 5.0000000009 is no rating
 * of 1 to 5) and within STEP_TOLERANCE of a step, which is what it is stored and counted as
 * (docs/api.md, "Response values per schema"). The tolerance only absorbs the rounding of
 * decimal fractions (0.1 + 0.2 for the step 0.3).
 */
function ratingOption(config: { min: number; max: number; step: number }, rated: number): number | undefined {
  if (rated < config.min || rated > config.max) return undefined;
  const option = Math.round((rated - config.min) / config.step);
  return Math.abs(rated - ratingOfOption(config, option)) <= STEP_TOLERANCE ? option : undefined;
}

function scaleWords({ min, max, step }: { min: number; max: number; step: number }): string {
  return `a rating is from ${min} to ${max} in steps of ${step}`;
}

/** A refused value as the error names it: JSON, the first 40 characters of a long one. */
function valueText(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A number from min to max in steps (default 1 to 5 by 1); each step is an option, and the mean rating is the summary. */
export const rating: SchemaBehaviour<'rating'> = {
  config: z
    .strictObject({
      min: bound.optional(),
      max: bound.optional(),
      step: stepSize.optional(),
    })
    .transform((config) => ({
      min: config.min ?? DEFAULT_RATING.min,
      max: config.max ?? DEFAULT_RATING.max,
      step: config.step ?? DEFAULT_RATING.step,
    }))
    .refine((config) => config.max > config.min, 'max must be greater than min')
    .refine((config) => {
      const steps = (config.max - config.min) / config.step;
      return Math.abs(steps - Math.round(steps)) < STEP_TOLERANCE && Math.round(steps) >= 1 && Math.round(steps) + 1 <= MAX_OPTIONS;
    }, `(max - min) must be a whole number of steps, with at most ${MAX_OPTIONS} values`),
  value: (config, value) => {
    const rated = typeof value === 'string' && DECIMAL_TEXT.test(value) ? Number(value) : value;
    if (typeof rated !== 'number' || !Number.isFinite(rated)) {
      return { ok: false, reason: `${valueText(value)} is not a rating: a rating is a number, or a decimal number as a string` };
    }
    if (!isStorableNumber(rated)) return { ok: false, reason: `${valueText(value)} is not a rating: a rating must be ${STORED_NUMBER_RULE}` };
    const option = ratingOption(config, rated);
    if (option === undefined) return { ok: false, reason: `${valueText(value)} is not on this set's scale: ${scaleWords(config)}` };
    const onStep = ratingOfOption(config, option);
    return { ok: true, value: onStep, contribution: { option, rating: onStep } };
  },
  // The mean rating on the set's scale.
  score: (total, config) => meanOfOptions(total, ratingOptionCount(config), (option) => ratingOfOption(config, option), config.min, config.max),
  aggregate: ({ optionCount, period, count, total, points }) => ({
    schema: 'rating',
    period,
    values: countsOf(total, optionCount),
    count,
    summary: mean(total.ratingSum, total.count),
    points: points.map((point) => [nonNegative(point.count), mean(point.ratingSum, point.count)]),
  }),
  describe: (value, config) => (config?.max === undefined ? `★ ${String(value)}` : `★ ${String(value)} of ${config.max}`),
  exportCells: (value) => ({ ...BLANK_CELLS, value: plainText(value) }),
  // Decimal text, which `value` reads as the number.
  valueOfCells: (cells) => cells.value,
  onePerVisitorByDefault: true,
};
