import { type ScoreChange, type ScoreInterval, scoreChange, scoreInterval } from '../statistics';

/**
 * A theme's (or a phrase's) share of a period's messages with its Wilson interval, and with a
 * previous period its count and share there, the change of the share with Newcombe's interval
 * (functions/domain/statistics.ts, as getStats' compare) and `new` when it had no message
 * before. `isRising` says whether a share is significantly above its share in the history
 * before the period (Newcombe's interval of the difference above 0).
 */
export interface ShareOfPeriod {
  count: number;
  share: ScoreInterval | null;
}

export interface ShareWithChange extends ShareOfPeriod {
  previous: ShareOfPeriod;
  change: ScoreChange | null;
  new: boolean;
}

export function shareOf(count: number, total: number): ShareOfPeriod {
  return { count, share: scoreInterval({ kind: 'proportion', successes: count, n: total }) };
}

export function shareWithChange(count: number, total: number, previousCount: number, previousTotal: number): ShareWithChange {
  const change = scoreChange({ kind: 'proportion', successes: count, n: total }, { kind: 'proportion', successes: previousCount, n: previousTotal });
  return {
    ...shareOf(count, total),
    previous: shareOf(previousCount, previousTotal),
    change,
    new: previousCount === 0 && count > 0,
  };
}

/**
 * Rising: the period's share significantly above the share in the history before it (all the
 * scope's messages before the period that discovery saw, e.g. the 7 weeks before a week). The
 * history, not the previous period alone: a week of a few dozen messages against the week
 * before cannot show a theme that doubled within days (on the evaluation set it missed two of
 * three rising themes; against the history it found all three, docs/themes.md).
 */
export function isRising(count: number, total: number, historyCount: number, historyTotal: number): boolean {
  const change = scoreChange({ kind: 'proportion', successes: count, n: total }, { kind: 'proportion', successes: historyCount, n: historyTotal });
  return change?.significant === true && change.delta > 0;
}

/** How many of `messageIds` each theme holds (`other` for those in none): to count a period's messages, or the one before. */
export function countsByTheme(themes: ReadonlyArray<{ id: string; messageIds: readonly string[] }>, messageIds: Iterable<string>): Map<string, number> {
  const themeOf = new Map<string, string>();
  for (const theme of themes) for (const id of theme.messageIds) themeOf.set(id, theme.id);
  const counts = new Map<string, number>([...themes.map((theme) => [theme.id, 0] as [string, number]), ['other', 0]]);
  for (const id of messageIds) {
    const theme = themeOf.get(id) ?? 'other';
    counts.set(theme, (counts.get(theme) ?? 0) + 1);
  }
  return counts;
}
