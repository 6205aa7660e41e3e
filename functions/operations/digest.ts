/**
 * A project's weekly digest (docs/api.md "Weekly digest"): what `projects/digest` answers
 * and the `digest.weekly` event carries (functions/jobs/digest.ts sends it).
 *
 * Its pages are the project's items with responses since the week began, from the watch
 * list the alerts job keeps (store/alerts.ts), so no scan: per such item one Query of its
 * 14 day counter items, and one BatchGetItem per 100 of them for their names. The week's
 * alerts are one Query of the account's alerts within the week.
 */
import { type ScoreMeasure, scoreMeasureOf } from '../domain/alerts';
import { sumCounters } from '../domain/aggregation';
import {
  bestPages,
  type DigestChange,
  type DigestPage,
  type DigestSchemaPart,
  type DigestWeek,
  digestWeeks,
  largestChanges,
  type ProjectDigest,
  responsesChange,
  worstPages,
} from '../domain/digest';
import { daysOf } from '../domain/alerts';
import { optionLabels, type Schema, scoreSample } from '../domain/schemas';
import { scoreChange, scoreInterval } from '../domain/statistics';
import { alertOf, readAlerts, readSetFacts, watchedEntities } from '../store/alerts';
import { getRawItemsChunked } from '../store/batch';
import { counterFromPoint, daySk, pointRecords, readCounterItems, type AggregateEntity } from '../store/counters';
import type { TableClient } from '../store/dynamodb-clients';
import { themeSets } from '../store/themes';
import { themeGrowth } from './theme-growth';

/** Alerts a digest lists at most (the week's newest). */
const DIGEST_ALERTS = 100;
const ITEM_CONCURRENCY = 8;
/** The days before the week its themes are measured against (the themes answer's history). */
const GROWTH_HISTORY_DAYS = 28;

async function weekCounters(store: TableClient, entity: AggregateEntity, id: string, weeks: ReturnType<typeof digestWeeks>, optionCount: number) {
  const items = await readCounterItems(store, entity, id, { from: daySk(weeks.previous.from), to: daySk(weeks.week.to) });
  const points = pointRecords(items, 'day');
  const sum = (days: string[]) =>
    sumCounters(
      days.map((day) => counterFromPoint(points.get(day), optionCount)),
      optionCount,
    );
  return { current: sum(daysOf(weeks.week)), previous: sum(daysOf(weeks.previous)) };
}

export async function buildProjectDigest(
  store: TableClient,
  project: { accountId: string; projectId: string; name: string },
  reference: Date,
): Promise<ProjectDigest> {
  const weeks = digestWeeks(reference);
  const totals = await weekCounters(store, 'project', project.projectId, weeks, 0);

  const items = (await watchedEntities(store, project.accountId, project.projectId, weeks.week.from)).filter((entity) => entity.entity === 'contentItem');
  const sets = await readSetFacts(store, new Set(items.map((item) => item.contentSetId)));
  const names = new Map<string, string>();
  for (const item of await getRawItemsChunked(
    store,
    items.map((entry) => ({ pk: `content#${entry.id}`, sk: 'content' })),
  )) {
    if (item) names.set(String(item.id), String(item.title || item.key || item.id));
  }

  const parts = new Map<Schema, { measure: ScoreMeasure; pages: DigestPage[]; changes: DigestChange[] }>();
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const set = sets.get(item.contentSetId);
      const measure = set && scoreMeasureOf(set.schema);
      if (!set || !measure) continue;
      const counters = await weekCounters(store, 'contentItem', item.id, weeks, optionLabels(set.schema, set.config).length);
      const current = scoreSample(set.schema, set.config, counters.current)!;
      const previous = scoreSample(set.schema, set.config, counters.previous)!;
      const score = scoreInterval(current);
      if (!score) continue;
      const part = parts.get(set.schema) ?? { measure, pages: [], changes: [] };
      parts.set(set.schema, part);
      const page: DigestPage = { contentItemId: item.id, contentSetId: set.id, name: names.get(item.id) ?? item.id, count: current.n, score };
      part.pages.push(page);
      const before = scoreInterval(previous);
      const change = scoreChange(current, previous);
      if (before && change) part.changes.push({ ...page, previous: { count: previous.n, score: before }, change });
    }
  };
  await Promise.all(Array.from({ length: ITEM_CONCURRENCY }, worker));

  const schemas: DigestSchemaPart[] = [...parts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([schema, part]) => ({
      schema,
      measure: part.measure,
      best: bestPages(part.pages),
      worst: worstPages(part.pages),
      changes: largestChanges(part.changes),
    }));

  const { items: alerts } = await readAlerts(
    store,
    project.accountId,
    { projectId: project.projectId, from: `${weeks.week.from}T00:00:00.000Z`, to: `${weeks.week.to}T23:59:59.999Z~` },
    { count: DIGEST_ALERTS },
  );
  const risingThemes = await projectThemeGrowth(store, project, weeks.week);
  return {
    projectId: project.projectId,
    projectName: project.name,
    week: weeks.week,
    previousWeek: weeks.previous,
    responses: responsesChange(totals.current.count, totals.previous.count),
    schemas,
    alerts: alerts.map(alertOf),
    risingThemes,
  };
}

/** What grew in each of the project's message sets during the week, against the 4 weeks before it (operations/theme-growth.ts). */
async function projectThemeGrowth(
  store: TableClient,
  project: { accountId: string; projectId: string },
  week: DigestWeek,
): Promise<NonNullable<ProjectDigest['risingThemes']>> {
  const ids = (await themeSets(store, project.projectId)).filter((set) => set.accountId === project.accountId).map((set) => set.contentSetId);
  const sets = [...(await readSetFacts(store, ids)).values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  const beforeFrom = new Date(Date.parse(`${week.from}T00:00:00Z`) - GROWTH_HISTORY_DAYS * 86_400_000).toISOString().slice(0, 10);
  const grown = await Promise.all(sets.map((set) => themeGrowth(store, set, { scope: 'set', id: set.id }, week, beforeFrom)));
  return sets.flatMap((set, index) => {
    const growth = grown[index];
    return growth && (growth.themes.length > 0 || growth.phrases.length > 0) ? [{ contentSetId: set.id, name: set.name, ...growth }] : [];
  });
}
