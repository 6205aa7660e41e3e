/**
 * The alerts job (docs/api.md "Alerts"): finds content items and sets whose last 7 days are
 * significantly worse than the 28 days before them, and raises one alert per such entity at
 * most every 7 days. Run hourly on AWS (EventBridge), every ALERTS_INTERVAL_SECONDS (30 s)
 * by `npm start`; the same code.
 *
 * Which entities it reads, without a scan: those with responses lately. A run
 * 1. reads the counting consumer's change records (store/top-lists.ts, as the ranker does)
 *    written since its own checkpoint, at most three hours of them, reading back and
 *    skipping what the last run read, like the ranker (`readChangesSinceCheckpoint`);
 * 2. marks the sets and items they name as watched (store/alerts.ts: their last day with a
 *    response; a watched entity expires 15 days later);
 * 3. evaluates the changed entities, and on its first run of a UTC day every entity watched
 *    with responses in the last 7 days (the windows slide without a response; an entity
 *    with none in 7 days cannot have `minResponses` in the current window);
 * 4. moves its checkpoint.
 *
 * Evaluating an entity: one Query of its 35 day counter items, its set's settings (one read
 * per set and run), and for an alert one read of the item (its name) and one transaction
 * (the alert record and the entity's guard: at most one alert in 7 days, also when runs
 * overlap). The record's insertion is the `stats.alert` event (through the stream to the
 * webhooks consumer). A set with alerts off covers its items.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type AlertEntity, alertWindows, assessDrop, consolePageUrl, daysOf, scoreMeasureOf } from '../domain/alerts';
import { sumCounters } from '../domain/aggregation';
import type { AlertImage } from '../domain/alerts';
import { optionLabels, scoreSample } from '../domain/schemas';
import { newId } from '../domain/text';
import { logger } from '../observability/logger';
import { raiseAlert, readSetFacts, watchedEntities, watchedProjects, watchEntities, type WatchedEntity } from '../store/alerts';
import { counterFromPoint, daySk, pointRecords, readCounterItems } from '../store/counters';
import type { TableClient } from '../store/dynamodb-clients';
import { readChangesSinceCheckpoint, saveChangeCheckpoint, type ChangeReader } from '../store/top-lists';
import { inParallel } from './parallel';

/** An hourly run reads its hour, a late one up to three; with no checkpoint, the last hour. */
const CHANGE_READER: ChangeReader = { checkpointKey: { pk: 'alerts', sk: 'checkpoint' }, maxMinutesPerRun: 180, firstRunLookbackMs: 60 * 60_000 };

export interface AlertsResult {
  from: string;
  to: string;
  changeRecords: number;
  /** Whether this run re-evaluated every entity watched in the last 7 days (its first of the UTC day). */
  daily: boolean;
  evaluated: number;
  alerts: string[];
}

export interface AlertsOptions {
  /** The console's base URL (CONSOLE_URL): alerts link the entity's page. */
  consoleUrl?: string;
  concurrency?: number;
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

/** Evaluates entities at `now`; raises the alerts due. Returns the ids of the alerts raised. */
export async function evaluateEntities(
  store: TableClient,
  entities: readonly Omit<WatchedEntity, 'lastDay'>[],
  now: Date,
  options: AlertsOptions = {},
): Promise<string[]> {
  const windows = alertWindows(now);
  const sets = await readSetFacts(store, new Set(entities.map((entity) => entity.contentSetId)));
  const raised: string[] = [];
  await inParallel([...entities], options.concurrency ?? 8, async (entity) => {
    const set = sets.get(entity.contentSetId);
    const measure = set && scoreMeasureOf(set.schema);
    if (!set?.active || !set.alerts.enabled || !measure) return;
    const optionCount = optionLabels(set.schema, set.config).length;
    const counters = await windowCounters(store, entity.entity, entity.id, windows, optionCount);
    const current = scoreSample(set.schema, set.config, counters.current);
    const previous = scoreSample(set.schema, set.config, counters.previous);
    if (!current || !previous) return;
    const assessment = assessDrop({ current, previous }, windows, set.alerts);
    if (!assessment?.alerts) return;
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
      createdAt: now.toISOString(),
    };
    if (await raiseAlert(store, alert, now)) raised.push(alert.id);
  });
  return raised;
}

/** One run of the alerts job at `now` (see the header). */
export async function runAlerts(store: TableClient, now: Date, options: AlertsOptions = {}): Promise<AlertsResult> {
  const run = await readChangesSinceCheckpoint(store, CHANGE_READER, now);
  const { checkpoint, from, to, changes, records } = run;

  const today = now.toISOString().slice(0, 10);
  const changed = new Map<string, Omit<WatchedEntity, 'lastDay'>>();
  for (const [contentSetId, change] of changes) {
    const scope = { accountId: change.accountId, projectId: change.projectId, contentSetId };
    changed.set(`contentSet#${contentSetId}`, { entity: 'contentSet', id: contentSetId, ...scope });
    for (const id of change.items) changed.set(`contentItem#${id}`, { entity: 'contentItem', id, ...scope });
  }
  await watchEntities(store, [...changed.values()], today);

  const daily = checkpoint?.evaluatedDay !== today;
  if (daily) {
    const since = alertWindows(now).current.from;
    for (const project of await watchedProjects(store, since)) {
      for (const entity of await watchedEntities(store, project.accountId, project.projectId, since)) {
        changed.set(`${entity.entity}#${entity.id}`, entity);
      }
    }
  }
  const alerts = await evaluateEntities(store, [...changed.values()], now, options);

  await saveChangeCheckpoint(store, CHANGE_READER, run, now, { evaluatedDay: today });
  const result: AlertsResult = { from: from.toISOString(), to: to.toISOString(), changeRecords: records, daily, evaluated: changed.size, alerts };
  if (records > 0 || daily || alerts.length > 0) logger.info('alerts evaluated', { ...result });
  return result;
}
