import { alertSettingsOf, alertSettingsProblem, alertWindows, alertWords, assessDrop, daysOf, quietPeriodOver } from '../../functions/domain/alerts';
import { bestPages, type DigestPage, digestWeeks, largestChanges, responsesChange, worstPages } from '../../functions/domain/digest';
import { chatSegments, slackText } from '../../functions/domain/webhook-chat';

const windows = alertWindows(new Date('2026-11-27T12:00:00Z'));
const share = (successes: number, n: number) => ({ kind: 'proportion' as const, successes, n });

describe('alert settings', () => {
  test('defaults: on with a score, 20 responses, 0.10 of a share or sentiment, 0.5 of a 1-5 rating scaled by its range', () => {
    expect(alertSettingsOf('yes-no', {}, undefined)).toEqual({ enabled: true, minResponses: 20, minDrop: 0.1 });
    expect(alertSettingsOf('reaction', { options: [] } as never, undefined)).toEqual({ enabled: true, minResponses: 20, minDrop: 0.1 });
    expect(alertSettingsOf('rating', { min: 1, max: 5, step: 1 }, undefined).minDrop).toBe(0.5);
    expect(alertSettingsOf('rating', { min: 0, max: 10, step: 1 }, undefined).minDrop).toBe(1.25);
    expect(alertSettingsOf('pulse', {}, undefined)).toEqual({ enabled: false, minResponses: 20 });
    expect(alertSettingsOf('yes-no', {}, { enabled: false, minDrop: 0.3 })).toEqual({ enabled: false, minResponses: 20, minDrop: 0.3 });
  });

  test('a schema without a score may not turn alerts on or give a minDrop', () => {
    expect(alertSettingsProblem('message', { enabled: true })).toMatch(/no score/);
    expect(alertSettingsProblem('message', { minDrop: 0.2 })).toMatch(/no minDrop/);
    expect(alertSettingsProblem('message', { enabled: false, minResponses: 5 })).toBeUndefined();
    expect(alertSettingsProblem('yes-no', { enabled: true, minDrop: 0.2 })).toBeUndefined();
  });
});

describe('alert windows and drops', () => {
  test('the last 7 days (rolling7d ending today) against the 28 days before them', () => {
    expect(windows).toEqual({ current: { from: '2026-11-21', to: '2026-11-27' }, previous: { from: '2026-10-24', to: '2026-11-20' } });
    expect(daysOf(windows.previous)).toHaveLength(28);
    expect(daysOf(windows.current)).toHaveLength(7);
  });

  const settings = { enabled: true, minResponses: 20, minDrop: 0.1 };
  test('alerts when the change interval lies below 0 and the drop is at least minDrop', () => {
    const drop = assessDrop({ current: share(10, 30), previous: share(40, 50) }, windows, settings)!;
    expect(drop.alerts).toBe(true);
    expect(drop.change).toMatchObject({ significant: true, method: 'newcombe' });
    expect(drop.current).toMatchObject({ count: 30, from: '2026-11-21', to: '2026-11-27', score: { method: 'wilson' } });
  });

  test('no alert for a rise, a drop within the noise, a drop under minDrop, or too few responses', () => {
    expect(assessDrop({ current: share(40, 50), previous: share(10, 30) }, windows, settings)!.alerts).toBe(false);
    expect(assessDrop({ current: share(15, 20), previous: share(17, 20) }, windows, settings)!.alerts).toBe(false);
    // Significant with thousands of responses, but 5 points: under 0.10.
    const small = assessDrop({ current: share(7500, 10000), previous: share(8000, 10000) }, windows, settings)!;
    expect(small.change.significant).toBe(true);
    expect(small.alerts).toBe(false);
    expect(assessDrop({ current: share(0, 19), previous: share(40, 50) }, windows, settings)).toBeUndefined();
  });

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
