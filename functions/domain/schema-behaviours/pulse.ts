import type { SchemaBehaviour } from './behaviour';
import { BLANK_CELLS, emptyConfig, plainText, pointCounts } from './behaviour';

/** A single "+" (like, heart, star): counted, nothing else. */
export const pulse: SchemaBehaviour<'pulse'> = {
  config: emptyConfig,
  score: null,
  value: (_config, value) => (value === '+' ? { ok: true, value: '+', contribution: { option: 0 } } : { ok: false, reason: 'a pulse value must be "+"' }),
  aggregate: ({ period, points, count }) => ({ schema: 'pulse', period, values: [count], count, points: pointCounts(points) }),
  describe: () => '+1',
  exportCells: (value) => ({ ...BLANK_CELLS, value: plainText(value) }),
  valueOfCells: (cells) => cells.value,
  onePerVisitorByDefault: true,
};
