import { formatCount, formatPercent, formatPoints, formatScore } from '../lib/format';
import { buttonsHtml, jsxElement, type SchemaView, sentimentWord, stackedChart } from './view';

export const yesNo: SchemaView<'yes-no'> = {
  name: 'Yes / no',
  responseNoun: 'vote',
  options: () => [
    { value: 'y', label: 'Yes', emoji: '👍' },
    { value: 'n', label: 'No', emoji: '👎' },
  ],
  hasOptions: true,
  optionWord: 'Value',
  hasText: false,
  optionIndex: (value, options) => options.findIndex((option) => option.value === String(value)),
  colors: () => ['#16a34a', '#dc2626'],
  summary: (data) => {
    const [yes, no] = data.counts;
    return `${formatPercent(yes, yes + no)} said yes (${formatCount(yes)} yes, ${formatCount(no)} no): ${sentimentWord(data.summary)} overall, score ${formatScore(data.summary)}.`;
  },
  chart: (input) =>
    stackedChart(
      input.data.points.map((point) => [...point]),
      input,
    ),
  pointTotals: (data) => data.points.map(([yes, no]) => yes + no),
  score: {
    name: 'the share of yes',
    format: (value) => `${Math.round(value * 100)}%`,
    // A change of a share is in percentage points: 0.82 to 0.70 is "12 points".
    amount: formatPoints,
    range: () => [0, 1],
    dropInput: { unit: 'percentage points', perScore: 100, step: 1 },
  },
  snippet: ({ set, options, count }) => ({
    reactImports: ['FeelbackYesNo', 'PRESET_YESNO_LIKE_DISLIKE'],
    reactElement: jsxElement('FeelbackYesNo', [
      `contentSetId="${set.id}"`,
      'preset={PRESET_YESNO_LIKE_DISLIKE}',
      'textQuestion="Was this page helpful?"',
      'textAnswer="Thanks for your feedback"',
      ...count,
    ]),
    astroImport: 'FeelbackYesNo',
    astroElement: jsxElement('FeelbackYesNo', [`contentSetId="${set.id}"`, 'preset="check"', 'textQuestion="Was this page helpful?"', ...count]),
    htmlBody: `<div class="feelback-container" data-feelback-set="${set.id}">\n  <span class="feelback-text">Was this page helpful?</span>\n${buttonsHtml(options)}\n</div>`,
  }),
};
