/**
 * Argument and result models of the themes operations (issue 40; docs/api.md, "Themes"):
 * contents/themes, sets/themes, projects/themes, sets/curateThemes, sets/themeCurations.
 */
import * as z from 'zod';
import { StatsFilter } from './aggregate-models';
import { id } from './models';
import { ScoreChangeModel, ScoreIntervalModel, timestamp } from './result-models';

export const MAX_THEMES = 30;
export const DEFAULT_THEMES = 10;
export const MAX_EXAMPLES = 10;
export const DEFAULT_EXAMPLES = 3;
const LABEL_MAX_LENGTH = 60;
const PHRASE_MAX_LENGTH = 80;
const EXAMPLE_MAX_LENGTH = 500;

export const ThemesFilter = StatsFilter.extend({
  /** A tagged-message set's tag: only its messages (for example the "no" answers). */
  tag: z.string().min(1).max(100).optional(),
  $size: z.number().int().min(1).max(MAX_THEMES).default(DEFAULT_THEMES),
  $examples: z.number().int().min(0).max(MAX_EXAMPLES).default(DEFAULT_EXAMPLES),
}).meta({
  id: 'ThemesFilter',
  description: `The period as getStats takes it (period, reference, shift; default lifetime: the last 400 days), compare "previous", a tag, $size themes (1..${MAX_THEMES}, default ${DEFAULT_THEMES}) and $examples per theme (0..${MAX_EXAMPLES}, default ${DEFAULT_EXAMPLES}).`,
});
export type ThemesFilter = z.infer<typeof ThemesFilter>;

const count = z.number().int().min(0);
const ShareModel = ScoreIntervalModel;
const PreviousModel = z.object({ count, share: ShareModel.nullable() });

export const ThemeModel = z
  .object({
    id: z.string(),
    label: z.string(),
    terms: z.array(z.string()),
    /** Set by people (renamed, pinned, merged, split, moved into). */
    curated: z.boolean(),
    count,
    share: ShareModel,
    examples: z.array(z.object({ responseId: z.string(), contentId: z.string(), text: z.string(), createdAt: timestamp })),
    items: z.array(z.object({ contentId: z.string(), name: z.string(), count })).optional(),
    previous: PreviousModel.optional(),
    change: ScoreChangeModel.nullable().optional(),
    new: z.boolean().optional(),
    rising: z.boolean().optional(),
  })
  .meta({
    id: 'Theme',
    description: 'A reason several visitors gave: its messages in the period, their share (Wilson), examples and the pages with the most of it.',
  });

export const PhraseModel = z
  .object({
    text: z.string(),
    count,
    messages: count,
    previous: PreviousModel.optional(),
    change: ScoreChangeModel.nullable().optional(),
    new: z.boolean().optional(),
    rising: z.boolean().optional(),
  })
  .meta({
    id: 'Phrase',
    description:
      'A phrase that stands out in the period against the 28 days before it: the messages holding it (count) and the distinct ones among them (messages).',
  });

export const ThemesModel = z
  .object({
    from: timestamp,
    to: timestamp,
    messages: count,
    themed: count,
    other: count,
    themes: z.array(ThemeModel),
    phrases: z.array(PhraseModel),
  })
  .meta({ id: 'Themes', description: 'The themes and phrases of the active messages of a period: [from, to), messages, those in a theme and the others.' });

const label = z.string().trim().min(1).max(LABEL_MAX_LENGTH);
const phrase = z.string().trim().min(1).max(PHRASE_MAX_LENGTH);

export const ThemeCurationModel = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('rename'), themeId: id, label }),
    z.strictObject({ kind: z.literal('merge'), themeIds: z.array(id).min(2).max(10), into: id }),
    z
      .strictObject({ kind: z.literal('split'), themeId: id, label, messageIds: z.array(id).min(1).max(100).optional(), phrase: phrase.optional() })
      .refine((split) => split.messageIds !== undefined || split.phrase !== undefined, {
        message: 'a split names the messages that leave: give messageIds, a phrase, or both',
        path: ['messageIds'],
      })
      // The refinement for the OpenAPI document; each branch names the property it requires (Redocly reads only the branch).
      .meta({
        anyOf: [
          { required: ['messageIds'], properties: { messageIds: { type: 'array' } } },
          { required: ['phrase'], properties: { phrase: { type: 'string' } } },
        ],
      }),
    z.strictObject({ kind: z.literal('move'), messageId: id, themeId: id.nullable() }),
    z
      .strictObject({
        kind: z.literal('pin'),
        themeId: id.optional(),
        label,
        phrases: z.array(phrase).max(10).default([]),
        examples: z.array(z.string().trim().min(1).max(EXAMPLE_MAX_LENGTH)).max(10).default([]),
      })
      // A new theme is made of what describes it: without phrases or examples it would stay empty.
      .refine((pin) => pin.themeId !== undefined || pin.phrases.length > 0 || pin.examples.length > 0, {
        message: 'a new pinned theme needs phrases or examples that describe it',
        path: ['phrases'],
      })
      .meta({
        anyOf: [
          { required: ['themeId'], properties: { themeId: { type: 'string' } } },
          { required: ['phrases'], properties: { phrases: { type: 'array', minItems: 1 } } },
          { required: ['examples'], properties: { examples: { type: 'array', minItems: 1 } } },
        ],
      }),
  ])
  .meta({
    id: 'ThemeCuration',
    description:
      "What a person decided about a set's themes: rename a theme, merge themes into one, split messages (by id or a phrase) off into a new theme, move a message to a theme (or to other: null), pin a theme (a new one without themeId) described by phrases and example messages.",
  });
export type ThemeCurationModel = z.infer<typeof ThemeCurationModel>;

export const ThemeCurationResultModel = z
  .object({ id: z.string(), at: timestamp, themeId: z.string().nullable(), record: z.record(z.string(), z.unknown()) })
  .meta({
    id: 'ThemeCurationResult',
    description: "The curation recorded; `themeId`: the theme it made or changed. The set's themes follow at the themes job's next run.",
  });

export const ThemeCurationsModel = z.array(ThemeCurationResultModel).meta({ id: 'ThemeCurations', description: "A set's curation records, oldest first." });
