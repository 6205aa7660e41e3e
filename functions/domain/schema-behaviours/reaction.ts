import * as z from 'zod';
import { MAX_OPTIONS, REACTION_PRESETS, type ReactionOption } from '../../../shared/schema-options';
import { countsOf, mean } from '../aggregation';
import type { SchemaBehaviour } from './behaviour';
import { BLANK_CELLS, intensity, meanOfOptions, optionValue, plainText, sentiment, uniqueValues } from './behaviour';

/** Emoji of the reaction presets' values (shared/schema-options.ts); other values are shown by name only. */
export const REACTION_EMOJI: Record<string, string> = {
  '+1': '👍',
  '-1': '👎',
  laugh: '😄',
  confused: '😕',
  heart: '❤️',
  hooray: '🎉',
  rocket: '🚀',
  eyes: '👀',
  like: '👍',
  love: '😍',
  wow: '😮',
  sad: '😢',
  angry: '😠',
  happy: '😊',
  neutral: '😐',
  hate: '😡',
};

const reactionOption = z.strictObject({ value: optionValue, sentiment, intensity }) satisfies z.ZodType<ReactionOption>;

/** One of the set's reactions (a preset of the widgets, or its own options), each with a sentiment and an intensity. */
export const reaction: SchemaBehaviour<'reaction'> = {
  config: z
    .strictObject({
      preset: z.enum(Object.keys(REACTION_PRESETS) as [keyof typeof REACTION_PRESETS]).optional(),
      options: z.array(reactionOption).min(1).max(MAX_OPTIONS).refine(uniqueValues, 'option values must be unique').optional(),
    })
    .refine((config) => !(config.preset && config.options), 'give either preset or options, not both')
    .transform((config) => ({
      options: config.options ?? [...REACTION_PRESETS[config.preset ?? 'github']].map((option) => ({ ...option })),
    })),
  value: ({ options }, value) => {
    const option = options.findIndex((candidate) => candidate.value === value);
    if (option < 0) {
      return { ok: false, reason: `a reaction must be one of ${options.map((candidate) => JSON.stringify(candidate.value)).join(', ')}` };
    }
    return { ok: true, value: options[option].value, contribution: { option, sentiment: options[option].sentiment, intensity: options[option].intensity } };
  },
  // The mean sentiment of the reactions, in [-1, 1].
  score: (total, { options }) => meanOfOptions(total, options.length, (option) => options[option].sentiment, -1, 1),
  aggregate: ({ optionCount, period, count, total, points }) => {
    const counts = countsOf(total, optionCount);
    return {
      schema: 'reaction',
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
  },
  describe: (value) => {
    const emoji = REACTION_EMOJI[String(value)];
    return emoji ? `${emoji} ${String(value)}` : String(value);
  },
  exportCells: (value) => ({ ...BLANK_CELLS, value: plainText(value) }),
  valueOfCells: (cells) => cells.value,
  onePerVisitorByDefault: true,
};
