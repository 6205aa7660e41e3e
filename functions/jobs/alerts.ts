/**
 * The alerts job (docs/api.md "Alerts"): finds content items and sets whose last 7 complete
 * days are significantly worse than the 28 days before them, and raises one alert per such
 * entity at most every 7 days. Run hourly on AWS (EventBridge), every ALERTS_INTERVAL_SECONDS
 * (30 s) by `npm start`; the same code.
 *
 * Which entities it reads, without a scan: those with responses lately. A run
 * 1. reads the counting consumer's change records (store/top-lists.ts, as the ranker does)
 *    written since its own checkpoint, at most three hours of them, reading back and
 *    skipping what the last run read, like the ranker (`readChangesSinceCheckpoint`);
 * 2. marks the sets and items they name as watched (store/alerts.ts: their last day with a
 *    response; a watched entity expires 15 days later), once a day each: it reads their
 *    entries first and writes only those not yet marked that day;
 * 3. evaluates the entities not yet tested that day: on its first run of a UTC day every
 *    entity watched since the current window began (one with no response since cannot
 *    have `minResponses` in it), on later runs those that changed (a page whose history
 *    was imported, a new page);
 * 4. records which entities it tested that day, and moves its checkpoint.
 *
 * Once a day, on complete days: a stable page tested every hour would get a false alert
 * from one of its many looks (the windows slide and each look is a new chance). The windows
 * end yesterday, so each entity's are tested at most once a day, and a second evaluation
 * (a retry, overlapping schedules) repeats the same test on the same counts.
 *
 * The evaluation of the day: for each entity, one Query of its 35 day counter items and its
 * set's settings (one read per set), its test (domain/alerts.ts `assessDrop`: enough
 * responses, the change's p-value); entities that alerted in the last 7 days (their guards,
 * one read per 100) are not tested, since they cannot alert. Then, per account, the
 * decision over all its tested entities together at the account's false discovery rate
 * (`decideAlerts`: Benjamini-Hochberg), and for each alert one read of the item (its name)
 * and one transaction (the alert record and the entity's guard: at most one alert in 7
 * days, also when runs overlap). The record's insertion is the `stats.alert` event (through
 * the stream to the webhooks consumer). A set with alerts off covers its items.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  type AlertEntity,
  type AlertImage,
  alertWindows,
  assessDrop,
  consolePageUrl,
  daysOf,
  decideAlerts,
  type DropAssessment,
  type ScoreMeasure,
  scoreMeasureOf,
} from '../domain/alerts';
import { sumCounters } from '../domain/aggregation';
import { optionLabels, scoreSample } from '../domain/schemas';
import { newId } from '../domain/text';
import { logger } from '../observability/logger';
import {
  type AlertScope,
  entitiesInQuietPeriod,
  markTested,
  raiseAlert,
  readAccountAlertSettings,
  readSetFacts,
  type SetFacts,
  watchedEntities,
  watchedProjects,
  readWatchEntries,
  watchEntity,
  watchProjects,
  type WatchedEntity,
} from '../store/alerts';
import { counterFromPoint, daySk, pointRecords, readCounterItems } from '../store/counters';
import type { TableClient } from '../store/dynamodb-clients';
import { readChangesSinceCheckpoint, saveChangeCheckpoint, type ChangeReader } from '../store/top-lists';
import type { MailContext } from '../mail/mails';
import { type AlertMailResult, mailAlerts } from './alert-mail';
import { inParallel } from './parallel';
import { themeGrowth } from '../operations/theme-growth';

/** An hourly run reads its hour, a late one up to three; with no checkpoint, the last hour. */
const CHANGE_READER: ChangeReader = { checkpointKey: { pk: 'alerts', sk: 'checkpoint' }, maxMinutesPerRun: 180, firstRunLookbackMs: 60 * 60_000 };

