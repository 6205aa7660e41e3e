import { optionLabels, REACTION_PRESETS, type SchemaConfig } from '../../../shared/schema-options';
import { formatDecimal, formatScore, plural } from '../lib/format';
import {
  buttonsHtml,
  intensityWord,
  jsxElement,
  mostChosen,
  optionCountsChart,
  optionCountsTotals,
  paletteColors,
  type SchemaView,
  SENTIMENT_SCORE,
  sentimentWord,
  titled,
  type Titles,
  valuesLiteral,
} from './view';

/** Emoji and titles of the published widgets' reaction presets. */
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

/** Any reaction value the presets know, for sets with their own option list. */
const ANY_REACTION: Titles = Object.assign({}, PRESET_TITLES.evaluation, PRESET_TITLES.feeling, PRESET_TITLES.facebook, PRESET_TITLES.github);

/** The React package's name of each preset, for the snippets. */
const REACT_REACTION_PRESETS = {
  github: 'PRESET_GITHUB_EMOJI',
  facebook: 'PRESET_FACEBOOK_EMOJI',
  feeling: 'PRESET_FEELING',
  evaluation: 'PRESET_EVALUATION',
} as const satisfies Record<keyof typeof REACTION_PRESETS, string>;

/** The widgets' preset a reaction set's options are exactly, if any. */
export function reactionPreset(config: SchemaConfig['reaction']): keyof typeof REACTION_PRESETS | undefined {
  const values = config.options.map((option) => option.value).join('\n');
  return (Object.keys(REACTION_PRESETS) as (keyof typeof REACTION_PRESETS)[]).find(
    (name) => REACTION_PRESETS[name].map((option) => option.value).join('\n') === values,
  );
}

export const reaction: SchemaView<'reaction'> = {
  name: 'Reactions',
  responseNoun: 'reaction',
  options: (config) => {
    const preset = reactionPreset(config);
    return optionLabels('reaction', config).map((value) => titled(value, preset ? PRESET_TITLES[preset] : ANY_REACTION));
  },
  hasOptions: true,
  optionWord: 'Value',
  hasText: false,
  optionIndex: (value, options) => options.findIndex((option) => option.value === String(value)),
  colors: paletteColors,
  summary: (data, options) => {
    const sentiment = data.summary ?? 0;
    const intensity = data.intensity ?? 0;
    return `${plural(data.count, 'reaction')}, ${sentimentWord(sentiment)} (sentiment ${formatScore(sentiment)}) with ${intensityWord(intensity)} intensity (${formatDecimal(intensity)}). Most chosen: ${mostChosen(options, data.counts, data.count)}.`;
  },
  chart: optionCountsChart,
  pointTotals: optionCountsTotals,
  score: SENTIMENT_SCORE,
  snippet: ({ set, config, options, count }) => {
    const preset = reactionPreset(config);
    const htmlBody = `<div class="feelback-container feelback-reaction" data-feelback-set="${set.id}">\n${buttonsHtml(options)}\n</div>`;
    if (preset) {
      return {
        reactImports: ['FeelbackReaction', REACT_REACTION_PRESETS[preset]],
        reactElement: jsxElement('FeelbackReaction', [`contentSetId="${set.id}"`, `preset={${REACT_REACTION_PRESETS[preset]}}`, ...count]),
        astroImport: 'FeelbackReaction',
        astroElement: jsxElement('FeelbackReaction', [`contentSetId="${set.id}"`, `preset="${preset}"`, ...count]),
        htmlBody,
      };
    }
    const values = options.map((option) => ({ value: option.value, title: option.label, text: option.emoji ?? option.label }));
    return {
      reactImports: ['FeelbackReaction'],
      reactElement: jsxElement('FeelbackReaction', [`contentSetId="${set.id}"`, `preset={${valuesLiteral(values)}}`, ...count]),
      astroImport: 'FeelbackReaction',
      astroElement: jsxElement('FeelbackReaction', [`contentSetId="${set.id}"`, `preset={${valuesLiteral(values, 'astro')}}`, ...count]),
      htmlBody,
    };
  },
};
