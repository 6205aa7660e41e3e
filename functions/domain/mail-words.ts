/**
 * What the mails say, the pure part (docs/api.md, "Mail"): subjects that say the news,
 * text made safe for a header, the scale a score's bar is drawn on, and how many of a
 * long list a mail shows. The markup is mail/templates.tsx.
 */
import { type AlertImage, formatScore, type ScoreMeasure } from './alerts';
import type { ProjectDigest } from './digest';

/** A header's user text at most (a subject stays readable in a list of mails; RFC 5322 lines stay short). */
export const SUBJECT_NAME_LIMIT = 80;
/** Alerts a mail lists at most; the rest are a link to the console's list. */
export const MAIL_ALERTS_LIMIT = 10;

/** The word of a measure in a subject ("helpful fell from 82% to 61%"). */
const MEASURE_WORDS: Record<ScoreMeasure, string> = { share: 'helpful', rating: 'rating', sentiment: 'sentiment' };

/**
 * Text from users (names of accounts, projects, pages) as it may stand in a header: one
 * line, no control or format characters (CR and LF above all: no header injection), no
 * bidirectional overrides, whitespace collapsed, cut on code points with an ellipsis.
 */
export function headerText(text: string, limit = SUBJECT_NAME_LIMIT): string {
  const line = text
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const points = Array.from(line);
  return points.length <= limit ? line : `${points.slice(0, limit - 1).join('')}…`;
}

const signed = (value: number) => `${value > 0 ? '+' : ''}${value}`;

/** "2 Mar" of a day key, in English (the mails' language). */
export function shortDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return `${date.getUTCDate()} ${date.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })}`;
}

/**
 * The digest's subject: its biggest news first. The largest significant drop of a page
 * ("Getting started: helpful fell from 82% to 61%"), else the week's alerts, else a rise,
 * else the responses and their change; then the project and the week.
 */
export function digestSubject(digest: ProjectDigest): string {
  const changes = digest.schemas.flatMap((part) => part.changes.map((change) => ({ part, change })));
  const drop = changes.filter(({ change }) => change.change.delta < 0).sort((a, b) => a.change.change.delta - b.change.change.delta)[0];
  const rise = changes.filter(({ change }) => change.change.delta > 0).sort((a, b) => b.change.change.delta - a.change.change.delta)[0];
  const moved = (entry: typeof drop, verb: string) =>
    `${headerText(entry.change.name, 60)}: ${MEASURE_WORDS[entry.part.measure]} ${verb} from ${formatScore(entry.part.measure, entry.change.previous.score.value)} to ${formatScore(entry.part.measure, entry.change.score.value)}`;
  const { count, change } = digest.responses;
  const news = drop
    ? moved(drop, 'fell')
    : digest.alerts.length > 0
      ? `${digest.alerts.length} alert${digest.alerts.length === 1 ? '' : 's'}: ${headerText(digest.alerts[0].name, 60)} got worse`
      : rise
        ? moved(rise, 'rose')
        : `${count} response${count === 1 ? '' : 's'}${change.percentage === null ? '' : ` (${signed(change.percentage)}%)`}`;
  return `${news} · ${headerText(digest.projectName, 40)}, week of ${shortDay(digest.week.from)}`;
}

/** An alert mail's subject: "Getting started: helpful fell from 82% to 61%". */
export function alertSubject(alert: Pick<AlertImage, 'name' | 'measure' | 'current' | 'previous'>): string {
  return `${headerText(alert.name, 60)}: ${MEASURE_WORDS[alert.measure]} fell from ${formatScore(alert.measure, alert.previous.score.value)} to ${formatScore(alert.measure, alert.current.score.value)}`;
}

/** The daily listing's subject: how many, and the first. */
export function dailyAlertsSubject(alerts: readonly Pick<AlertImage, 'name' | 'measure' | 'current' | 'previous'>[], day: string): string {
  if (alerts.length === 1) return `${alertSubject(alerts[0])} (alerts of ${shortDay(day)})`;
  return `${alerts.length} alerts on ${shortDay(day)}: ${alertSubject(alerts[0])}, and more`;
}

/**
 * The range a measure's bars are drawn on: a share 0-100%, a sentiment -1 to +1, a rating
 * its scale (1-5 unless the values say more).
 */
export function scaleOf(measure: ScoreMeasure, highest = 0): { min: number; max: number } {
  switch (measure) {
    case 'share':
      return { min: 0, max: 1 };
    case 'sentiment':
      return { min: -1, max: 1 };
    case 'rating':
      return { min: 1, max: Math.max(5, Math.ceil(highest)) };
  }
}

/** Where a value lies on a scale, in whole percent 0-100 (a bar's cell widths). */
export function percentOnScale(value: number, scale: { min: number; max: number }): number {
  const share = (value - scale.min) / (scale.max - scale.min);
  return Math.round(Math.min(1, Math.max(0, share)) * 100);
}

/** "61% (95% interval 52-69%)": a score in words, for a bar's text alternative. */
export function scoreInWords(measure: ScoreMeasure, score: { value: number; low: number; high: number }): string {
  return `${formatScore(measure, score.value)}, 95% interval ${formatScore(measure, score.low)} to ${formatScore(measure, score.high)}`;
}
