/**
 * Alerts, the pure part (the settings: alert-settings.ts, kept apart so that the widgets'
 * bundles, which show a set, carry no statistics) (docs/api.md "Alerts"): a set's alert settings and their defaults,
 * the two windows an evaluation compares (the last 7 days, `rolling7d` ending today, and
 * the 28 days before them), whether a drop between them is an alert, and the plain words
 * of an alert. No I/O; the clock is an argument.
 */
import { addBuckets, bucketKey, resolvePeriod } from '../../shared/periods';
import type { Schema } from '../../shared/schema-options';
import { ALERT_QUIET_DAYS, type AlertSettings, CURRENT_DAYS, PREVIOUS_DAYS, type ScoreMeasure } from './alert-settings';
import { scoreChange, scoreInterval, type ScoreChange, type ScoreInterval, type ScoreSample } from './statistics';

/** A window of whole UTC days, `from` and `to` inclusive day keys (YYYY-MM-DD). */
export interface DayWindow {
  from: string;
  to: string;
}

/** The windows an evaluation at `now` compares: `rolling7d` ending today, and the 28 days before it. */
export function alertWindows(now: Date): { current: DayWindow; previous: DayWindow } {
  const current = resolvePeriod('rolling7d', { now });
  if (current.points.length !== CURRENT_DAYS) throw new Error(`rolling7d has ${current.points.length} days`);
  return {
    current: { from: current.points[0], to: current.points.at(-1)! },
    previous: { from: bucketKey('day', addBuckets('day', current.start, -PREVIOUS_DAYS)), to: bucketKey('day', addBuckets('day', current.start, -1)) },
  };
}

/** The day keys of a window, oldest first. */
export function daysOf(window: DayWindow): string[] {
  const days: string[] = [];
  for (let day = new Date(`${window.from}T00:00:00Z`); bucketKey('day', day) <= window.to; day = addBuckets('day', day, 1)) days.push(bucketKey('day', day));
  return days;
}

/** A window's score as an alert carries it. */
export interface WindowScore {
  score: ScoreInterval;
  count: number;
  from: string;
  to: string;
}

export interface DropAssessment {
  current: WindowScore;
  previous: WindowScore;
  change: ScoreChange;
  /** Significantly worse by at least `minDrop`, with `minResponses` in each window. */
  alerts: boolean;
}

/**
 * Compares the two windows of an entity: undefined when either has fewer than
 * `minResponses` (nothing to say), otherwise the scores, the change, and whether it alerts:
 * the change's interval lies below 0 (significant, a drop) and the drop's point estimate is
 * at least `minDrop`. Every score here is better when higher.
 */
export function assessDrop(
  samples: { current: ScoreSample; previous: ScoreSample },
  windows: { current: DayWindow; previous: DayWindow },
  settings: AlertSettings,
): DropAssessment | undefined {
  const minResponses = Math.max(1, settings.minResponses);
  if (samples.current.n < minResponses || samples.previous.n < minResponses) return undefined;
  const current = scoreInterval(samples.current);
  const previous = scoreInterval(samples.previous);
  const change = scoreChange(samples.current, samples.previous);
  if (!current || !previous || !change) return undefined;
  const alerts =
    change.significant === true && change.high !== null && change.high < 0 && -change.delta >= (settings.minDrop ?? Number.POSITIVE_INFINITY) - 1e-12;
  return {
    current: { score: current, count: samples.current.n, ...windows.current },
    previous: { score: previous, count: samples.previous.n, ...windows.previous },
    change,
    alerts,
  };
}

/** Whether an entity that last alerted at `lastAlertAt` may alert again at `now`. */
export function quietPeriodOver(lastAlertAt: string | undefined, now: Date): boolean {
  return lastAlertAt === undefined || now.getTime() - Date.parse(lastAlertAt) >= ALERT_QUIET_DAYS * 24 * 3600 * 1000;
}

/** The entities an alert is about, and their pages in the console (console/src/app.tsx routes). */
export const ALERT_ENTITIES = ['contentSet', 'contentItem'] as const;
export type AlertEntity = (typeof ALERT_ENTITIES)[number];

export function consolePageUrl(consoleBase: string, entity: AlertEntity, id: string): string {
  return `${consoleBase}/${entity === 'contentSet' ? 'sets' : 'items'}/${encodeURIComponent(id)}`;
}

/** The word of a measure in a sentence ("helpful fell from 82% ..."). */
const MEASURE_WORDS: Record<ScoreMeasure, string> = { share: 'helpful', rating: 'rating', sentiment: 'sentiment' };

/** A score as a person reads it: a share in whole percent, a rating to one decimal, a sentiment signed to two. */
export function formatScore(measure: ScoreMeasure, value: number): string {
  switch (measure) {
    case 'share':
      return `${Math.round(value * 100)}%`;
    case 'rating':
      return value.toFixed(1);
    case 'sentiment':
      return `${value > 0 ? '+' : ''}${value.toFixed(2)}`;
  }
}

function formatInterval(measure: ScoreMeasure, score: ScoreInterval): string {
  const bound = (value: number) => (measure === 'share' ? String(Math.round(value * 100)) : formatScore(measure, value));
  return `${formatScore(measure, score.value)} (${bound(score.low)}-${measure === 'share' ? `${bound(score.high)}%` : bound(score.high)})`;
}

/** "helpful fell from 82% (78-86%) to 61% (52-69%) over the last 7 days, 95 responses": the alert without its entity's name. */
export function alertWords(measure: ScoreMeasure, current: WindowScore, previous: WindowScore): string {
  return `${MEASURE_WORDS[measure]} fell from ${formatInterval(measure, previous.score)} to ${formatInterval(measure, current.score)} over the last ${CURRENT_DAYS} days, ${current.count} responses`;
}

export {
  ALERT_QUIET_DAYS,
  ALERT_RETENTION_DAYS,
  alertSettingsOf,
  alertSettingsProblem,
  type AlertSettings,
  type AlertSettingsInput,
  CURRENT_DAYS,
  defaultMinDrop,
  PREVIOUS_DAYS,
  type ScoreMeasure,
  scoreMeasureOf,
} from './alert-settings';

/** An alert as stored (store/alerts.ts) and listed by `alerts/list`: an entity's last 7 days significantly worse than the 28 before. */
export interface AlertImage {
  id: string;
  accountId: string;
  projectId: string;
  contentSetId: string;
  entity: AlertEntity;
  entityId: string;
  /** The item's title or key, or the set's name, when the alert was raised. */
  name: string;
  schema: Schema;
  measure: ScoreMeasure;
  /** The entity's page in the console, when the service knows the console's URL. */
  url?: string;
  current: WindowScore;
  previous: WindowScore;
  change: ScoreChange;
  createdAt: string;
}