export interface AlertsResult {
  from: string;
  to: string;
  changeRecords: number;
  /** Whether this run evaluated every watched entity (its first of the UTC day); later runs only changed ones. */
  daily: boolean;
  /** Entities it read: not yet tested that day. */
  evaluated: number;
  /** Entities it tested: enough responses in both windows, alerts on, not in their quiet days. */
  tested: number;
  alerts: string[];
  /** What it mailed (jobs/alert-mail.ts), when mail is on. */
  mail?: AlertMailResult;
}

export interface AlertsOptions {
  /** The console's base URL (CONSOLE_URL): alerts link the entity's page. */
  consoleUrl?: string;
  concurrency?: number;
  /** Mail, when on: the alerts go to the members who want them (jobs/alert-mail.ts). */
  mail?: MailContext;
}

/** The console's base URL from the configuration, or undefined when unset or not an http(s) URL. */
export function configuredConsoleUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.CONSOLE_URL?.trim();
  if (!configured) return undefined;
  try {
    const url = new URL(configured);
    return url.protocol === 'https:' || url.protocol === 'http:' ? `${url.origin}${url.pathname.replace(/\/+$/, '')}` : undefined;
  } catch {
    return undefined;
  }
}

/** An entity's counters over the two windows: one Query of its day items. */
async function windowCounters(store: TableClient, entity: AlertEntity, id: string, windows: ReturnType<typeof alertWindows>, optionCount: number) {
  const items = await readCounterItems(store, entity, id, { from: daySk(windows.previous.from), to: daySk(windows.current.to) });
  const points = pointRecords(items, 'day');
  const sum = (days: string[]) =>
    sumCounters(
      days.map((day) => counterFromPoint(points.get(day), optionCount)),
      optionCount,
    );
  return { current: sum(daysOf(windows.current)), previous: sum(daysOf(windows.previous)) };
}

/** An item's name in an alert: its title, else its key. */
async function itemName(store: TableClient, id: string): Promise<string> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: { pk: `content#${id}`, sk: 'content' } }));
  return String(Item?.title || Item?.key || id);
}

/** An entity tested by an evaluation. */
interface Tested {
  entity: AlertScope;
  set: SetFacts;
  measure: ScoreMeasure;
  assessment: DropAssessment;
}

/**
 * Evaluates entities on `now`'s UTC day: tests each, decides per account over all its
 * tested entities together, and raises the alerts due. Returns how many were tested and
 * the ids of the alerts raised.
 */
export async function evaluateEntities(
  store: TableClient,
  entities: readonly AlertScope[],
  now: Date,
  options: AlertsOptions = {},
): Promise<{ tested: AlertScope[]; alerts: string[] }> {
  const windows = alertWindows(now);
  const sets = await readSetFacts(store, new Set(entities.map((entity) => entity.contentSetId)));
  const watching = entities.filter((entity) => {
    const set = sets.get(entity.contentSetId);
    return set?.active === true && set.alerts.enabled && scoreMeasureOf(set.schema) !== undefined;
  });
  const quiet = await entitiesInQuietPeriod(store, watching, now);
  const tested: Tested[] = [];
  await inParallel(
    watching.filter((entity) => !quiet.has(`${entity.entity}#${entity.id}`)),
    options.concurrency ?? 8,
    async (entity) => {
      const set = sets.get(entity.contentSetId)!;
      const optionCount = optionLabels(set.schema, set.config).length;
      const counters = await windowCounters(store, entity.entity, entity.id, windows, optionCount);
      const current = scoreSample(set.schema, set.config, counters.current);
      const previous = scoreSample(set.schema, set.config, counters.previous);
      const assessment = current && previous && assessDrop({ current, previous }, windows, set.alerts);
      if (assessment) tested.push({ entity, set, measure: scoreMeasureOf(set.schema)!, assessment });
    },
  );

  const accounts = new Map<string, Tested[]>();
  for (const entry of tested) {
    const family = accounts.get(entry.set.accountId) ?? [];
    family.push(entry);
    accounts.set(entry.set.accountId, family);
  }
  const settings = await readAccountAlertSettings(store, accounts.keys());
  const due = [...accounts].flatMap(([accountId, family]) => decideAlerts(family, settings.get(accountId)!.falseDiscoveryRate));
  const raised: string[] = [];
  await inParallel(due, options.concurrency ?? 8, async ({ entry: { entity, set, measure, assessment }, significance }) => {
    const scope = { scope: entity.entity === 'contentSet' ? ('set' as const) : ('item' as const), id: entity.id };
    const growth = await themeGrowth(store, set, scope, windows.current, windows.previous.from);
    const alert: AlertImage = {
      id: newId(),
      accountId: set.accountId,
      projectId: set.projectId,
      contentSetId: set.id,
      entity: entity.entity,
      entityId: entity.id,
      name: entity.entity === 'contentSet' ? set.name : await itemName(store, entity.id),
      schema: set.schema,
      measure,
      ...(options.consoleUrl ? { url: consolePageUrl(options.consoleUrl, entity.entity, entity.id) } : {}),
      current: assessment.current,
      previous: assessment.previous,
      change: assessment.change,
      significance,
      ...(growth ? { themes: growth.themes, phrases: growth.phrases, ...(growth.tags ? { themeTags: growth.tags } : {}) } : {}),
      createdAt: now.toISOString(),
    };
    if (await raiseAlert(store, alert, now)) raised.push(alert.id);
  });
  return { tested: tested.map((entry) => entry.entity), alerts: raised };
}

