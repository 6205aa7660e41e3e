import * as z from 'zod';
import { DEFAULT_TAGS, MAX_OPTIONS, TAG_ICON_MAX_LENGTH, TAG_LABEL_MAX_LENGTH, type TagOption } from '../../../shared/schema-options';
import { countsOf, mean } from '../aggregation';
import { nameText } from '../names';
import type { SchemaBehaviour } from './behaviour';
import { BLANK_CELLS, meanOfOptions, messageProblem, optionValue, sentiment, uniqueValues } from './behaviour';

const tagOption = z.strictObject({
  value: optionValue,
  sentiment,
  label: nameText(TAG_LABEL_MAX_LENGTH).optional(),
  icon: nameText(TAG_ICON_MAX_LENGTH).optional(),
}) satisfies z.ZodType<TagOption, unknown>;

/** One of the set's tags (idea, error, other by default), each with a sentiment, and an optional message. */
export const taggedMessage: SchemaBehaviour<'tagged-message'> = {
  config: z
    .strictObject({
      tags: z.array(tagOption).min(1).max(MAX_OPTIONS).refine(uniqueValues, 'tag values must be unique').optional(),
    })
    .transform((config) => ({ tags: config.tags ?? DEFAULT_TAGS.map((tag) => ({ ...tag })) })),
  value: ({ tags }, value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, reason: 'a tagged message must be an object {tag, message?}' };
    }
    const { tag, message, ...rest } = value as Record<string, unknown>;
    if (Object.keys(rest).length > 0) return { ok: false, reason: `unknown fields: ${Object.keys(rest).join(', ')}` };
    const option = tags.findIndex((candidate) => candidate.value === tag);
    if (option < 0) return { ok: false, reason: `tag must be one of ${tags.map((candidate) => JSON.stringify(candidate.value)).join(', ')}` };
    if (message !== undefined && message !== null) {
      const problem = messageProblem(message);
      if (problem) return { ok: false, reason: `message ${problem}` };
    }
    const stored = typeof message === 'string' ? { tag: tags[option].value, message } : { tag: tags[option].value };
    return { ok: true, value: stored, contribution: { option, sentiment: tags[option].sentiment } };
  },
  // The mean sentiment of the tags, in [-1, 1].
  score: (total, { tags }) => meanOfOptions(total, tags.length, (option) => tags[option].sentiment, -1, 1),
  aggregate: ({ optionCount, period, count, total, points }) => {
    const counts = countsOf(total, optionCount);
    return {
      schema: 'tagged-message',
      period,
      values: [...counts],
      count,
      counts,
      summary: mean(total.sentimentSum, total.sentimentCount),
      points: points.map((point) => [countsOf(point, optionCount), mean(point.sentimentSum, point.sentimentCount)]),
    };
  },
  describe: (value) => {
    const { tag, message } = (value ?? {}) as { tag?: string; message?: string };
    return message ? `[${tag}] “${message}”` : `[${tag}]`;
  },
  exportCells: (value) => {
    const { tag, message } = (value ?? {}) as { tag?: unknown; message?: unknown };
    return { ...BLANK_CELLS, tag: tag === undefined ? '' : String(tag), message: message === undefined || message === null ? '' : String(message) };
  },
  // A blank message cell is no message (the export writes none as blank).
  valueOfCells: (cells) => (cells.message === '' ? { tag: cells.tag } : { tag: cells.tag, message: cells.message }),
  onePerVisitorByDefault: false,
};
