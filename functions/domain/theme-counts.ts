/**
 * A set's themes as counts per day (issue 40 §4): what the themes job stores for each scope
 * (the set, each of its items), tag and day, and how a themes call sums the days of a
 * period, of the period before and of the history into its answer. Pure; the discovery
 * itself is `themes/`. Summing stored days is what keeps a call's reads independent of the
 * number of messages: a day's record is bounded (PHRASES_PER_DAY phrases, EXAMPLES_PER_DAY
 * examples and ITEMS_PER_DAY items per theme) however many messages the day had.
 */
import {
  isRising,
  isSubPhrase,
  logLikelihoodRatio,
  messagePhrases,
  nearDuplicateGroups,
  type ShareWithChange,
  shareOf,
  shareWithChange,
  analyseText,
  phraseKey,
} from './themes';
import type { ScoreChange, ScoreInterval } from './statistics';
import type { GrownPhrase, GrownTheme } from '../../shared/theme-growth';

/** Schemas whose responses carry free text: the sets that have themes. */
export const MESSAGE_SCHEMAS: ReadonlySet<string> = new Set(['message', 'tagged-message']);
/** The tag key of a day record that counts every message of the scope (not one tag's). */
export const ALL_TAGS = '*';
/** The phrases a day record keeps, most messages first: those a call can report and list. */
export const PHRASES_PER_DAY = 100;
/** Example message ids a day record keeps per theme (the newest). */
export const EXAMPLES_PER_DAY = 3;
/** Items a set's day record keeps per theme (those with the most of its messages). */
export const ITEMS_PER_DAY = 10;
/** The phrases of one message kept for `responses/list?phrase=` (the longest first, then in order). */
export const PHRASES_PER_MESSAGE = 40;
/** A phrase reported must be held by messages of at least this many near-duplicate groups in the period. */
export const MIN_PHRASE_GROUPS = 3;
/** How many days before a period its phrases are measured against. */
export const HISTORY_DAYS = 28;
/** The key of `other` in theme counts. */
export const OTHER = 'other';

/** An active message as the themes job keeps it: the response, its text and tag, its theme. */
export interface ThemedMessage {
  responseId: string;
  contentItemId: string;
  createdAt: string;
  text: string;
  /** The tagged-message tag, when the set has tags. */
  tag?: string;
  /** Its theme id, or null for `other`. */
  theme: string | null;
}

/** One scope's, tag's and day's counts (what a day record stores). */
export interface DayCounts {
  /** Active messages. */
  n: number;
  /** Per theme id: its messages (those in no theme are n minus their sum). */
  t: Record<string, number>;
  /** Per phrase key: [messages holding it, their near-duplicate groups, the surface most written]. */
  p: Record<string, [number, number, string]>;
  /** Per theme id: up to EXAMPLES_PER_DAY message ids, newest first. */
  x: Record<string, string[]>;
  /** Per theme id (set scope only): up to ITEMS_PER_DAY [contentItemId, count], most first. */
  i?: Record<string, Array<[string, number]>>;
}

export const emptyDay = (): DayCounts => ({ n: 0, t: {}, p: {}, x: {} });

/** A message's phrase keys and surfaces: the phrases of themes/phrases.ts, longest first. */
export function phrasesOf(text: string): Array<{ key: string; surface: string }> {
  return messagePhrases(analyseText(text))
    .sort((a, b) => b.words - a.words)
    .slice(0, PHRASES_PER_MESSAGE)
    .map(({ key, surface }) => ({ key, surface }));
}

