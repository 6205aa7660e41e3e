import type { SchemaBehaviour } from './behaviour';
import { BLANK_CELLS, emptyConfig, messageProblem, pointCounts } from './behaviour';

/** Free text, stored verbatim; counted, its words are not. */
export const message: SchemaBehaviour<'message'> = {
  config: emptyConfig,
  score: null,
  value: (_config, value) => {
    const problem = messageProblem(value);
    return problem ? { ok: false, reason: `a message ${problem}` } : { ok: true, value: value as string, contribution: { option: 0 } };
  },
  aggregate: ({ period, points, count }) => ({ schema: 'message', period, values: [count], count, points: pointCounts(points) }),
  describe: (value) => `“${String(value)}”`,
  exportCells: (value) => ({ ...BLANK_CELLS, message: typeof value === 'string' ? value : JSON.stringify(value) }),
  valueOfCells: (cells) => cells.message,
  onePerVisitorByDefault: false,
};