/** One run of the alerts job at `now` (see the header). */
export async function runAlerts(store: TableClient, now: Date, options: AlertsOptions = {}): Promise<AlertsResult> {
  const run = await readChangesSinceCheckpoint(store, CHANGE_READER, now);
  const { checkpoint, from, to, changes, records } = run;

  const today = now.toISOString().slice(0, 10);
  const changed = new Map<string, AlertScope>();
  for (const [contentSetId, change] of changes) {
    const scope = { accountId: change.accountId, projectId: change.projectId, contentSetId };
    changed.set(`contentSet#${contentSetId}`, { entity: 'contentSet', id: contentSetId, ...scope });
    for (const id of change.items) changed.set(`contentItem#${id}`, { entity: 'contentItem', id, ...scope });
  }
  // Marked once a day: an entity already marked today is only read (store/alerts.ts readWatchEntries).
  const entities = [...changed.values()];
  const entries = await readWatchEntries(store, entities);
  const watchedNow: WatchedEntity[] = [];
  await inParallel(
    entities.map((entity, index) => ({ entity, entry: entries[index] })),
    16,
    async ({ entity, entry }) => {
      watchedNow.push(entry?.lastDay === today ? entry : await watchEntity(store, entity, today));
    },
  );
  await watchProjects(store, [...changed.values()], today);

  // Not yet tested today: on the day's first run every watched entity, later only changed ones.
  const daily = checkpoint?.evaluatedDay !== today;
  const due = new Map<string, WatchedEntity>();
  const since = alertWindows(now).current.from;
  if (daily) {
    for (const project of await watchedProjects(store, since)) {
      for (const entity of await watchedEntities(store, project.accountId, project.projectId, since)) due.set(`${entity.entity}#${entity.id}`, entity);
    }
  }
  for (const entity of watchedNow) due.set(`${entity.entity}#${entity.id}`, entity);
  const untested = [...due.values()].filter((entity) => entity.testedDay !== today);
  const { tested, alerts } = await evaluateEntities(store, untested, now, options);
  await inParallel(tested, 16, (entity) => markTested(store, entity, today));
  const mail = options.mail ? await mailAlerts(store, now, options.mail, daily) : undefined;

  await saveChangeCheckpoint(store, CHANGE_READER, run, now, { evaluatedDay: today });
  const result: AlertsResult = {
    from: from.toISOString(),
    to: to.toISOString(),
    changeRecords: records,
    daily,
    evaluated: untested.length,
    tested: tested.length,
    alerts,
    ...(mail ? { mail } : {}),
  };
  if (records > 0 || daily || alerts.length > 0) logger.info('alerts evaluated', { ...result });
  return result;
}
