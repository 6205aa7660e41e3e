import { nonNegative, round, type Counter } from '../aggregation';
import type { SchemaBehaviour } from './behaviour';
import { BLANK_CELLS, emptyConfig } from './behaviour';

const YES = new Set<unknown>(['y', 'yes', '+1', 1, true, '1', 'true']);
const NO = new Set<unknown>(['n', 'no', '-1', -1, false, 'false']);

function yesNoOf(counter: Counter): [number, number] {
  return [nonNegative(counter.options[0] ?? 0), nonNegative(counter.options[1] ?? 0)];
}

/** Yes or no, stored as "y" / "n" whatever the spelling; the summary runs from -1 (all no) to +1 (all yes). */
export const yesNo: SchemaBehaviour<'yes-no'> = {
  config: emptyConfig,
  // The share of yes.
  score: (total) => {
    const [yes, no] = yesNoOf(total);
    return { kind: 'proportion', successes: yes, n: yes + no };
  },
  value: (_config, value) => {
    const normalized = typeof value === 'string' ? value.toLowerCase() : value;
    if (YES.has(normalized)) return { ok: true, value: 'y', contribution: { option: 0, sentiment: 1 } };
    if (NO.has(normalized)) return { ok: true, value: 'n', contribution: { option: 1, sentiment: -1 } };
    return { ok: false, reason: 'a yes-no value must be one of "y", "n", "yes", "no", "+1", "-1", true, false, 1, -1' };
  },
  aggregate: ({ period, count, total, points }) => {
    const counts = yesNoOf(total);
    const [yes, no] = counts;
    return {
      schema: 'yes-no',
      period,
      values: [...counts],
      count,
      counts,
      summary: yes + no > 0 ? round((yes - no) / (yes + no)) : 0,
      points: points.map(yesNoOf),
    };
  },
  describe: (value) => (value === 'y' ? 'Yes' : value === 'n' ? 'No' : String(value)),
  exportCells: (value) => ({ ...BLANK_CELLS, value: value === 'y' ? 'yes' : value === 'n' ? 'no' : String(value) }),
  valueOfCells: (cells) => cells.value,
  onePerVisitorByDefault: true,
};
