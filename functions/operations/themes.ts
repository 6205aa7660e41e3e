/**
 * contents/themes, sets/themes, projects/themes (issue 40 §1; docs/api.md, "Themes"): a
 * scope's themes and phrases over a period, summed from the themes job's day records
 * (store/themes.ts), never from messages: a call reads the scope's state and day records
 * (the period, the one before, the 28 days before it), the examples and the items' names.
 * And sets/curateThemes and sets/themeCurations.
 */
import { badRequest, notFound } from '../api/errors';
import type { ThemeCurationModel, ThemesFilter } from '../api/theme-models';
import { ALL_TAGS, HISTORY_DAYS, MESSAGE_SCHEMAS, standoutPhraseCounts, sumDays } from '../domain/theme-counts';
import { type Curation, isRising, shareOf, shareWithChange } from '../domain/themes';
import { derivedId, newId } from '../domain/text';
import { getRawItemsChunked } from '../store/batch';
import type { ContentSetItem, Store } from '../store/entities';
import { contentItemOf, keys, responseOf } from '../store/items';
import {
  readCurations,
  readDays,
  readThemeState,
  requestThemesSync,
  type StoredDay,
  type ThemeScope,
  themeSets,
  type ThemeState,
  THEMES_RETENTION_DAYS,
  writeCuration,
} from '../store/themes';
import { messageOf } from '../domain/spam';
import { loadContentItem } from './contents';
import { loadProject } from './projects';
import { loadContentSet } from './sets';
import { checkedRequest } from './stats';
import { resolvePeriod } from '../../shared/periods';

const DAY_MS = 86_400_000;
const ITEMS_PER_THEME = 5;
const PHRASES = 20;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (day: string, count: number) => new Date(Date.parse(`${day}T00:00:00Z`) + count * DAY_MS).toISOString().slice(0, 10);

/** The days of a period as the themes read them: [fromDay, toDay), lifetime the retention. */
export interface ThemeDays {
  from: Date;
  to: Date;
  fromDay: string;
  toDay: string;
}

/** The period a filter names, whole UTC days; lifetime is the days themes keep (400). */
export function themeDays(filter: Pick<ThemesFilter, 'period' | 'reference' | 'shift'> | null | undefined, now: Date, shift = 0): ThemeDays {
  const request = checkedRequest({ period: filter?.period, reference: filter?.reference, shift: filter?.shift }, now);
  if (request.period === 'lifetime') {
    const toDay = addDays(dayOf(now), 1);
    const fromDay = addDays(toDay, -THEMES_RETENTION_DAYS);
    return { from: new Date(`${fromDay}T00:00:00Z`), to: new Date(`${toDay}T00:00:00Z`), fromDay, toDay };
  }
  const resolved = resolvePeriod(request.period, { reference: request.reference, shift: (request.shift ?? 0) + shift, now });
  const fromDay = dayOf(resolved.start);
  // A period ends at a midnight (days, weeks, months) or within a day (never: hours are not themes' periods).
  const toDay = dayOf(new Date(resolved.end.getTime() - 1 + DAY_MS)) === dayOf(resolved.end) ? dayOf(resolved.end) : addDays(dayOf(resolved.end), 1);
  return { from: resolved.start, to: resolved.end, fromDay, toDay };
}

interface ScopeRead {
  scope: ThemeScope;
  id: string;
  state: ThemeState | undefined;
}

/** The tag key of a filter: the set must be a tagged-message set that has that tag. */
function tagKey(tag: string | undefined, set: ContentSetItem | undefined): string {
  if (tag === undefined) return ALL_TAGS;
  const tags = ((set?.schemaConfig as { tags?: Array<{ value: string }> })?.tags ?? []).map((option) => option.value);
  if (set && !tags.includes(tag)) {
    throw badRequest('The set has no such tag', [
      {
        path: 'args.1.tag',
        message:
          set.schema === 'tagged-message' ? `must be one of ${tags.map((value) => JSON.stringify(value)).join(', ')}` : 'only tagged-message sets have tags',
      },
    ]);
  }
  return `t=${tag}`;
}

export type ThemesScope = { kind: 'contents' | 'sets' | 'projects'; id: string };

