import { plural } from '../lib/format';
import { buttonsHtml, countChart, jsxElement, paletteColors, type SchemaView } from './view';

export const pulse: SchemaView<'pulse'> = {
  name: 'Pulse',
  responseNoun: 'response',
  options: () => [{ value: '+', label: 'Responses', emoji: '❤️' }],
  hasOptions: false,
  optionWord: 'Value',
  hasText: false,
  optionIndex: () => 0,
  colors: paletteColors,
  summary: (data) => `${plural(data.count, 'response')}.`,
  chart: (input) => countChart('Responses', input),
  pointTotals: (data) => data.points,
  score: null,
  snippet: ({ set, count }) => ({
    reactImports: ['FeelbackPulse', 'PRESET_PULSE_HEART'],
    reactElement: jsxElement('FeelbackPulse', [`contentSetId="${set.id}"`, 'preset={PRESET_PULSE_HEART}', ...count]),
    astroImport: 'FeelbackPulse',
    astroElement: jsxElement('FeelbackPulse', [`contentSetId="${set.id}"`, 'preset="heart"', ...count]),
    htmlBody: `<div class="feelback-container" data-feelback-set="${set.id}">\n${buttonsHtml([{ value: '+', label: 'Love', emoji: '❤️' }])}\n</div>`,
  }),
};
