import type { SchemaBehaviour } from './behaviour';
import { BLANK_CELLS, emptyConfig, plainText } from './behaviour';

/** A single "+" (like, heart, star): counted, nothing else. */
export const pulse: SchemaBehaviour<'pulse'> = {
  config: emptyConfig,
  value: (_config, value) => (value === '+' ? { ok: true, value: '+', contribution: { option: 0 } } : { ok: false, reason: 'a pulse value must be "+"' }),
  aggregate: ({ period, count }) => ({ schema: 'pulse', period, values: [count], count }),
  describe: () => '+1',
  exportCells: (value) => ({ ...BLANK_CELLS, value: plainText(value) }),
};