const byCountThenKey = <T>(entries: Array<[string, T]>, count: (value: T) => number) =>
  entries.sort((a, b) => count(b[1]) - count(a[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

/**
 * The counts of one day's messages of a scope and tag. `withItems` at set scope. Phrases:
 * the PHRASES_PER_DAY held by the most messages (ties by key); a phrase cut on a day counts 0
 * there, and `responses/list?phrase=` lists only the days that kept it, so counts and lists agree.
 */
export function dayCounts(messages: readonly ThemedMessage[], withItems: boolean): DayCounts {
  const day = emptyDay();
  day.n = messages.length;
  const newestFirst = [...messages].sort((a, b) => (a.createdAt === b.createdAt ? (a.responseId < b.responseId ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
  const items = new Map<string, Map<string, number>>();
  for (const message of newestFirst) {
    if (message.theme === null) continue;
    day.t[message.theme] = (day.t[message.theme] ?? 0) + 1;
    const examples = day.x[message.theme] ?? [];
    if (examples.length < EXAMPLES_PER_DAY) examples.push(message.responseId);
    day.x[message.theme] = examples;
    if (withItems) {
      const perItem = items.get(message.theme) ?? new Map<string, number>();
      perItem.set(message.contentItemId, (perItem.get(message.contentItemId) ?? 0) + 1);
      items.set(message.theme, perItem);
    }
  }
  if (withItems) {
    day.i = {};
    for (const [theme, perItem] of items) day.i[theme] = byCountThenKey([...perItem], (count) => count).slice(0, ITEMS_PER_DAY);
  }
  const groups = nearDuplicateGroups(newestFirst.map((message) => message.text));
  const phrases = new Map<string, { messages: number; groups: Set<number>; surfaces: Map<string, number> }>();
  newestFirst.forEach((message, index) => {
    for (const { key, surface } of phrasesOf(message.text)) {
      const phrase = phrases.get(key) ?? { messages: 0, groups: new Set<number>(), surfaces: new Map<string, number>() };
      phrase.messages += 1;
      phrase.groups.add(groups[index]);
      phrase.surfaces.set(surface, (phrase.surfaces.get(surface) ?? 0) + 1);
      phrases.set(key, phrase);
    }
  });
  for (const [key, phrase] of byCountThenKey([...phrases], (value) => value.messages).slice(0, PHRASES_PER_DAY)) {
    day.p[key] = [phrase.messages, phrase.groups.size, byCountThenKey([...phrase.surfaces], (count) => count)[0][0]];
  }
  return day;
}

/** The days summed: messages, themes and phrases add up; examples and items merge, newest day first. */
export function sumDays(newestFirst: readonly DayCounts[]): DayCounts {
  const sum = emptyDay();
  const items = new Map<string, Map<string, number>>();
  for (const day of newestFirst) {
    sum.n += day.n;
    for (const [theme, count] of Object.entries(day.t)) sum.t[theme] = (sum.t[theme] ?? 0) + count;
    for (const [key, [count, groups, surface]] of Object.entries(day.p)) {
      const held = sum.p[key];
      sum.p[key] = held ? [held[0] + count, held[1] + groups, held[2]] : [count, groups, surface];
    }
    for (const [theme, ids] of Object.entries(day.x)) sum.x[theme] = [...(sum.x[theme] ?? []), ...ids];
    for (const [theme, perItem] of Object.entries(day.i ?? {})) {
      const merged = items.get(theme) ?? new Map<string, number>();
      for (const [item, count] of perItem) merged.set(item, (merged.get(item) ?? 0) + count);
      items.set(theme, merged);
    }
  }
  if (items.size > 0) sum.i = Object.fromEntries([...items].map(([theme, perItem]) => [theme, byCountThenKey([...perItem], (count) => count)]));
  return sum;
}

export interface PhraseSummary {
  key: string;
  text: string;
  /** Messages of the period holding it. */
  count: number;
  /** Of those, the distinct ones: near-duplicates (one visitor repeating themselves) count once. */
  messages: number;
  share: ScoreInterval | null;
  score: number;
  previous?: { count: number; share: ScoreInterval | null };
  change?: ScoreChange | null;
  new?: boolean;
  rising?: boolean;
}

/**
 * The phrases that stand out in a period against its history, from day counts: the rule of
 * themes/phrases.ts `standoutPhrases` (over-represented against the history, Dunning's G²,
 * at least MIN_PHRASE_GROUPS near-duplicate groups, a phrase giving way to a longer one that
 * holds two thirds of its messages) on stored counts instead of messages. Near-duplicate
 * groups are counted per day, so a visitor repeating themselves on two days counts twice.
 */
export function standoutPhraseCounts(period: DayCounts, history: DayCounts, previous: DayCounts | undefined, limit = 20): PhraseSummary[] {
  if (period.n === 0) return [];
  const candidates: PhraseSummary[] = [];
  for (const [key, [count, groups, surface]] of Object.entries(period.p)) {
    if (groups < MIN_PHRASE_GROUPS) continue;
    const before = history.p[key]?.[0] ?? 0;
    if (history.n > 0 && count / period.n <= before / history.n) continue;
    candidates.push({
      key,
      text: surface,
      count,
      messages: groups,
      share: shareOf(count, period.n).share,
      score: logLikelihoodRatio(count, period.n, before, history.n),
    });
  }
  candidates.sort((a, b) => b.score - a.score || b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const kept = candidates.filter(
    (candidate) => !candidates.some((longer) => isSubPhrase(candidate.key, longer.key) && longer.count * 3 >= candidate.count * 2),
  );
  const top = kept.slice(0, limit);
  if (!previous) return top;
  return top.map((phrase) => {
    const change: ShareWithChange = shareWithChange(phrase.count, period.n, previous.p[phrase.key]?.[0] ?? 0, previous.n);
    const rising = isRising(phrase.count, period.n, history.p[phrase.key]?.[0] ?? 0, history.n);
    return { ...phrase, previous: change.previous, change: change.change, new: change.new, rising };
  });
}

/** Themes and phrases an alert or a digest names at most. */
export const GROWN_LIMIT = 3;

/**
 * What grew in a window's messages against the days before it (issue 40 §5): the themes whose
 * share rose significantly (`isRising`, as the themes answer's `rising`) and the standing-out
 * phrases that did, most messages first, at most `limit` of each.
 */
export function grownInWindow(
  window: DayCounts,
  before: DayCounts,
  labelOf: (themeId: string) => string,
  limit = GROWN_LIMIT,
): { themes: GrownTheme[]; phrases: GrownPhrase[] } {
  const themes = Object.entries(window.t)
    .filter(([themeId, count]) => isRising(count, window.n, before.t[themeId] ?? 0, before.n))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([themeId, count]) => ({
      id: themeId,
      label: labelOf(themeId),
      count,
      of: window.n,
      previous: { count: before.t[themeId] ?? 0, of: before.n },
    }));
  const phrases = standoutPhraseCounts(window, before, before)
    .filter((phrase) => phrase.rising)
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1))
    .slice(0, limit)
    .map((phrase) => ({ text: phrase.text, count: phrase.count, of: window.n, previous: { count: before.p[phrase.key]?.[0] ?? 0, of: before.n } }));
  return { themes, phrases };
}

/**
 * The phrase key a caller named, in the days' records: its surface, its key, or any words with
 * its key ("colour" and "color", "cancelled" and "canceled", "Charged  Twice"), as
 * `responses/list?phrase=` matches them (`phraseKey`).
 */
export function phraseKeyNamed(days: readonly DayCounts[], phrase: string): string | undefined {
  const wanted = phrase.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  const wantedKey = phraseKey(phrase);
  for (const day of days) {
    for (const [key, [, , surface]] of Object.entries(day.p)) if (surface === wanted || key === wanted || key === wantedKey) return key;
  }
  return undefined;
}
