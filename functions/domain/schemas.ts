import * as z from 'zod';
import {
  DEFAULT_RATING,
  DEFAULT_TAGS,
  MAX_OPTIONS,
  REACTION_PRESETS,
  type AnySchemaConfig,
  type ReactionOption,
  type Schema,
  type SchemaConfig,
  type TagOption,
} from '../../shared/schema-options';

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

export const MESSAGE_MAX_LENGTH = 4000;

const sentiment = z.number().min(-1).max(1);
const intensity = z.number().min(0).max(1);
const optionValue = z.string().min(1).max(30);

const reactionOption = z.strictObject({ value: optionValue, sentiment, intensity }) satisfies z.ZodType<ReactionOption>;
const tagOption = z.strictObject({ value: optionValue, sentiment }) satisfies z.ZodType<TagOption>;

function uniqueValues(options: { value: string }[]): boolean {
  return new Set(options.map((option) => option.value)).size === options.length;
}

const reactionConfig = z
  .strictObject({
    preset: z.enum(Object.keys(REACTION_PRESETS) as [keyof typeof REACTION_PRESETS]).optional(),
    options: z.array(reactionOption).min(1).max(MAX_OPTIONS).refine(uniqueValues, 'option values must be unique').optional(),
  })
  .refine((config) => !(config.preset && config.options), 'give either preset or options, not both')
  .transform((config) => ({
    options: config.options ?? [...REACTION_PRESETS[config.preset ?? 'github']].map((option) => ({ ...option })),
  }));

const taggedMessageConfig = z
  .strictObject({
    tags: z.array(tagOption).min(1).max(MAX_OPTIONS).refine(uniqueValues, 'tag values must be unique').optional(),
  })
  .transform((config) => ({ tags: config.tags ?? DEFAULT_TAGS.map((tag) => ({ ...tag })) }));

const ratingConfig = z
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
  }, `(max - min) must be a whole number of steps, with at most ${MAX_OPTIONS} values`);

const emptyConfig = z.strictObject({}).transform(() => ({}));

/** The schemaConfig parser of each schema (the OpenAPI document describes their input). */
export const configParsers: { [S in Schema]: z.ZodType<SchemaConfig[S], unknown> } = {
  pulse: emptyConfig as z.ZodType<Record<string, never>, unknown>,
  'yes-no': emptyConfig as z.ZodType<Record<string, never>, unknown>,
  reaction: reactionConfig,
  rating: ratingConfig,
  message: emptyConfig as z.ZodType<Record<string, never>, unknown>,
  'tagged-message': taggedMessageConfig,
};

/** Validates a schemaConfig as given by a caller (null/undefined = defaults) and completes it. */
export function parseSchemaConfig(schema: Schema, input: unknown) {
  return configParsers[schema].safeParse(input ?? {});
}

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

export type NormalizedValue = string | number | { tag: string; message?: string };

export type ValueResult = { ok: true; value: NormalizedValue; contribution: Contribution } | { ok: false; reason: string };

const YES = new Set<unknown>(['y', 'yes', '+1', 1, true, '1', 'true']);
const NO = new Set<unknown>(['n', 'no', '-1', -1, false, 'false']);

function checkMessage(message: unknown): string | undefined {
  if (typeof message !== 'string') return 'must be a string';
  if (message.trim().length === 0) return 'must not be empty';
  if (message.length > MESSAGE_MAX_LENGTH) return `must be at most ${MESSAGE_MAX_LENGTH} characters`;
  return undefined;
}

/**
 * Checks a response value against its set's schema and returns the form we store.
 * Values with several spellings (yes-no) are stored in one canonical form so that
 * reads and counts agree; free text is stored verbatim.
 */
export function normalizeValue(schema: Schema, config: AnySchemaConfig, value: unknown): ValueResult {
  switch (schema) {
    case 'pulse':
      return value === '+' ? { ok: true, value: '+', contribution: { option: 0 } } : { ok: false, reason: 'a pulse value must be "+"' };
    case 'yes-no': {
      const normalized = typeof value === 'string' ? value.toLowerCase() : value;
      if (YES.has(normalized)) return { ok: true, value: 'y', contribution: { option: 0, sentiment: 1 } };
      if (NO.has(normalized)) return { ok: true, value: 'n', contribution: { option: 1, sentiment: -1 } };
      return { ok: false, reason: 'a yes-no value must be one of "y", "n", "yes", "no", "+1", "-1", true, false, 1, -1' };
    }
    case 'rating': {
      const { min, max, step } = config as SchemaConfig['rating'];
      const rating = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof rating !== 'number' || !Number.isFinite(rating)) return { ok: false, reason: 'a rating must be a number' };
      const steps = (rating - min) / step;
      if (rating < min - 1e-9 || rating > max + 1e-9 || Math.abs(steps - Math.round(steps)) > 1e-9) {
        return { ok: false, reason: `a rating must be between ${min} and ${max} in steps of ${step}` };
      }
      return { ok: true, value: rating, contribution: { option: Math.round(steps), rating } };
    }
    case 'reaction': {
      const { options } = config as SchemaConfig['reaction'];
      const option = options.findIndex((candidate) => candidate.value === value);
      if (option < 0) {
        return { ok: false, reason: `a reaction must be one of ${options.map((candidate) => JSON.stringify(candidate.value)).join(', ')}` };
      }
      const { sentiment, intensity } = options[option];
      return { ok: true, value: options[option].value, contribution: { option, sentiment, intensity } };
    }
    case 'message': {
      const problem = checkMessage(value);
      return problem ? { ok: false, reason: `a message ${problem}` } : { ok: true, value: value as string, contribution: { option: 0 } };
    }
    case 'tagged-message': {
      const { tags } = config as SchemaConfig['tagged-message'];
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return { ok: false, reason: 'a tagged message must be an object {tag, message?}' };
      }
      const { tag, message, ...rest } = value as Record<string, unknown>;
      if (Object.keys(rest).length > 0) return { ok: false, reason: `unknown fields: ${Object.keys(rest).join(', ')}` };
      const option = tags.findIndex((candidate) => candidate.value === tag);
      if (option < 0) return { ok: false, reason: `tag must be one of ${tags.map((candidate) => JSON.stringify(candidate.value)).join(', ')}` };
      if (message !== undefined && message !== null) {
        const problem = checkMessage(message);
        if (problem) return { ok: false, reason: `message ${problem}` };
      }
      const stored = typeof message === 'string' ? { tag: tags[option].value, message } : { tag: tags[option].value };
      return { ok: true, value: stored, contribution: { option, sentiment: tags[option].sentiment } };
    }
  }
}
