/**
 * How each option of a set is shown: its label and emoji. The option order and values
 * come from the set's `schemaConfig` (shared/schema-options.ts, the server's own
 * order); the emoji and titles are those of the published widgets' presets.
 */
import { optionLabels, REACTION_PRESETS, type AnySchemaConfig, type Schema, type SchemaConfig } from '../../../shared/schema-options';
import type { ContentSet, ResponseValue } from '@feedback-service/client';

export interface OptionDisplay {
  /** The stored value (yes-no: 'y' / 'n'; rating: the number as text). */
  value: string;
  label: string;
  emoji?: string;
}

type Titles = Record<string, [emoji: string, title: string]>;

const PRESET_TITLES: Record<keyof typeof REACTION_PRESETS, Titles> = {
  github: {
    '+1': ['👍', 'Like'],
    '-1': ['👎', 'Dislike'],
    laugh: ['😄', 'Laugh'],
    confused: ['😕', 'Confused'],
    heart: ['❤️', 'Love'],
    hooray: ['🎉', 'Hooray!'],
    rocket: ['🚀', "Let's go!"],
    eyes: ['👀', 'What?'],
  },
  facebook: {
    like: ['👍', 'Like'],
    love: ['❤️', 'Love'],
    laugh: ['😄', 'AhAh'],
    wow: ['😮', 'Wow'],
    sad: ['😥', 'Cry'],
    angry: ['😡', 'Angry'],
  },
  feeling: { happy: ['🙂', 'Happy'], neutral: ['😐', 'Neutral'], sad: ['🙁', 'Sad'] },
  evaluation: { love: ['😍', 'Love it'], happy: ['🙂', "It's Ok"], sad: ['🙁', 'Not so great'], hate: ['😖', 'Hate it'] },
};

const TAG_TITLES: Titles = { idea: ['💡', 'Idea'], error: ['💥', 'Error'], other: ['💬', 'Other'] };

/** Any reaction value the presets know, for sets with their own option list. */
const ANY_REACTION: Titles = Object.assign({}, PRESET_TITLES.evaluation, PRESET_TITLES.feeling, PRESET_TITLES.facebook, PRESET_TITLES.github);

/** The widgets' preset a reaction set's options are exactly, if any. */
export function reactionPreset(config: SchemaConfig['reaction']): keyof typeof REACTION_PRESETS | undefined {
  const values = config.options.map((option) => option.value).join('\n');
  return (Object.keys(REACTION_PRESETS) as (keyof typeof REACTION_PRESETS)[]).find(
    (name) => REACTION_PRESETS[name].map((option) => option.value).join('\n') === values,
  );
}

/** Whether a tagged-message set uses the widgets' `feedback` tags (idea, error, other). */
export function usesFeedbackTags(config: SchemaConfig['tagged-message']): boolean {
  return config.tags.map((tag) => tag.value).join('\n') === 'idea\nerror\nother';
}

function titled(value: string, titles: Titles | undefined): OptionDisplay {
  const known = titles?.[value];
  return known ? { value, emoji: known[0], label: known[1] } : { value, label: value };
}

/** The options of a set in the order of `values`, `counts` and each point's counts. */
export function optionsOf(schema: Schema, config: AnySchemaConfig): OptionDisplay[] {
  switch (schema) {
    case 'pulse':
      return [{ value: '+', label: 'Responses', emoji: '❤️' }];
    case 'message':
      return [{ value: 'message', label: 'Messages', emoji: '💬' }];
    case 'yes-no':
      return [
        { value: 'y', label: 'Yes', emoji: '👍' },
        { value: 'n', label: 'No', emoji: '👎' },
      ];
    case 'reaction': {
      const preset = reactionPreset(config as SchemaConfig['reaction']);
      return optionLabels(schema, config).map((value) => titled(value, preset ? PRESET_TITLES[preset] : ANY_REACTION));
    }
    case 'tagged-message':
      return optionLabels(schema, config).map((value) => titled(value, TAG_TITLES));
    case 'rating':
      return optionLabels(schema, config).map((value) => ({ value, label: `${value} ★` }));
  }
}

export function setOptions(set: Pick<ContentSet, 'schema' | 'schemaConfig'>): OptionDisplay[] {
  return optionsOf(set.schema, set.schemaConfig);
}

/** Index of a stored value among the set's options (-1 when it is not one, e.g. a message). */
export function optionIndex(set: Pick<ContentSet, 'schema' | 'schemaConfig'>, value: ResponseValue): number {
  const options = setOptions(set);
  if (set.schema === 'tagged-message' && typeof value === 'object') return options.findIndex((option) => option.value === value.tag);
  if (set.schema === 'rating' && typeof value === 'number') return options.findIndex((option) => Number(option.value) === value);
  if (set.schema === 'pulse') return 0;
  return options.findIndex((option) => option.value === String(value));
}

export function optionText(option: OptionDisplay): string {
  return option.emoji ? `${option.emoji} ${option.label}` : option.label;
}

/** Colours of the options, in order (yes-no: green and red; ratings: from low to high). */
export function optionColors(schema: Schema, count: number): string[] {
  if (schema === 'yes-no') return ['#16a34a', '#dc2626'];
  if (schema === 'rating') {
    return Array.from({ length: count }, (_, index) => {
      const ratio = count > 1 ? index / (count - 1) : 1;
      return `hsl(${Math.round(ratio * 130)} 65% 45%)`;
    });
  }
  return Array.from({ length: count }, (_, index) => PALETTE[index % PALETTE.length]);
}

const PALETTE = ['#4f46e5', '#0891b2', '#ea580c', '#16a34a', '#db2777', '#ca8a04', '#7c3aed', '#0d9488', '#dc2626', '#2563eb', '#65a30d', '#9333ea'];

export const SCHEMA_NAMES: Record<Schema, string> = {
  pulse: 'Pulse',
  'yes-no': 'Yes / no',
  reaction: 'Reactions',
  rating: 'Rating',
  message: 'Message',
  'tagged-message': 'Tagged message',
};
