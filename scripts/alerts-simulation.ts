/**
 * The null simulation of `npm run bench:alerts-null` (scripts/bench-alerts-null.ts), the
 * pure part: the pages and their responses from a seeded generator in 32-bit integer
 * arithmetic, and a replay of the alerts job's decisions over them in memory through the
 * same domain functions the job calls (domain/alerts.ts: the windows, each entity's test,
 * Benjamini-Hochberg per account, the quiet week). The bench checks on DynamoDB Local that
 * the real job decides exactly as the replay does; the replay then runs at full scale and
 * over many seeds, which DynamoDB Local could not in a bench's time.
 *
 * Days are numbered from the first day of the simulated week, day 0; history is days -35
 * to -1, the week days 0 to 6 (evaluated hourly), and day 7's first run closes it.
 */
import {
  ALERT_QUIET_DAYS,
  type AlertSettings,
  alertSettingsOf,
  alertWindows,
  assessDrop,
  CURRENT_DAYS,
  decideAlerts,
  type DropAssessment,
  PREVIOUS_DAYS,
} from '../functions/domain/alerts';
import { addContribution, type Counter, COUNTER_SUMS, emptyCounter, mergeCounters } from '../functions/domain/aggregation';
import { type AnySchemaConfig, normalizeValue, optionLabels, parseSchemaConfig, type Schema, scoreSample } from '../functions/domain/schemas';
import type { Contribution } from '../functions/domain/schemas';
import { changePValue, type ProportionSample, type ScoreSample } from '../functions/domain/statistics';
import hypergeometricCdf from '@stdlib/stats-base-dists-hypergeometric-cdf';
import hypergeometricPmf from '@stdlib/stats-base-dists-hypergeometric-pmf';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
export const HISTORY_DAYS = PREVIOUS_DAYS + CURRENT_DAYS;
export const WEEK_DAYS = 7;

/** mulberry32 (Tommy Ettinger's): a 32-bit state, Math.imul and shifts only; uniform integers in [0, 2^32). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** P(draw < threshold) = p, the threshold an integer: the comparison stays in 32-bit integers. */
const threshold = (p: number) => Math.round(p * 2 ** 32);

/** How a page behaves: steady at 0.8; dropping to 0.5 from day -7 (its last 7 days before the week); or from day -1. */
export type PageKind = 'stable' | 'droppedBefore' | 'dropsInWeek';

export interface SimulatedPage {
  key: string;
  kind: PageKind;
  /** Responses a day: 5 or 10, alternately. */
  perDay: number;
}

/** The share of good responses on `day`. */
export function goodShare(kind: PageKind, day: number): number {
  if (kind === 'droppedBefore' && day >= -CURRENT_DAYS) return 0.5;
  if (kind === 'dropsInWeek' && day >= -1) return 0.5;
  return 0.8;
}

/** One response: its page, day, minute of the day, whether it is good, and which of the two good (or bad) values. */
export interface SimulatedResponse {
  page: number;
  day: number;
  minute: number;
  good: boolean;
  variant: number;
}

export interface Scenario {
  stable: number;
  /** Pages of each dropping kind (half at 5 responses a day, half at 10). */
  dropping: number;
  seed: number;
}

export function simulatedPages({ stable, dropping }: Scenario): SimulatedPage[] {
  const page = (kind: PageKind, index: number): SimulatedPage => ({ key: `${kind}-${String(index).padStart(4, '0')}`, kind, perDay: index % 2 === 0 ? 5 : 10 });
  return [
    ...Array.from({ length: stable }, (_, index) => page('stable', index)),
    ...Array.from({ length: dropping }, (_, index) => page('droppedBefore', index)),
    ...Array.from({ length: dropping }, (_, index) => page('dropsInWeek', index)),
  ];
}

/** Every response of days -35 to 6, in a fixed order of draws (day, page, response). */
export function simulatedResponses(pages: readonly SimulatedPage[], seed: number): SimulatedResponse[] {
  const next = mulberry32(seed);
  const responses: SimulatedResponse[] = [];
  for (let day = -HISTORY_DAYS; day < WEEK_DAYS; day++) {
    pages.forEach((page, index) => {
      const good = threshold(goodShare(page.kind, day));
      for (let count = 0; count < page.perDay; count++) {
        // A day has 1,440 minutes; 2^32 mod 1,440 is 1,216, a bias below 3 in 10 million.
        responses.push({ page: index, day, minute: next() % 1440, good: next() < good, variant: next() >>> 31 });
      }
    });
  }
  return responses;
}

