/**
 * The schemas' names, the widgets' presets and the option labels, without zod: the
 * console bundles this module (schemas.ts validates with zod and re-exports everything
 * here, so server code keeps importing from there).
 */
export const SCHEMAS = ['pulse', 'yes-no', 'reaction', 'rating', 'message', 'tagged-message'] as const;
export type Schema = (typeof SCHEMAS)[number];

export interface ReactionOption {
  value: string;
  /** In [-1, 1]. */
  sentiment: number;
  /** In [0, 1]. */
  intensity: number;
}

export interface TagOption {
  value: string;
  /** In [-1, 1]. */
  sentiment: number;
  /** What people read for the tag (the console, the widgets' tag picker); the value when absent. */
  label?: string;
  /** A short text shown before the label, typically an emoji. */
  icon?: string;
}

export type SchemaConfig = {
  pulse: Record<string, never>;
  'yes-no': Record<string, never>;
  reaction: { options: ReactionOption[] };
  rating: { min: number; max: number; step: number };
  message: Record<string, never>;
  'tagged-message': { tags: TagOption[] };
};
export type AnySchemaConfig = SchemaConfig[Schema];

/** Reaction presets of the published widgets, in their display order. */
export const REACTION_PRESETS = {
  github: [
    { value: '+1', sentiment: 1, intensity: 0.5 },
    { value: '-1', sentiment: -1, intensity: 0.5 },
    { value: 'laugh', sentiment: 1, intensity: 0.7 },
    { value: 'confused', sentiment: -0.5, intensity: 0.5 },
    { value: 'heart', sentiment: 1, intensity: 0.9 },
    { value: 'hooray', sentiment: 1, intensity: 0.8 },
    { value: 'rocket', sentiment: 1, intensity: 1 },
    { value: 'eyes', sentiment: 0, intensity: 0.3 },
  ],
  facebook: [
    { value: 'like', sentiment: 1, intensity: 0.5 },
    { value: 'love', sentiment: 1, intensity: 0.9 },
    { value: 'laugh', sentiment: 1, intensity: 0.7 },
    { value: 'wow', sentiment: 0.5, intensity: 0.8 },
    { value: 'sad', sentiment: -0.5, intensity: 0.7 },
    { value: 'angry', sentiment: -1, intensity: 1 },
  ],
  feeling: [
    { value: 'happy', sentiment: 1, intensity: 0.7 },
    { value: 'neutral', sentiment: 0, intensity: 0.2 },
    { value: 'sad', sentiment: -1, intensity: 0.7 },
  ],
  evaluation: [
    { value: 'love', sentiment: 1, intensity: 1 },
    { value: 'happy', sentiment: 0.5, intensity: 0.5 },
    { value: 'sad', sentiment: -0.5, intensity: 0.5 },
    { value: 'hate', sentiment: -1, intensity: 1 },
  ],
} as const satisfies Record<string, ReactionOption[]>;

/** Tags of the published tagged-message "feedback" preset, with that preset's titles and icons. */
export const DEFAULT_TAGS: TagOption[] = [
  { value: 'idea', sentiment: 0.5, label: 'Idea', icon: '💡' },
  { value: 'error', sentiment: -1, label: 'Error', icon: '💥' },
  { value: 'other', sentiment: 0, label: 'Other', icon: '💬' },
];
export const TAG_LABEL_MAX_LENGTH = 50;
export const TAG_ICON_MAX_LENGTH = 16;

export const DEFAULT_RATING = { min: 1, max: 5, step: 1 } as const;
/** More options than this would make every aggregate item and `values` array unwieldy. */
export const MAX_OPTIONS = 50;

/** Names of the options each schema counts, in the order of `values` and `counts`: one entry per schema, or it does not compile. */
const OPTION_LABELS: { [S in Schema]: (config: SchemaConfig[S]) => string[] } = {
  pulse: () => ['count'],
  message: () => ['count'],
  'yes-no': () => ['yes', 'no'],
  reaction: (config) => config.options.map((option) => option.value),
  'tagged-message': (config) => config.tags.map((tag) => tag.value),
  rating: (config) => Array.from({ length: ratingOptionCount(config) }, (_, option) => String(ratingOfOption(config, option))),
};

/**
 * How far a rating may be from a step and still be that step: the rounding of decimal
 * fractions (0.1 + 0.2 for 0.3), nothing a person would type (docs/api.md, "Response
 * values per schema").
 */
export const STEP_TOLERANCE = 1e-9;

/** How many steps a rating scale has, its ends included. */
export function ratingOptionCount({ min, max, step }: SchemaConfig['rating']): number {
  return Math.round((max - min) / step) + 1;
}

/**
 * The rating an option stands for: min + option × step, without the sum's binary
 * rounding (0.30000000000000004 is 0.3), kept within [min, max]. A rating is stored and
 * counted as this value, and it is the option's label.
 */
export function ratingOfOption({ min, max, step }: SchemaConfig['rating'], option: number): number {
  return Math.min(max, Math.max(min, Math.round((min + option * step) * 1e9) / 1e9));
}

/** Names of the options a schema counts, in the order of `values` and `counts`. */
export function optionLabels<S extends Schema>(schema: S, config: AnySchemaConfig): string[] {
  return (OPTION_LABELS[schema] as (config: SchemaConfig[S]) => string[])(config as SchemaConfig[S]);
}
