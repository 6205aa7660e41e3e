import { optionLabels } from '../../../shared/schema-options';
import { formatCount, formatDecimal, plural } from '../lib/format';
import { buttonsHtml, jsxElement, type SchemaView, valuesLiteral } from './view';

export const rating: SchemaView<'rating'> = {
  name: 'Rating',
  responseNoun: 'rating',
  options: (config) => optionLabels('rating', config).map((value) => ({ value, label: `${value} ★` })),
  hasOptions: true,
  optionWord: 'Value',
  hasText: false,
  optionIndex: (value, options) =>
    typeof value === 'number' ? options.findIndex((option) => Number(option.value) === value) : options.findIndex((option) => option.value === String(value)),
  /** From low (red) to high (green). */
  colors: (count) =>
    Array.from({ length: count }, (_, index) => {
      const ratio = count > 1 ? index / (count - 1) : 1;
      return `hsl(${Math.round(ratio * 130)} 65% 45%)`;
    }),
  summary: (data, _options, config) =>
    `Average rating ${formatDecimal(data.summary)}${config ? ` out of ${formatDecimal(config.max)}` : ''} from ${plural(data.count, 'rating')}.`,
  chart: ({ data, config, labels, titles }) => ({
    spec: {
      labels,
      kind: 'bars',
      series: [{ label: 'Ratings', color: 'var-bar', values: data.points.map(([count]) => count) }],
      line: {
        label: 'Average',
        color: '#ea580c',
        values: data.points.map(([count, mean]) => (count > 0 ? mean : null)),
        min: config?.min ?? 0,
        max: config?.max ?? 5,
      },
    },
    table: {
      columns: ['Ratings', 'Average'],
      rows: data.points.map(([count, mean], point) => ({ title: titles[point], cells: [formatCount(count), count > 0 ? formatDecimal(mean) : '–'] })),
    },
  }),
  pointTotals: (data) => data.points.map(([count]) => count),
  score: {
    name: 'the average rating',
    format: (value) => `${formatDecimal(Math.round(value * 10) / 10)} ★`,
    amount: (delta) => `${formatDecimal(Math.round(Math.abs(delta) * 100) / 100)} ${Math.abs(delta) === 1 ? 'star' : 'stars'}`,
    range: (config) => [config?.min ?? 1, config?.max ?? 5],
    dropInput: { unit: 'stars', perScore: 1, step: 0.1 },
  },
  snippet: ({ set, options, count }) => {
    const literal = valuesLiteral(
      options.map((option) => ({ value: option.value, title: `${option.value} out of ${options.at(-1)!.value}`, text: `${option.value} ★` })),
    );
    return {
      note: 'The published widgets have no rating component: a button list with one button per rating value (the yes-no widget with your own preset) records ratings.',
      reactImports: ['FeelbackYesNo'],
      reactElement: jsxElement('FeelbackYesNo', [`contentSetId="${set.id}"`, 'textQuestion="How would you rate this page?"', `preset={${literal}}`, ...count]),
      astroImport: 'FeelbackYesNo',
      astroElement: jsxElement('FeelbackYesNo', [
        `contentSetId="${set.id}"`,
        'textQuestion="How would you rate this page?"',
        'showTitle',
        `preset={${valuesLiteral(options.map((option) => ({ value: option.value, title: `${option.value} ★` })))}}`,
        ...count,
      ]),
      htmlBody: `<div class="feelback-container" data-feelback-set="${set.id}">\n  <span class="feelback-text">How would you rate this page?</span>\n${buttonsHtml(options.map((option) => ({ value: option.value, label: option.label })))}\n</div>`,
    };
  },
};