/** The schemas simulated: the value of a good and a bad response (two of each, by `variant`), and the set's config. */
export const SIMULATED_SCHEMAS = {
  // A share: yes or no.
  'yes-no': { config: {}, good: ['y', 'y'], bad: ['n', 'n'], method: 'Newcombe' },
  // A 1-5 rating: 4 or 5 when good, 1 or 2 when bad (means 3.9, then 3.0).
  rating: { config: {}, good: [5, 4], bad: [1, 2], method: 'Welch' },
  // The evaluation preset's sentiments: love (+1) or happy (+0.5) when good, sad (-0.5) or hate (-1) when bad (0.45, then 0).
  reaction: { config: { preset: 'evaluation' }, good: ['love', 'happy'], bad: ['hate', 'sad'], method: 'Welch' },
} as const satisfies Partial<Record<Schema, { config: unknown; good: readonly unknown[]; bad: readonly unknown[]; method: string }>>;
export type SimulatedSchema = keyof typeof SIMULATED_SCHEMAS;

/** The simulated set's complete schemaConfig, as sets/create stores it. */
export function simulatedConfig(schema: SimulatedSchema): AnySchemaConfig {
  const parsed = parseSchemaConfig(schema, SIMULATED_SCHEMAS[schema].config);
  if (!parsed.success) throw new Error(`the simulated ${schema} config is refused: ${parsed.error.message}`);
  return parsed.data as AnySchemaConfig;
}

export function responseValue(schema: SimulatedSchema, response: SimulatedResponse): string | number {
  const values = SIMULATED_SCHEMAS[schema];
  return (response.good ? values.good : values.bad)[response.variant];
}

/** When the job's run of `hour` (0 to 167 in the week, 168 the next day's first) happens: 50 minutes in. */
export const runTime = (weekStart: number, hour: number) => weekStart + hour * HOUR_MS + 50 * 60_000;

/** A response's time: its day and minute from the week's start. */
export const responseTime = (weekStart: number, response: SimulatedResponse) => weekStart + response.day * DAY_MS + response.minute * 60_000;

/** The first run at or after a response of the week: the run that finds it in the change records. */
export function runOf(response: SimulatedResponse): number {
  const minutes = response.day * 24 * 60 + response.minute;
  return Math.max(0, Math.ceil((minutes - 50) / 60));
}

/** The last run: day 7's first, which closes the week. */
export const LAST_RUN = WEEK_DAYS * 24;

/** An alert decided by a replay or raised by the job: the entity (a page's key, or `set`) and the hour of its run. */
export interface SimulatedAlert {
  entity: string;
  hour: number;
}

/** What the replay is told: the schema, the account's rate, and how the job looks. */
export interface ReplayOptions {
  schema: SimulatedSchema;
  falseDiscoveryRate: number;
  /**
   * `daily`: the job as built (windows end yesterday, each entity tested once a day at the day's
   * first run, Benjamini-Hochberg); `hourly`: the same decision on the windows the job used before
   * (the last 7 days to now), at every run for the entities that changed and at the day's first
   * for all; `hourlyUnadjusted`: the job before, each entity's 95% interval alone.
   */
  looks: 'daily' | 'hourly' | 'hourlyUnadjusted';
  /**
   * The p-value each entity is decided on: `drop`, the job's (statistics.ts `dropPValue`:
   * Welch's one-sided, Newcombe's two-sided for a fall of a share); `twoSided`, the job's
   * before (the change's two-sided p-value, `changePValue`, for every schema); `halved`, the
   * one-sided half of the two-sided p-value for a fall (1 minus it for a rise), for every
   * schema: for a mean it is `drop`, for a share the one-sided Newcombe not chosen;
   * `fisherRandomized`, for a share only, the yardstick: the p-value of Fisher's randomized
   * conditional test of a fall, the uniformly most powerful unbiased test of one page's fall
   * (Lehmann and Romano, Testing Statistical Hypotheses, 3rd ed., 2005, section 4.5). No
   * test that keeps its promised level at every true share finds more falls on average at
   * a given threshold; it draws a random number per test, so it is a measure of what any
   * honest p-value could reach, not one a person could be shown.
   */
  pValue?: 'drop' | 'twoSided' | 'halved' | 'fisherRandomized';
  /** Seeds the `fisherRandomized` test's draws. */
  seed?: number;
}

function negated(counter: Counter): Counter {
  const result = { count: -counter.count, options: counter.options.map((count) => -count) } as Counter;
  for (const field of COUNTER_SUMS) result[field] = -counter[field];
  return result;
}

