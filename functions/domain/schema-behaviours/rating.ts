import * as z from 'zod';
import { DEFAULT_RATING, MAX_OPTIONS } from '../../../shared/schema-options';
import { countsOf, mean, nonNegative } from '../aggregation';
import type { SchemaBehaviour } from './behaviour';
import { BLANK_CELLS, plainText } from './behaviour';

/** A number from min to max in steps (default 1 to 5 by 1); each step is an option, and the mean rating is the summary. */
export const rating: SchemaBehaviour<'rating'> = {
  config: z
    .strictObject({
      min: z.number().finite().optional(),
      max: z.number().finite().optional(),
      step: z.number().finite().positive().optional(),
    })
    .transform((config) => ({
      min: config.min ?? DEFAULT_RATING.min,
      max: config.max ?? DEFAULT_RATING.max,
      step: config.step ?? DEFAULT_RATING.step,
    }))
    .refine((config) => config.max > config.min, 'max must be greater than min')
    .refine((config) => {
      const steps = (config.max - config.min) / config.step;
      return Math.abs(steps - Math.round(steps)) < 1e-9 && Math.round(steps) + 1 <= MAX_OPTIONS;
    }, `(max - min) must be a whole number of steps, with at most ${MAX_OPTIONS} values`),
  value: ({ min, max, step }, value) => {
    const rated = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof rated !== 'number' || !Number.isFinite(rated)) return { ok: false, reason: 'a rating must be a number' };
    const steps = (rated - min) / step;
    if (rated < min - 1e-9 || rated > max + 1e-9 || Math.abs(steps - Math.round(steps)) > 1e-9) {
      return { ok: false, reason: `a rating must be between ${min} and ${max} in steps of ${step}` };
    }
    return { ok: true, value: rated, contribution: { option: Math.round(steps), rating: rated } };
  },
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
};