/** The scopes a themes call reads: an item, a set, or each set of a project that has themes. */
async function scopesOf(store: Store, accountId: string, scope: ThemesScope): Promise<{ reads: ScopeRead[]; set?: ContentSetItem }> {
  if (scope.kind === 'projects') {
    await loadProject(store, accountId, scope.id);
    const sets = (await themeSets(store, scope.id)).filter((set) => set.accountId === accountId);
    const states = await Promise.all(sets.map((set) => readThemeState(store, set.contentSetId, false)));
    return { reads: sets.map((set, index) => ({ scope: 'set' as const, id: set.contentSetId, state: states[index] })) };
  }
  if (scope.kind === 'sets') {
    const set = await loadContentSet(store, accountId, scope.id);
    return { reads: [{ scope: 'set', id: set.id, state: await readThemeState(store, set.id, false) }], set };
  }
  const item = await loadContentItem(store, accountId, scope.id);
  const set = await loadContentSet(store, accountId, item.contentSetId);
  return { reads: [{ scope: 'item', id: item.id, state: await readThemeState(store, set.id, false) }], set };
}

const inRange = (days: readonly StoredDay[], fromDay: string, toDay: string) => days.filter((day) => day.day >= fromDay && day.day < toDay);

/** The themes answer (see the header). */
export async function scopeThemes(store: Store, accountId: string, scope: ThemesScope, filter: ThemesFilter | null | undefined, now: Date) {
  const size = filter?.$size ?? 10;
  const examplesWanted = filter?.$examples ?? 3;
  const period = themeDays(filter, now);
  const compare = filter?.compare === 'previous';
  const previous = compare ? themeDays(filter, now, -1) : undefined;
  const historyFrom = addDays(period.fromDay, -HISTORY_DAYS);
  const { reads, set } = await scopesOf(store, accountId, scope);
  const tag = tagKey(filter?.tag, set);
  const readFrom = previous && previous.fromDay < historyFrom ? previous.fromDay : historyFrom;
  const perScope = await Promise.all(reads.map((read) => readDays(store, read.scope, read.id, tag, readFrom, period.toDay)));
  const all = perScope.flat().sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
  const current = sumDays(inRange(all, period.fromDay, period.toDay));
  const history = sumDays(inRange(all, historyFrom, period.fromDay));
  const before = previous ? sumDays(inRange(all, previous.fromDay, previous.toDay)) : undefined;

  const labelOf = (themeId: string) => {
    for (const read of reads) {
      const label = read.state?.labels[themeId];
      if (label) return label;
    }
    return { label: themeId, terms: [], curated: false };
  };
  const themed = Object.values(current.t).reduce((sum, count) => sum + count, 0);
  const chosen = Object.entries(current.t)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, size);
  const exampleIds = chosen.flatMap(([themeId]) => (current.x[themeId] ?? []).slice(0, examplesWanted));
  const examples = await examplesOf(store, exampleIds);
  const itemNames =
    scope.kind === 'contents'
      ? new Map<string, string>()
      : await itemNamesOf(
          store,
          chosen.flatMap(([themeId]) => (current.i?.[themeId] ?? []).slice(0, ITEMS_PER_THEME).map(([item]) => item)),
        );
  const themes = chosen.map(([themeId, count]) => {
    const { label, terms, curated } = labelOf(themeId);
    const theme = {
      id: themeId,
      label,
      terms,
      curated,
      count,
      share: shareOf(count, current.n).share!,
      examples: (current.x[themeId] ?? []).flatMap((responseId) => examples.get(responseId) ?? []).slice(0, examplesWanted),
      ...(scope.kind === 'contents'
        ? {}
        : {
            items: (current.i?.[themeId] ?? [])
              .slice(0, ITEMS_PER_THEME)
              .map(([contentId, itemCount]) => ({ contentId, name: itemNames.get(contentId) ?? contentId, count: itemCount })),
          }),
    };
    if (!before) return theme;
    const change = shareWithChange(count, current.n, before.t[themeId] ?? 0, before.n);
    return {
      ...theme,
      previous: change.previous,
      change: change.change,
      new: change.new,
      rising: isRising(count, current.n, history.t[themeId] ?? 0, history.n),
    };
  });
  const phrases = standoutPhraseCounts(current, history, before, PHRASES).map(({ key: _key, score: _score, share: _share, ...phrase }) => phrase);
  return { from: period.from.toISOString(), to: period.to.toISOString(), messages: current.n, themed, other: current.n - themed, themes, phrases };
}