/** Per entity (each page, then the set) and day, the running totals from day -35: a window is a difference. */
class DayTotals {
  private readonly running: Counter[][];
  /** `perDay[entity][day + 35]`: an entity's counter of a day. */
  constructor(perDay: Counter[][], optionCount: number) {
    this.running = perDay.map((days) => {
      const running = [emptyCounter(optionCount)];
      for (const counter of days) running.push(mergeCounters(running.at(-1)!, counter));
      return running;
    });
  }
  /** Days from `from` to `to` inclusive (day numbers of the week). */
  window(entity: number, from: number, to: number): Counter {
    const running = this.running[entity];
    return mergeCounters(running[to + HISTORY_DAYS + 1], negated(running[from + HISTORY_DAYS]));
  }
}

/**
 * Replays the job over `responses` through the week's 168 hourly runs and the next day's
 * first: returns the alerts it decides, each an entity and the hour of its run.
 */
export function replayAlerts(
  pages: readonly SimulatedPage[],
  responses: readonly SimulatedResponse[],
  weekStart: number,
  options: ReplayOptions,
): SimulatedAlert[] {
  const { schema } = options;
  const config = simulatedConfig(schema);
  const optionCount = optionLabels(schema, config).length;
  const settings: AlertSettings = alertSettingsOf(schema, config, undefined);
  const SET = pages.length;
  const names = [...pages.map((page) => page.key), 'set'];
  const contributions = new Map<string | number, Contribution>();
  const contributionOf = (value: string | number) => {
    let found = contributions.get(value);
    if (!found) {
      const normalized = normalizeValue(schema, config, value);
      if (!normalized.ok) throw new Error(`simulated value ${value} refused: ${normalized.reason}`);
      found = normalized.contribution;
      contributions.set(value, found);
    }
    return found;
  };

  // Day counters per entity; the week's responses by day and entity, for the windows that end
  // now; which entities each run finds changed.
  const perDay = Array.from({ length: SET + 1 }, () => Array.from({ length: HISTORY_DAYS + WEEK_DAYS }, () => emptyCounter(optionCount)));
  const weekByDay = Array.from({ length: WEEK_DAYS }, () => Array.from({ length: SET + 1 }, () => [] as { run: number; contribution: Contribution }[]));
  const changedAt = Array.from({ length: LAST_RUN + 1 }, () => new Set<number>());
  for (const response of responses) {
    const contribution = contributionOf(responseValue(schema, response));
    for (const entity of [response.page, SET]) {
      perDay[entity][response.day + HISTORY_DAYS] = addContribution(perDay[entity][response.day + HISTORY_DAYS], contribution, 1);
      if (response.day >= 0) {
        weekByDay[response.day][entity].push({ run: runOf(response), contribution });
        changedAt[runOf(response)].add(entity);
      }
    }
  }
  const totals = new DayTotals(perDay, optionCount);

  const draw = mulberry32(options.seed ?? 1);
  const alerts: SimulatedAlert[] = [];
  const lastAlert = new Map<number, number>();
  const quiet = (entity: number, at: number) => lastAlert.has(entity) && at - lastAlert.get(entity)! < ALERT_QUIET_DAYS * DAY_MS;
  const testedToday = new Set<number>();
  for (let hour = 0; hour <= LAST_RUN; hour++) {
    const day = Math.floor(hour / 24);
    const at = runTime(weekStart, hour);
    const firstOfDay = hour % 24 === 0;
    if (firstOfDay) testedToday.clear();
    const candidates = firstOfDay ? names.map((_, entity) => entity) : [...changedAt[hour]];
    const tested: { entity: number; assessment: DropAssessment }[] = [];
    for (const entity of candidates) {
      if (quiet(entity, at)) continue;
      let samples: ReturnType<typeof samplesOf>;
      if (options.looks === 'daily') {
        if (testedToday.has(entity)) continue;
        samples = samplesOf(
          totals.window(entity, day - CURRENT_DAYS - PREVIOUS_DAYS, day - CURRENT_DAYS - 1),
          totals.window(entity, day - CURRENT_DAYS, day - 1),
        );
      } else {
        // The last 7 days to now: today so far and the 6 days before; the 28 before them.
        let current = totals.window(entity, day - CURRENT_DAYS + 1, day - 1);
        if (day < WEEK_DAYS) {
          for (const response of weekByDay[day][entity]) if (response.run <= hour) current = addContribution(current, response.contribution, 1);
        }
        samples = samplesOf(totals.window(entity, day - CURRENT_DAYS - PREVIOUS_DAYS + 1, day - CURRENT_DAYS), current);
      }
      if (!samples) continue;
      const windows = alertWindows(new Date(at));
      const assessed = assessDrop(samples, windows, settings);
      if (!assessed) continue;
      const assessment = { ...assessed, pValue: pValueOf(options.pValue ?? 'drop', assessed, samples, draw) };
      if (options.looks === 'daily') testedToday.add(entity);
      tested.push({ entity, assessment });
    }
    const decided =
      options.looks === 'hourlyUnadjusted'
        ? tested.filter(({ assessment }) => assessment.change.significant && assessment.change.delta < 0 && assessment.fellByMinDrop)
        : decideAlerts(tested, options.falseDiscoveryRate).map(({ entry }) => entry);
    for (const { entity } of decided) {
      lastAlert.set(entity, at);
      alerts.push({ entity: names[entity], hour });
    }
  }
  return alerts;

  function samplesOf(previous: Counter, current: Counter) {
    const previousSample = scoreSample(schema, config, previous);
    const currentSample = scoreSample(schema, config, current);
    return previousSample && currentSample ? { current: currentSample, previous: previousSample } : undefined;
  }
}

