/**
 * What grew among a scope's messages (issue 40 §5): the themes and phrases an alert and the
 * weekly digest carry (domain/theme-counts.ts `grownInWindow`), and their words in the chat
 * lines and mails (shared/theme-growth.ts, domain/webhook-chat.ts).
 */
import type { ProjectDigest } from '../../functions/domain/digest';
import { type DayCounts, emptyDay, grownInWindow } from '../../functions/domain/theme-counts';
import { discordText, plainLine, slackText } from '../../functions/domain/webhook-chat';
import { composeDigest } from '../../functions/mail/compose';
import { ALERT_GROWTH_WINDOWS, growthWords, type ThemeGrowth } from '../../shared/theme-growth';

const counts = (n: number, themes: Record<string, number>, phrases: Record<string, [number, number, string]> = {}): DayCounts => ({
  ...emptyDay(),
  n,
  t: themes,
  p: phrases,
});

describe('grownInWindow', () => {
  test('themes and phrases whose share rose significantly, most messages first; steady ones are left out', () => {
    const window = counts(31, { code: 12, steady: 5, small: 1 }, { 'code sampl': [11, 9, 'code sample'], docs: [5, 5, 'docs'] });
    const before = counts(40, { code: 2, steady: 7, small: 1 }, { 'code sampl': [1, 1, 'code sample'], docs: [7, 7, 'docs'] });
    const grown = grownInWindow(window, before, (id) => `label of ${id}`);
    expect(grown.themes).toEqual([{ id: 'code', label: 'label of code', count: 12, of: 31, previous: { count: 2, of: 40 } }]);
    expect(grown.phrases).toEqual([{ text: 'code sample', count: 11, of: 31, previous: { count: 1, of: 40 } }]);
  });

  test('nothing grows without messages before, or when shares fell', () => {
    expect(grownInWindow(counts(10, { a: 5 }), counts(0, {}), String)).toEqual({ themes: [], phrases: [] });
    expect(grownInWindow(counts(40, { a: 2 }), counts(31, { a: 12 }), String).themes).toEqual([]);
  });

  test('at most three of each, the larger first', () => {
    const themes = { a: 10, b: 12, c: 11, d: 9 };
    const grown = grownInWindow(counts(50, themes), counts(200, { a: 1, b: 1, c: 1, d: 1 }), String);
    expect(grown.themes.map((theme) => theme.id)).toEqual(['b', 'c', 'a']);
  });
});

const growth: ThemeGrowth = {
  tags: ['no'],
  themes: [{ id: 't1', label: 'code <sample> *broken*', count: 12, of: 31, previous: { count: 2, of: 40 } }],
  phrases: [{ text: 'throws', count: 9, of: 31, previous: { count: 1, of: 40 } }],
};

describe('the words of what grew', () => {
  test('the first theme, else the first phrase, with the messages read', () => {
    expect(growthWords(growth, ...ALERT_GROWTH_WINDOWS)).toBe(
      `'no' messages in the last 7 days mention "code <sample> *broken*": 12 of 31, up from 2 of 40 in the 28 days before`,
    );
    expect(growthWords({ phrases: growth.phrases }, 'this week', 'in the 4 weeks before')).toBe(
      'Messages this week mention "throws": 9 of 31, up from 1 of 40 in the 4 weeks before',
    );
    expect(growthWords({ themes: [], phrases: [] }, ...ALERT_GROWTH_WINDOWS)).toBeUndefined();
  });

  const window = (value: number, count: number) => ({
    score: { value, low: value - 0.1, high: value + 0.1, method: 'wilson' as const },
    count,
    from: '',
    to: '',
  });
  const alert = {
    type: 'stats.alert' as const,
    data: {
      name: 'Getting started',
      measure: 'sentiment' as const,
      current: window(-0.6, 31),
      previous: window(0.2, 40),
      themes: growth.themes,
      phrases: growth.phrases,
      themeTags: growth.tags,
    },
  };

  test("an alert's Slack, Discord and plain lines say what grew, the label escaped as visitors' words", () => {
    expect(slackText(alert)).toContain(
      `\n'no' messages in the last 7 days mention "code &lt;sample&gt; *broken*": 12 of 31, up from 2 of 40 in the 28 days before.`,
    );
    expect(discordText(alert)).toContain('mention "code <sample\\> \\*broken\\*": 12 of 31');
    expect(plainLine(alert)).toContain('mention "code <sample> *broken*": 12 of 31, up from 2 of 40');
    // An alert without growth (another schema, an older alert) says what it said before.
    expect(plainLine({ ...alert, data: { ...alert.data, themes: undefined, phrases: undefined } })).not.toContain('mention');
  });

  test("the digest's line lists each set's rising theme", () => {
    const line = plainLine({
      type: 'digest.weekly',
      data: {
        projectName: 'Docs',
        week: { from: '2026-11-30', to: '2026-12-06' },
        responses: { count: 71, previous: 60, change: { difference: 11, percentage: 18.3 } },
        schemas: [],
        alerts: [],
        risingThemes: [{ contentSetId: 's1', name: 'Was this page helpful?', ...growth }],
      },
    });
    expect(line).toContain(
      `\nWas this page helpful?: 'no' messages this week mention "code <sample> *broken*": 12 of 31, up from 2 of 40 in the 4 weeks before.`,
    );
  });
});

