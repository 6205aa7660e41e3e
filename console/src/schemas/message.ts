import { plural } from '../lib/format';
import { countChart, jsxElement, paletteColors, type SchemaView } from './view';

export const message: SchemaView<'message'> = {
  name: 'Message',
  responseNoun: 'message',
  options: () => [{ value: 'message', label: 'Messages', emoji: '💬' }],
  hasOptions: false,
  optionWord: 'Value',
  hasText: true,
  optionIndex: (value, options) => options.findIndex((option) => option.value === String(value)),
  colors: paletteColors,
  summary: (data) => `${plural(data.count, 'message')}.`,
  chart: (input) => countChart('Messages', input),
  pointTotals: (data) => data.points,
  score: null,
  snippet: ({ set }) => ({
    reactImports: ['FeelbackMessage'],
    reactElement: jsxElement('FeelbackMessage', [`contentSetId="${set.id}"`, 'layout="inline"', 'title="Send us your feedback"', 'withEmail="optional"']),
    astroImport: 'FeelbackMessage',
    astroElement: jsxElement('FeelbackMessage', [`contentSetId="${set.id}"`, 'layout="inline"', 'withEmail="optional"']),
    htmlBody: `<div class="feelback-container" data-feelback-set="${set.id}" data-feelback-component="form">\n  <form class="feelback-form" data-feelback-type="form-single">\n    <label for="feelback-message">Your feedback</label>\n    <textarea id="feelback-message" data-feelback-field="message" required></textarea>\n    <button type="submit" class="feelback-btn">Send</button>\n  </form>\n</div>`,
  }),
};
