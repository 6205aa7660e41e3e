import { DEFAULT_TAGS, type TagOption } from '../../../shared/schema-options';
import { formatScore, plural } from '../lib/format';
import {
  escapeHtml,
  jsxElement,
  mostChosen,
  optionCountsChart,
  optionCountsTotals,
  type OptionDisplay,
  optionText,
  paletteColors,
  type SchemaView,
  SENTIMENT_SCORE,
  sentimentWord,
  valuesLiteral,
} from './view';

/**
 * How a tag is named everywhere (distribution, filters, responses, snippets, the preview):
 * its label and icon from the set's schemaConfig, else its value. Sets made before tags had
 * labels stored none; their default tags (idea, error, other) take the labels and icons the
 * defaults have now, so they read as they always did.
 */
export function tagDisplay(tag: TagOption): OptionDisplay {
  const unnamed = tag.label === undefined && tag.icon === undefined;
  const named = unnamed ? (DEFAULT_TAGS.find((candidate) => candidate.value === tag.value) ?? tag) : tag;
  const label = named.label ?? tag.value;
  return named.icon ? { value: tag.value, label, emoji: named.icon } : { value: tag.value, label };
}

/** The tags as a widget preset: the label as title (shown with `showLabels`), the icon as icon. */
export function tagPreset(options: OptionDisplay[]): { value: string; title: string; text?: string }[] {
  return options.map((option) => ({ value: option.value, title: option.label, text: option.emoji }));
}

export const taggedMessage: SchemaView<'tagged-message'> = {
  name: 'Tagged message',
  responseNoun: 'message',
  options: (config) => config.tags.map(tagDisplay),
  hasOptions: true,
  optionWord: 'Tag',
  hasText: true,
  optionIndex: (value, options) =>
    typeof value === 'object' && value !== null
      ? options.findIndex((option) => option.value === value.tag)
      : options.findIndex((option) => option.value === String(value)),
  colors: paletteColors,
  summary: (data, options) => {
    const sentiment = data.summary ?? 0;
    return `${plural(data.count, 'message')}, ${sentimentWord(sentiment)} overall (sentiment ${formatScore(sentiment)}). Most tagged: ${mostChosen(options, data.counts, data.count)}.`;
  },
  chart: optionCountsChart,
  pointTotals: optionCountsTotals,
  score: SENTIMENT_SCORE,
  snippet: ({ set, options }) => {
    const preset = tagPreset(options);
    const attributes = (library: 'react' | 'astro') => [
      `contentSetId="${set.id}"`,
      'layout="inline"',
      `preset={${valuesLiteral(preset, library)}}`,
      'showLabels',
      'withEmail="optional"',
    ];
    return {
      reactImports: ['FeelbackTaggedMessage'],
      reactElement: jsxElement('FeelbackTaggedMessage', attributes('react')),
      astroImport: 'FeelbackTaggedMessage',
      astroElement: jsxElement('FeelbackTaggedMessage', attributes('astro')),
      // The markup astro-feelback renders, which @feelback/js's stylesheet lays out (a radio beside its label).
      htmlBody: [
        `<div class="feelback-container" data-feelback-set="${set.id}" data-feelback-component="form">`,
        '  <form class="feelback-form">',
        '    <div class="content">',
        '      <fieldset class="feelback-radio-group" data-feelback-field="tag" data-required>',
        '        <legend>What is it about?</legend>',
        ...options.flatMap((option, index) => [
          '        <div class="feelback-radio-item">',
          `          <input id="feelback-tag-${index}" type="radio" name="tag" value="${escapeHtml(option.value)}">`,
          `          <label for="feelback-tag-${index}">${escapeHtml(optionText(option))}</label>`,
          '        </div>',
        ]),
        '      </fieldset>',
        '      <label for="feelback-message">Message</label>',
        '      <textarea id="feelback-message" data-feelback-field="message"></textarea>',
        '      <button type="submit" class="feelback-btn">Send</button>',
        '    </div>',
        '  </form>',
        '</div>',
      ].join('\n'),
    };
  },
};
