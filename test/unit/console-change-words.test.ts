/**
 * The console's words for a change since the previous period (schemas/index.ts, changeWords):
 * each score in its own unit, the noise said from `significant`, counts for schemas without a
 * score.
 */
import type { ScoreChange } from '@feedback-service/client';
import { changeWords } from '../../console/src/schemas';

const change = (delta: number, significant: boolean | null, method: ScoreChange['method']): ScoreChange => ({
  delta,
  low: method === 'count' ? null : delta - 0.1,
  high: method === 'count' ? null : delta + 0.1,
  significant,
  method,
});

describe('changeWords', () => {
  it('says a share in percentage points, and whether the change is outside the noise', () => {
    expect(changeWords(change(-0.1234, true, 'newcombe'), 'yes-no')).toBe('down 12 points, outside the noise');
    expect(changeWords(change(0.01, false, 'newcombe'), 'yes-no')).toBe('up 1 point, within the noise');
    expect(changeWords(change(-0.004, false, 'newcombe'), 'yes-no')).toBe('down less than 1 point, within the noise');
    expect(changeWords(change(0, false, 'newcombe'), 'yes-no')).toBe('unchanged, within the noise');
  });

  it('says a rating in stars and a sentiment on its own scale', () => {
    expect(changeWords(change(-0.456, true, 'welch'), 'rating')).toBe('down 0.46 stars, outside the noise');
    expect(changeWords(change(1, false, 'welch'), 'rating')).toBe('up 1 star, within the noise');
    expect(changeWords(change(0.25, false, 'welch'), 'reaction')).toBe('up 0.25, within the noise');
    expect(changeWords(change(-0.5, true, 'welch'), 'tagged-message')).toBe('down 0.50, outside the noise');
  });

  it('says counts where there is no score: a project, a pulse or message set', () => {
    expect(changeWords(change(-8, null, 'count'), undefined)).toBe('8 fewer responses');
    expect(changeWords(change(1, null, 'count'), 'pulse')).toBe('1 more response');
    expect(changeWords(change(0, null, 'count'), 'message')).toBe('as many responses as the period before');
  });
});
