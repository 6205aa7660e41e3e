import {
  accountAlertSettingsOf,
  alertSettingsOf,
  alertSettingsProblem,
  alertWindows,
  alertWords,
  assessDrop,
  daysOf,
  decideAlerts,
  type DropAssessment,
  quietPeriodOver,
} from '../../functions/domain/alerts';
import { bestPages, type DigestPage, digestWeeks, largestChanges, responsesChange, worstPages } from '../../functions/domain/digest';
import { chatSegments, discordText, plainLine, slackText } from '../../functions/domain/webhook-chat';

const windows = alertWindows(new Date('2026-11-27T12:00:00Z'));
const share = (successes: number, n: number) => ({ kind: 'proportion' as const, successes, n });
const settings = { enabled: true, minResponses: 20, minDrop: 0.1 };

describe('alert settings', () => {
  test('defaults: on with a score, 20 responses, 0.10 of a share or sentiment, 0.5 of a 1-5 rating scaled by its range', () => {
    expect(alertSettingsOf('yes-no', {}, undefined)).toEqual({ enabled: true, minResponses: 20, minDrop: 0.1 });
    expect(alertSettingsOf('reaction', { options: [] } as never, undefined)).toEqual({ enabled: true, minResponses: 20, minDrop: 0.1 });
    expect(alertSettingsOf('rating', { min: 1, max: 5, step: 1 }, undefined).minDrop).toBe(0.5);
    expect(alertSettingsOf('rating', { min: 0, max: 10, step: 1 }, undefined).minDrop).toBe(1.25);
    expect(alertSettingsOf('pulse', {}, undefined)).toEqual({ enabled: false, minResponses: 20 });
    expect(alertSettingsOf('yes-no', {}, { enabled: false, minDrop: 0.3 })).toEqual({ enabled: false, minResponses: 20, minDrop: 0.3 });
  });

  test("an account's false discovery rate: 0.05 unless it chose another", () => {
    expect(accountAlertSettingsOf(undefined)).toEqual({ falseDiscoveryRate: 0.05 });
    expect(accountAlertSettingsOf({ falseDiscoveryRate: 0.1 })).toEqual({ falseDiscoveryRate: 0.1 });
  });

  test('a schema without a score may not turn alerts on or give a minDrop', () => {
    expect(alertSettingsProblem('message', { enabled: true })).toMatch(/no score/);
    expect(alertSettingsProblem('message', { minDrop: 0.2 })).toMatch(/no minDrop/);
    expect(alertSettingsProblem('message', { enabled: false, minResponses: 5 })).toBeUndefined();
    expect(alertSettingsProblem('yes-no', { enabled: true, minDrop: 0.2 })).toBeUndefined();
  });
});

describe('alert windows and drops', () => {
  test('the last 7 complete days (to yesterday) against the 28 days before them, the same all day', () => {
    expect(windows).toEqual({ current: { from: '2026-11-20', to: '2026-11-26' }, previous: { from: '2026-10-23', to: '2026-11-19' } });
    expect(alertWindows(new Date('2026-11-27T00:00:00Z'))).toEqual(windows);
    expect(alertWindows(new Date('2026-11-27T23:59:59.999Z'))).toEqual(windows);
    expect(daysOf(windows.previous)).toHaveLength(28);
    expect(daysOf(windows.current)).toHaveLength(7);
  });

  test("an entity's test: its scores, the change, the change's p-value and whether it fell by minDrop", () => {
    const drop = assessDrop({ current: share(10, 30), previous: share(40, 50) }, windows, settings)!;
    expect(drop.change).toMatchObject({ significant: true, method: 'newcombe' });
    expect(drop.current).toMatchObject({ count: 30, from: '2026-11-20', to: '2026-11-26', score: { method: 'wilson' } });
    expect(drop.pValue).toBeLessThan(0.0001);
    expect(drop.fellByMinDrop).toBe(true);
    // Significant with thousands of responses, but 5 points: under 0.10.
    const small = assessDrop({ current: share(7500, 10000), previous: share(8000, 10000) }, windows, settings)!;
    expect(small.pValue).toBeLessThan(0.05);
    expect(small.fellByMinDrop).toBe(false);
    expect(assessDrop({ current: share(40, 50), previous: share(10, 30) }, windows, settings)!.fellByMinDrop).toBe(false);
  });

  test('too few responses in either window: not tested', () => {
    expect(assessDrop({ current: share(0, 19), previous: share(40, 50) }, windows, settings)).toBeUndefined();
    expect(assessDrop({ current: share(10, 30), previous: share(19, 19) }, windows, settings)).toBeUndefined();
  });
});