/** The p-value an entity is decided on in the replay (`ReplayOptions.pValue`). */
function pValueOf(
  kind: NonNullable<ReplayOptions['pValue']>,
  assessment: DropAssessment,
  samples: { current: ScoreSample; previous: ScoreSample },
  draw: () => number,
): number {
  if (kind === 'drop') return assessment.pValue;
  if (kind === 'fisherRandomized') {
    if (samples.current.kind !== 'proportion' || samples.previous.kind !== 'proportion') throw new Error("Fisher's test is for shares");
    return fisherRandomizedFallPValue(samples.current, samples.previous, draw() / 2 ** 32);
  }
  const twoSided = changePValue(samples.current, samples.previous)!;
  if (kind === 'twoSided') return twoSided;
  return assessment.change.delta < 0 ? twoSided / 2 : 1 - twoSided / 2;
}

/**
 * Fisher's randomized conditional p-value of a fall of `current`'s share below `previous`'s:
 * given both windows' successes together, the current window's count is hypergeometric when
 * nothing changed, and P(fewer) + u P(as many), u uniform in [0, 1), is exactly uniform then.
 * Rejecting when it is at most a level is the uniformly most powerful unbiased test at that
 * level (Lehmann and Romano, section 4.5). Checked against SciPy's hypergeom in
 * test/unit/alerts-simulation.test.ts.
 */
export function fisherRandomizedFallPValue(current: ProportionSample, previous: ProportionSample, u: number): number {
  const population = current.n + previous.n;
  const successes = current.successes + previous.successes;
  const fewer = current.successes === 0 ? 0 : hypergeometricCdf(current.successes - 1, population, successes, current.n);
  return fewer + u * hypergeometricPmf(current.successes, population, successes, current.n);
}

/** What an alert list says of the scenario: false alerts on stable pages, and which dropping pages alerted by when. */
export interface Outcome {
  /** Alerts on stable pages at the week's first evaluation (day 0's first run). */
  falseAtFirst: number;
  /** Pages dropped in their last 7 days alerted at that evaluation, of `dropping`. */
  droppedAlertedAtFirst: number;
  /** Alerts on stable pages over the week's 168 runs. */
  falseInWeek: number;
  /** Pages dropping from day -1 (their window wholly dropped from day 6 on) alerted by the end of day 6, of `dropping`. */
  dropsAlertedWithinADay: number;
  /** Alerts on the set (its share moves little: a few pages of many). */
  setAlerts: number;
}

export function outcomeOf(pages: readonly SimulatedPage[], alerts: readonly SimulatedAlert[]): Outcome {
  const kindOf = new Map(pages.map((page) => [page.key, page.kind]));
  const inWeek = alerts.filter((alert) => alert.hour < LAST_RUN);
  const count = (list: readonly SimulatedAlert[], kind: PageKind) => list.filter((alert) => kindOf.get(alert.entity) === kind).length;
  return {
    falseAtFirst: count(
      inWeek.filter((alert) => alert.hour === 0),
      'stable',
    ),
    droppedAlertedAtFirst: count(
      inWeek.filter((alert) => alert.hour === 0),
      'droppedBefore',
    ),
    falseInWeek: count(inWeek, 'stable'),
    dropsAlertedWithinADay: count(inWeek, 'dropsInWeek'),
    setAlerts: inWeek.filter((alert) => alert.entity === 'set').length,
  };
}