/** The example messages by response id: still active, with their text. */
async function examplesOf(store: Store, responseIds: string[]) {
  const found = new Map<string, { responseId: string; contentId: string; text: string; createdAt: string }>();
  const raw = await getRawItemsChunked(
    store,
    responseIds.map((responseId) => keys.response(responseId)),
  );
  for (const item of raw) {
    const response = responseOf(item);
    const text = response && response.state === 'active' ? messageOf(response.schema, response.value) : undefined;
    if (response && text) found.set(response.id, { responseId: response.id, contentId: response.contentItemId, text, createdAt: response.createdAt });
  }
  return found;
}

async function itemNamesOf(store: Store, contentIds: string[]) {
  const unique = [...new Set(contentIds)];
  const raw = await getRawItemsChunked(
    store,
    unique.map((contentId) => keys.contentItem(contentId)),
  );
  return new Map(
    raw.flatMap((item) => {
      const content = contentItemOf(item);
      return content ? [[content.id, String(content.title || content.key)] as [string, string]] : [];
    }),
  );
}

/* Curation */

/**
 * Records a curation of a set's themes (audited by the adapter like every change), checked
 * against the themes the set has had, and asks the themes job to discover again: what people
 * decided is replayed over every discovery from then on.
 */
export async function curateThemes(store: Store, accountId: string, contentSetId: string, input: ThemeCurationModel, now: Date, touched: string[] = []) {
  const set = await loadContentSet(store, accountId, contentSetId);
  if (!MESSAGE_SCHEMAS.has(set.schema)) throw notFound('Themes of content set', contentSetId);
  // A set whose first discovery is still to come has no themes yet: only a new pinned theme can be made.
  const labels = (await readThemeState(store, contentSetId))?.labels ?? {};
  const known = (themeId: string) => {
    if (!labels[themeId]) throw notFound('Theme', themeId);
  };
  const curationId = newId();
  let record: Curation;
  let themeId: string | null;
  switch (input.kind) {
    case 'rename':
      known(input.themeId);
      record = input;
      themeId = input.themeId;
      break;
    case 'merge':
      for (const themeId of input.themeIds) known(themeId);
      known(input.into);
      record = input;
      themeId = input.into;
      break;
    case 'split':
      known(input.themeId);
      themeId = derivedId('theme', contentSetId, curationId);
      record = { ...input, newThemeId: themeId };
      break;
    case 'move':
      if (input.themeId !== null) known(input.themeId);
      record = input;
      themeId = input.themeId;
      break;
    case 'pin':
      if (input.themeId !== undefined) known(input.themeId);
      themeId = input.themeId ?? derivedId('theme', contentSetId, curationId);
      record = { kind: 'pin', themeId, label: input.label, phrases: input.phrases, examples: input.examples };
      break;
  }
  const messageIds = record.kind === 'move' ? [record.messageId] : record.kind === 'split' ? (record.messageIds ?? []) : [];
  await checkMessagesOfSet(store, accountId, contentSetId, messageIds);
  const at = now.toISOString();
  await writeCuration(store, contentSetId, { id: curationId, at, record });
  // The audit entry names the themes and messages the record changes.
  const themeIds = record.kind === 'merge' ? [...record.themeIds, record.into] : record.kind === 'split' ? [record.themeId, record.newThemeId] : [themeId];
  touched.push(...themeIds.filter((id): id is string => id !== null), ...messageIds);
  await requestThemesSync(store, contentSetId, now, { discover: true });
  return { id: curationId, at, themeId, record: record as unknown as Record<string, unknown> };
}

/** A curation names messages of its set: each must be a response of that set (of the caller's account). */
async function checkMessagesOfSet(store: Store, accountId: string, contentSetId: string, responseIds: string[]): Promise<void> {
  if (responseIds.length === 0) return;
  const found = new Set(
    (
      await getRawItemsChunked(
        store,
        responseIds.map((responseId) => keys.response(responseId)),
      )
    )
      .map((item) => item && responseOf(item))
      .filter((response) => response && response.accountId === accountId && response.contentSetId === contentSetId)
      .map((response) => response!.id),
  );
  const missing = responseIds.find((responseId) => !found.has(responseId));
  if (missing !== undefined) throw notFound('Message of the content set', missing);
}

export async function themeCurations(store: Store, accountId: string, contentSetId: string) {
  await loadContentSet(store, accountId, contentSetId);
  return (await readCurations(store, contentSetId)).map((entry) => ({
    id: entry.id,
    at: entry.at,
    themeId: 'themeId' in entry.record ? entry.record.themeId : 'into' in entry.record ? entry.record.into : null,
    record: entry.record as unknown as Record<string, unknown>,
  }));
}