describe("one evaluation's alerts: Benjamini-Hochberg over the account's tests", () => {
  /** A test with p-value `pValue` of a change `delta`, large enough or not. */
  const tested = (name: string, pValue: number, delta = -0.3, fellByMinDrop = true) => ({
    name,
    assessment: { pValue, fellByMinDrop, change: { delta, low: null, high: null, significant: null, method: 'newcombe' } } as unknown as DropAssessment,
  });
  // [BH95] section 4's 15 p-values (see multiple-testing.test.ts): the four smallest are significant at 0.05.
  const BH95 = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719, 0.6528, 0.759, 1];

  test('[BH95] the four smallest alert, each with its p-value and the threshold 4 x 0.05 / 15', () => {
    const decided = decideAlerts(
      BH95.map((p, index) => tested(`page-${index}`, p)),
      0.05,
    );
    expect(decided.map(({ entry }) => entry.name)).toEqual(['page-0', 'page-1', 'page-2', 'page-3']);
    expect(decided[3].significance).toEqual({
      method: 'benjamini-hochberg',
      pValue: 0.0095,
      adjustedPValue: expect.closeTo(0.035625, 12),
      threshold: expect.closeTo((4 * 0.05) / 15, 15),
      falseDiscoveryRate: 0.05,
      tested: 15,
    });
    // Alone, each of the first nine would have alerted (p < 0.05): the old rule's false alerts.
    expect(BH95.filter((p) => p < 0.05)).toHaveLength(9);
  });

  test('a significant rise or a drop under minDrop raises no alert, yet is one of the tests', () => {
    const decided = decideAlerts(
      [tested('rise', 0.0001, 0.3), tested('small', 0.0004, -0.05, false), ...BH95.slice(2).map((p, index) => tested(`page-${index}`, p))],
      0.05,
    );
    expect(decided.map(({ entry }) => entry.name)).toEqual(['page-0', 'page-1']);
    expect(decided[0].significance).toMatchObject({ tested: 15, threshold: expect.closeTo((4 * 0.05) / 15, 15) });
  });

  test('one entity tested alone alerts exactly when its 95% interval lies below 0, as before', () => {
    const alone = (current: number, previous: number) =>
      decideAlerts([{ assessment: assessDrop({ current: share(current, 40), previous: share(previous, 100) }, windows, settings)! }], 0.05);
    const significant = (current: number) => assessDrop({ current: share(current, 40), previous: share(80, 100) }, windows, settings)!.change.significant;
    // 80% of 100 before; of 40 since, from 15 (clearly worse) to 32 (the same share).
    const currents = Array.from({ length: 18 }, (_, index) => 15 + index);
    expect(currents.map((current) => alone(current, 80).length)).toEqual(currents.map((current) => (significant(current) ? 1 : 0)));
    expect(alone(15, 80)).toHaveLength(1);
    expect(alone(32, 80)).toHaveLength(0);
  });

  test('a higher rate finds more: at 0.25, the nine smallest of [BH95]', () => {
    expect(
      decideAlerts(
        BH95.map((p, index) => tested(`page-${index}`, p)),
        0.25,
      ),
    ).toHaveLength(9);
  });
});

describe('quiet days and words', () => {
  test('an entity alerts again only 7 days after its last alert', () => {
    expect(quietPeriodOver(undefined, new Date())).toBe(true);
    expect(quietPeriodOver('2026-11-20T12:00:01Z', new Date('2026-11-27T12:00:00Z'))).toBe(false);
    expect(quietPeriodOver('2026-11-20T12:00:00Z', new Date('2026-11-27T12:00:00Z'))).toBe(true);
  });

  test('plain words: "helpful fell from 82% (78-86%) to 61% (52-69%) over the last 7 days, 95 responses"', () => {
    const window = (value: number, low: number, high: number, count: number) => ({
      score: { value, low, high, method: 'wilson' as const },
      count,
      from: '',
      to: '',
    });
    expect(alertWords('share', window(0.61, 0.52, 0.69, 95), window(0.82, 0.78, 0.86, 400))).toBe(
      'helpful fell from 82% (78-86%) to 61% (52-69%) over the last 7 days, 95 responses',
    );
    const rating = (value: number) => ({ score: { value, low: value - 0.2, high: value + 0.2, method: 't' as const }, count: 40, from: '', to: '' });
    expect(alertWords('rating', rating(3.5), rating(4.25))).toBe('rating fell from 4.3 (4.0-4.5) to 3.5 (3.3-3.7) over the last 7 days, 40 responses');
    const line = slackText({
      type: 'stats.alert',
      data: {
        name: 'Getting <started>',
        measure: 'share',
        current: window(0.61, 0.52, 0.69, 95),
        previous: window(0.82, 0.78, 0.86, 400),
        url: 'https://c.example/items/x',
      },
    });
    expect(line).toBe('*Getting &lt;started&gt;*: helpful fell from 82% (78-86%) to 61% (52-69%) over the last 7 days, 95 responses https://c.example/items/x');
  });

  test('Slack, Discord and mails say why an alert fired after its words; an alert from before significance has none', () => {
    const window = (value: number, count: number) => ({
      score: { value, low: value - 0.05, high: value + 0.05, method: 'wilson' as const },
      count,
      from: '',
      to: '',
    });
    const significance = { method: 'benjamini-hochberg' as const, pValue: 2e-9, adjustedPValue: 1e-8, threshold: 0.0035, falseDiscoveryRate: 0.05, tested: 30 };
    const data = { name: 'Start', measure: 'share' as const, current: window(0.3, 30), previous: window(0.8, 50), url: 'https://c.example/items/x' };
    const why = 'p < 0.000001, under 0.0035, the threshold of the day’s 30 tests at a 5% false discovery rate.';
    const words = 'helpful fell from 80% (75-85%) to 30% (25-35%) over the last 7 days, 30 responses';
    // Slack's markup escapes the "<" of the bound; Discord's has nothing to escape in it.
    expect(slackText({ type: 'stats.alert', data: { ...data, significance } })).toBe(
      `*Start*: ${words}. ${why.replace('<', '&lt;')} https://c.example/items/x`,
    );
    expect(discordText({ type: 'stats.alert', data: { ...data, significance } })).toBe(`**Start**: ${words}. ${why} https://c.example/items/x`);
    expect(plainLine({ type: 'stats.alert', data: { ...data, significance, name: '', url: undefined } })).toBe(`: ${words}. ${why}`);
    expect(plainLine({ type: 'stats.alert', data })).toBe(`Start: ${words} https://c.example/items/x`);
  });
});

