/**
 * The console's words and links for themes (console/src/lib/themes.ts): shares with their
 * intervals, changes in points, the period before with its number of messages derived from the
 * share, the tag a Why panel starts with, the link to a theme's messages (shared), what a page's
 * messages say most (Needs attention), and what people decided in words.
 */
import type { ContentSet, Phrase, ScoreChange, Theme } from '@feedback-service/client';
import {
  curationWords,
  negativeTag,
  pageReason,
  periodDays,
  previousWords,
  shareChangeWords,
  shareWords,
  tagsNegativeFirst,
} from '../../console/src/lib/themes';
import { messagesPath } from '../../shared/console-paths';

const change = (delta: number, significant: boolean | null): ScoreChange => ({ delta, low: delta - 0.1, high: delta + 0.1, significant, method: 'newcombe' });

const tagged = (tags: { value: string; sentiment: number }[]): Pick<ContentSet, 'schema' | 'schemaConfig'> => ({
  schema: 'tagged-message',
  schemaConfig: { tags },
});

describe('shares and changes', () => {
  it('says a share with its interval in whole percents, and a sliver under one with a decimal', () => {
    expect(shareWords({ value: 0.3636, low: 0.197, high: 0.5704, method: 'wilson' })).toBe('36% (20%–57%)');
    expect(shareWords({ value: 0.045, low: 0.008, high: 0.22, method: 'wilson' })).toBe('5% (0.8%–22%)');
  });

  it('says a change of a share in points and whether it is outside the noise', () => {
    expect(shareChangeWords(change(0.3213, true))).toBe('up 32 points, outside the noise');
    expect(shareChangeWords(change(-0.05, false))).toBe('down 5 points, within the noise');
    expect(shareChangeWords(change(0.004, false))).toBe('up less than 1 point, within the noise');
    expect(shareChangeWords(change(0, false))).toBe('unchanged, within the noise');
    expect(shareChangeWords(change(0.1, null))).toBe('up 10 points');
  });

  it('says the period before with its messages, derived from the share (count over messages)', () => {
    expect(previousWords({ count: 2, share: { value: 2 / 40, low: 0.01, high: 0.16, method: 'wilson' } })).toBe('2 of 40 messages the period before');
    expect(previousWords({ count: 4, share: { value: 4 / 6, low: 0.3, high: 0.9, method: 'wilson' } }, 'the 7 days before')).toBe(
      '4 of 6 messages the 7 days before',
    );
    expect(previousWords({ count: 0, share: null })).toBe('none the period before');
    expect(previousWords({ count: 1, share: null })).toBe('1 message the period before');
    expect(previousWords(undefined)).toBeUndefined();
  });
});

describe('periodDays', () => {
  it('names the UTC days of a period whose end is exclusive, whatever the viewer’s time zone', () => {
    expect(periodDays('2026-12-01T00:00:00.000Z', '2026-12-08T00:00:00.000Z')).toBe('1 Dec 2026 to 7 Dec 2026');
    expect(periodDays('2025-11-03T00:00:00.000Z', '2026-12-08T00:00:00.000Z')).toBe('3 Nov 2025 to 7 Dec 2026');
  });
});

describe('the tag a Why panel starts with', () => {
  it('orders a tagged-message set’s tags most negative first and starts with a negative one', () => {
    const set = tagged([
      { value: 'yes', sentiment: 1 },
      { value: 'idea', sentiment: 0 },
      { value: 'no', sentiment: -1 },
    ]);
    expect(tagsNegativeFirst(set).map((tag) => tag.value)).toEqual(['no', 'idea', 'yes']);
    expect(negativeTag(set)).toBe('no');
  });

  it('starts with every message when no tag is negative, or the set has no tags', () => {
    expect(negativeTag(tagged([{ value: 'idea', sentiment: 0 }]))).toBeUndefined();
    expect(negativeTag({ schema: 'message', schemaConfig: {} })).toBeUndefined();
    expect(tagsNegativeFirst({ schema: 'message', schemaConfig: {} })).toEqual([]);
  });
});