describe('the digest mail lists each set’s rising themes and phrases', () => {
  const digest: ProjectDigest = {
    projectId: 'p1',
    projectName: 'Docs',
    week: { from: '2026-11-30', to: '2026-12-06' },
    previousWeek: { from: '2026-11-23', to: '2026-11-29' },
    responses: { count: 71, previous: 60, change: { difference: 11, percentage: 18.3 } },
    schemas: [],
    alerts: [],
    risingThemes: [
      { contentSetId: 's1', name: 'Was this page helpful?', ...growth },
      { contentSetId: 's 2', name: 'Comments', themes: [], phrases: [{ text: 'dark mode', count: 6, of: 20, previous: { count: 0, of: 30 } }] },
    ],
  };
  const frame = {
    accountName: 'Acme',
    consoleUrl: 'https://console.example.com',
    unsubscribeUrl: 'https://console.example.com/u',
    stops: 'the digest',
    because: 'You are a member.',
  };

  test('each theme and phrase with its counts, linking to its messages of the week; visitors’ words escaped', async () => {
    const mail = await composeDigest(digest, frame);
    expect(mail.html).toMatch(/<h2[^>]*>Rising themes<\/h2>/);
    const links = [...mail.html.matchAll(/href="([^"]*)"[^>]*>([^<]*)</g)].map(([, href, text]) => [href.replace(/&amp;/g, '&'), text]);
    const week = 'from=2026-11-30T00%3A00%3A00.000Z&to=2026-12-07T00%3A00%3A00.000Z';
    expect(links).toEqual(
      expect.arrayContaining([
        ['https://console.example.com/sets/s1', 'Was this page helpful?'],
        [`https://console.example.com/sets/s1/messages?theme=t1&label=code+%3Csample%3E+*broken*&tag=no&${week}`, 'code &lt;sample&gt; *broken*'],
        [`https://console.example.com/sets/s1/messages?phrase=throws&label=%E2%80%9Cthrows%E2%80%9D&tag=no&${week}`, '“throws”'],
        [`https://console.example.com/sets/s%202/messages?phrase=dark+mode&label=%E2%80%9Cdark+mode%E2%80%9D&${week}`, '“dark mode”'],
      ]),
    );
    const text = mail.text.replace(/\s+/g, ' ');
    expect(text).toContain(
      "Rising themes Was this page helpful? https://console.example.com/sets/s1 · what 'no' messages this week mention more than in the 4 weeks before",
    );
    expect(text).toMatch(/code <sample> \*broken\* https:\S+ 12 of 31, up from 2 of 40/);
    expect(text).toMatch(/“throws” https:\S+ 9 of 31, up from 1 of 40/);
    expect(text).toMatch(/Comments https:\S+ · what messages this week mention more than in the 4 weeks before “dark mode” https:\S+ 6 of 20, up from 0 of 30/);
  });

  test('a week where nothing grew has no such section', async () => {
    expect((await composeDigest({ ...digest, risingThemes: [] }, frame)).html).not.toContain('Rising themes');
    expect((await composeDigest({ ...digest, risingThemes: undefined }, frame)).html).not.toContain('Rising themes');
  });
});