describe('digest', () => {
  test('the last complete week, Monday to Sunday, before the reference, and the week before', () => {
    expect(digestWeeks(new Date('2026-11-27T12:00:00Z'))).toEqual({
      week: { from: '2026-11-16', to: '2026-11-22' },
      previous: { from: '2026-11-09', to: '2026-11-15' },
    });
    // At Monday 00:00 the week that just ended is complete.
    expect(digestWeeks(new Date('2026-11-23T00:00:00Z')).week).toEqual({ from: '2026-11-16', to: '2026-11-22' });
  });

  const page = (id: string, count: number, low: number, high: number): DigestPage => ({
    contentItemId: id,
    contentSetId: 's',
    name: id,
    count,
    score: { value: (low + high) / 2, low, high, method: 'wilson' },
  });

  test('best by low descending, worst by high ascending; ties by count then id; fewer than 10 responses left out', () => {
    const pages = [page('a', 50, 0.6, 0.8), page('b', 20, 0.6, 0.9), page('c', 9, 0.95, 1), page('d', 20, 0.1, 0.3), page('e', 30, 0.6, 0.8)];
    expect(bestPages(pages).map((entry) => entry.contentItemId)).toEqual(['a', 'e', 'b', 'd']);
    expect(worstPages(pages).map((entry) => entry.contentItemId)).toEqual(['d', 'a', 'e', 'b']);
  });

  test('only significant changes, largest first either way; counts change as a difference and a percentage', () => {
    const change = (id: string, delta: number, significant: boolean) => ({
      ...page(id, 20, 0, 1),
      previous: { count: 20, score: page(id, 20, 0, 1).score },
      change: { delta, low: delta - 0.1, high: delta + 0.1, significant, method: 'newcombe' as const },
    });
    expect(largestChanges([change('a', -0.2, true), change('b', 0.3, true), change('c', -0.5, false)]).map((entry) => entry.contentItemId)).toEqual(['b', 'a']);
    expect(responsesChange(150, 100)).toEqual({ count: 150, previous: 100, change: { difference: 50, percentage: 50 } });
    expect(responsesChange(3, 0).change.percentage).toBeNull();
  });

  test('the chat text names the worst and best pages and the alerts, a line each', () => {
    const text = chatSegments({
      type: 'digest.weekly',
      data: {
        projectName: 'Docs',
        week: { from: '2026-11-16', to: '2026-11-22' },
        responses: responsesChange(120, 100),
        schemas: [{ schema: 'yes-no', measure: 'share', best: [page('Intro', 40, 0.8, 0.9)], worst: [page('Setup', 30, 0.2, 0.4)], changes: [] }],
        alerts: [],
      },
    })
      .map((segment) => segment.text)
      .join('');
    expect(text.split('\n')).toEqual([
      'Week 2026-11-16 to 2026-11-22 in Docs: 120 responses (+20% on the week before).',
      'Needs attention (yes-no): Setup 30% (30).',
      'Doing well (yes-no): Intro 85% (40).',
      'No alerts this week.',
    ]);
  });
});