describe('messagesPath (shared/console-paths.ts: the console’s links and the digest mail’s)', () => {
  it('links to a theme’s or a phrase’s messages of a set or an item, in the period and tag', () => {
    const from = '2026-12-01T00:00:00.000Z';
    const to = '2026-12-08T00:00:00.000Z';
    const theme = new URL(messagesPath({ setId: 'S1', theme: 'T1', label: 'charged twice', tag: 'no', from, to }), 'https://console.test');
    expect(theme.pathname).toBe('/sets/S1/messages');
    expect(Object.fromEntries(theme.searchParams)).toEqual({ theme: 'T1', label: 'charged twice', tag: 'no', from, to });
    const phrase = new URL(messagesPath({ setId: 'S1', contentId: 'C1', phrase: 'code & sample', label: '“code & sample”', from, to }), 'https://console.test');
    expect(Object.fromEntries(phrase.searchParams)).toEqual({ item: 'C1', phrase: 'code & sample', label: '“code & sample”', from, to });
  });
});

describe('curationWords', () => {
  const labels = new Map([
    ['T1', 'charged'],
    ['T2', 'parcel'],
  ]);

  it('names the themes a record is about by their labels, else "a theme"', () => {
    expect(curationWords({ kind: 'rename', themeId: 'T1', label: 'Charged twice' }, labels)).toBe('Renamed “charged” to “Charged twice”');
    // Once the job applied it, the theme already bears the new name.
    expect(curationWords({ kind: 'rename', themeId: 'T1', label: 'charged' }, labels)).toBe('Renamed a theme to “charged”');
    expect(curationWords({ kind: 'merge', themeIds: ['T2', 'T9', 'T1'], into: 'T2' }, labels)).toBe('Merged 3 themes into “parcel”');
    expect(curationWords({ kind: 'move', messageId: 'R1', themeId: null }, labels)).toBe('Moved a message to no theme');
    expect(curationWords({ kind: 'move', messageId: 'R1', themeId: 'T9' }, labels)).toBe('Moved a message to a theme');
  });

  it('says how a split chose its messages, and a pin its phrases', () => {
    expect(curationWords({ kind: 'split', themeId: 'T1', label: 'Refund', phrase: 'money back', messageIds: ['R1', 'R2'] }, labels)).toBe(
      'Split “Refund” off “charged” by the phrase “money back” and 2 messages',
    );
    expect(curationWords({ kind: 'split', themeId: 'T1', label: 'Refund', phrase: 'money back' }, labels)).toBe(
      'Split “Refund” off “charged” by the phrase “money back”',
    );
    expect(curationWords({ kind: 'pin', themeId: 'T3', label: 'Sizing', phrases: ['size', 'fit'], examples: [] }, labels)).toBe(
      'Pinned “Sizing” (“size”, “fit”)',
    );
    expect(curationWords({ kind: 'pin', themeId: 'T3', label: 'Sizing', phrases: [], examples: ['too small'] }, labels)).toBe('Pinned “Sizing”');
  });
});

describe('pageReason', () => {
  const share = { value: 0.1, low: 0.05, high: 0.2, method: 'wilson' as const };
  const theme = (id: string, count: number, flags: Pick<Theme, 'rising' | 'new'> = {}): Theme => ({
    id,
    label: id,
    terms: [],
    curated: false,
    count,
    share,
    examples: [],
    ...flags,
  });
  const phrase = (text: string, flags: Pick<Phrase, 'rising' | 'new'> = {}): Phrase => ({ text, count: 4, messages: 4, ...flags });
  const reason = (themes: Theme[], phrases: Phrase[] = [], messages = 20) => pageReason({ messages, themes, phrases });

  it('names the rising theme with the most messages first', () => {
    expect(reason([theme('a', 9), theme('b', 3, { rising: true }), theme('c', 5, { rising: true })], [phrase('x', { rising: true })])).toEqual({
      theme: expect.objectContaining({ id: 'c' }),
      why: 'rising',
    });
  });

  it('else the first rising phrase, then a new theme of at least 3 messages, then the largest theme', () => {
    expect(reason([theme('a', 9), theme('n', 5, { new: true })], [phrase('x'), phrase('y', { rising: true })])).toEqual({
      phrase: expect.objectContaining({ text: 'y' }),
    });
    expect(reason([theme('a', 9), theme('one', 1, { new: true }), theme('n', 3, { new: true })])).toEqual({
      theme: expect.objectContaining({ id: 'n' }),
      why: 'new',
    });
    expect(reason([theme('b', 2), theme('a', 9), theme('one', 1, { new: true })])).toEqual({ theme: expect.objectContaining({ id: 'a' }), why: 'largest' });
  });

  it('names nothing for a page without messages or themes', () => {
    expect(reason([], [], 0)).toBeUndefined();
    expect(reason([], [phrase('x')], 5)).toBeUndefined();
  });
});
