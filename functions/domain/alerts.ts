/**
 * Alerts, the pure part (the settings: alert-settings.ts, kept apart so that the widgets'
 * bundles, which show a set, carry no statistics) (docs/api.md "Alerts"): the two windows an
 * evaluation compares (the last 7 complete days and the 28 days before them), each entity's
 * test of a drop between them, the decision over all the entities of an account evaluated
 * together (Benjamini-Hochberg, multiple-testing.ts), and the plain words of an alert. No
 * I/O; the clock is an argument.
 */
import { addBuckets, bucketKey, bucketStart } from '../../shared/periods';
import type { Schema } from '../../shared/schema-options';
import type { GrownPhrase, GrownTheme } from '../../shared/theme-growth';
import { ALERT_QUIET_DAYS, type AlertSettings, CURRENT_DAYS, PREVIOUS_DAYS, type ScoreMeasure } from './alert-settings';
import { benjaminiHochberg } from './multiple-testing';
import { dropPValue, scoreChange, scoreInterval, type ScoreChange, type ScoreInterval, type ScoreSample } from './statistics';

/** A window of whole UTC days, `from` and `to` inclusive day keys (YYYY-MM-DD). */
export interface DayWindow {
  from: string;
  to: string;
}

/**
 * The windows an evaluation on `now`'s UTC day compares: the 7 complete days before it, and
 * the 28 days before those. Complete days, so that every evaluation of a day sees the same
 * counts: an entity's windows are one test a day, however often the job runs.
 */
export function alertWindows(now: Date): { current: DayWindow; previous: DayWindow } {
  const today = bucketStart('day', now);
  const day = (offset: number) => bucketKey('day', addBuckets('day', today, offset));
  return {
    current: { from: day(-CURRENT_DAYS), to: day(-1) },
    previous: { from: day(-CURRENT_DAYS - PREVIOUS_DAYS), to: day(-CURRENT_DAYS - 1) },
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

/** One entity's test: its windows' scores, the change with its 95% interval, and the p-value of a drop. */
export interface DropAssessment {
  current: WindowScore;
  previous: WindowScore;
  change: ScoreChange;
  /**
   * The p-value of a drop (statistics.ts `dropPValue`): Welch's one-sided for a mean, below
   * 0.025 exactly when `change`'s 95% interval lies below 0; Newcombe's two-sided for a fall of
   * a share, below 0.05 exactly when it does. At least one half for a rise.
   */
  pValue: number;
  /** The score fell by at least `minDrop` (point estimates; every score here is better when higher). */
  fellByMinDrop: boolean;
}

/**
 * Tests an entity's two windows: undefined when either has fewer than `minResponses` (it is
 * not tested, and not one of its evaluation's tests), otherwise the scores, the change, its
 * p-value and whether the drop is at least `minDrop`. Whether it alerts is decided with the
 * other entities of its account (`decideAlerts`).
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
  const pValue = dropPValue(samples.current, samples.previous);
  if (!current || !previous || !change || pValue === null) return undefined;
  return {
    current: { score: current, count: samples.current.n, ...windows.current },
    previous: { score: previous, count: samples.previous.n, ...windows.previous },
    change,
    pValue,
    fellByMinDrop: -change.delta >= (settings.minDrop ?? Number.POSITIVE_INFINITY) - 1e-12,
  };
}

/** Why an alert fired: its p-value and the threshold of its evaluation that it passed. */
export interface AlertSignificance {
  method: 'benjamini-hochberg';
  /** The p-value of the drop, from the method of its interval (`DropAssessment.pValue`). */
  pValue: number;
  /** The Benjamini-Hochberg adjusted p-value: the alert would have fired at any false discovery rate at or above it. */
  adjustedPValue: number;
  /** The step-up threshold the evaluation's alerts passed: k x falseDiscoveryRate / tested, k its significant changes. */
  threshold: number;
  /** The account's setting it was decided at. */
  falseDiscoveryRate: number;
  /** How many of the account's entities the evaluation tested (m). */
  tested: number;
}

/**
 * The alerts of one evaluation of an account's entities (each tested by `assessDrop`):
 * Benjamini-Hochberg at `falseDiscoveryRate` over all their p-values, then, of the changes it
 * finds significant, the drops of at least `minDrop`. The p-values are of drops (a rise has
 * one of at least one half, above every threshold, which never exceeds the rate, at most
 * 0.25). An alert's 95% interval lies below 0 whenever its threshold is at most 0.025 for a
 * mean, 0.05 for a share: at the default rate, unless most of the entities tested dropped.
 */
export function decideAlerts<Entry extends { assessment: DropAssessment }>(
  tested: readonly Entry[],
  falseDiscoveryRate: number,
): { entry: Entry; significance: AlertSignificance }[] {
  const { each, threshold } = benjaminiHochberg(
    tested.map((entry) => entry.assessment.pValue),
    falseDiscoveryRate,
  );
  return tested.flatMap((entry, index) => {
    const { assessment } = entry;
    if (!each[index].rejected || !assessment.fellByMinDrop || assessment.change.delta >= 0) return [];
    const significance: AlertSignificance = {
      method: 'benjamini-hochberg',
      pValue: assessment.pValue,
      adjustedPValue: each[index].adjustedPValue,
      threshold,
      falseDiscoveryRate,
      tested: tested.length,
    };
    return [{ entry, significance }];
  });
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
  type AccountAlertSettings,
  accountAlertSettingsOf,
  ALERT_QUIET_DAYS,
  ALERT_RETENTION_DAYS,
  alertSettingsOf,
  alertSettingsProblem,
  type AlertSettings,
  type AlertSettingsInput,
  CURRENT_DAYS,
  DEFAULT_FALSE_DISCOVERY_RATE,
  defaultMinDrop,
  MAX_FALSE_DISCOVERY_RATE,
  MIN_FALSE_DISCOVERY_RATE,
  PREVIOUS_DAYS,
  type ScoreMeasure,
  scoreMeasureOf,
} from './alert-settings';

/**
 * An alert as stored (store/alerts.ts) and listed by `alerts/list`: an entity's last 7 days
 * significantly worse than the 28 before. Later fields are optional, as alerts raised before
 * them are kept (400 days): a reader takes what it knows.
 */
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
  /** Why it fired; absent on alerts raised before each carried it. */
  significance?: AlertSignificance;
  /** What grew among its messages in the window (message sets; issue 40): themes, phrases, the tags read. */
  themes?: GrownTheme[];
  phrases?: GrownPhrase[];
  themeTags?: string[];
  createdAt: string;
}
