import { optionLabels, type SchemaConfig } from '../../../shared/schema-options';
import { formatScore, plural } from '../lib/format';
import { escapeHtml, mostChosen, paletteColors, type SchemaView, sentimentWord, stackedChart, sumOf, type Titles, titled, valuesLiteral } from './view';

/** Emoji and titles of the widgets' `feedback` tags. */
const TAG_TITLES: Titles = { idea: ['💡', 'Idea'], error: ['💥', 'Error'], other: ['💬', 'Other'] };

/** Whether a tagged-message set uses the widgets' `feedback` tags (idea, error, other). */
export function usesFeedbackTags(config: SchemaConfig['tagged-message']): boolean {
  return config.tags.map((tag) => tag.value).join('\n') === 'idea\nerror\nother';
}

export const taggedMessage: SchemaView<'tagged-message'> = {
  name: 'Tagged message',
  options: (config) => optionLabels('tagged-message', config).map((value) => titled(value, TAG_TITLES)),
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
  chart: (input) =>
    stackedChart(
      input.data.points.map((point) => point[0]),
      input,
    ),
  pointTotals: (data) => data.points.map(([counts]) => sumOf(counts)),
  snippet: ({ set, config, options }) => {
    const standard = usesFeedbackTags(config);
    const literal = valuesLiteral(
      options.map((option) => ({ value: option.value, title: option.label, text: option.emoji })),
      '',
    );
    return {
      reactImports: standard ? ['FeelbackTaggedMessage', 'PRESET_FEEDBACK'] : ['FeelbackTaggedMessage'],
      reactElement: `<FeelbackTaggedMessage contentSetId="${set.id}" layout="inline" preset={${standard ? 'PRESET_FEEDBACK' : literal}} withEmail="optional" />`,
      astroImport: 'FeelbackTaggedMessage',
      astroElement: `<FeelbackTaggedMessage contentSetId="${set.id}" layout="inline" preset=${standard ? '"feedback"' : `{${literal}}`} withEmail="optional" />`,
      htmlBody: `<div class="feelback-container" data-feelback-set="${set.id}" data-feelback-component="form">\n  <form class="feelback-form">\n    <fieldset class="feelback-radio-group" data-feelback-field="tag" data-required>\n      <legend>What is it about?</legend>\n${options
        .map(
          (option) =>
            `      <label><input type="radio" name="tag" value="${escapeHtml(option.value)}"> ${escapeHtml(option.emoji ? `${option.emoji} ${option.label}` : option.label)}</label>`,
        )
        .join(
          '\n',
        )}\n    </fieldset>\n    <label for="feelback-message">Message</label>\n    <textarea id="feelback-message" data-feelback-field="message"></textarea>\n    <button type="submit" class="feelback-btn">Send</button>\n  </form>\n</div>`,
    };
  },
};
