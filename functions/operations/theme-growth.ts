/**
 * What grew among a scope's messages in a window (issue 40 §5): the themes and phrases an
 * alert names (functions/jobs/alerts.ts) and the weekly digest lists (operations/digest.ts),
 * from the themes job's day records (store/themes.ts): per tag read, one Query of the
 * window's and the days before's records (bounded whatever the messages), and the set's
 * theme state for the labels. A tagged-message set reads its negative tags' messages (the
 * "no" answers explain a drop), other message sets all of theirs.
 */
import type { AnySchemaConfig } from '../domain/schemas';
import { ALL_TAGS, grownInWindow, MESSAGE_SCHEMAS, sumDays } from '../domain/theme-counts';
import type { TableClient } from '../store/dynamodb-clients';
import { readDays, readThemeState, type ThemeScope } from '../store/themes';
import type { ThemeGrowth } from '../../shared/theme-growth';

const DAY_MS = 86_400_000;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** A set's tags with a negative sentiment (tagged-message), none for other schemas. */
function negativeTags(config: AnySchemaConfig | undefined): string[] {
  const tags = (config as { tags?: Array<{ value: string; sentiment?: number }> } | undefined)?.tags ?? [];
  return tags.filter((tag) => (tag.sentiment ?? 0) < 0).map((tag) => tag.value);
}

/**
 * What grew in `window` (inclusive day keys) against the days from `beforeFrom` to the
 * window's start, in a set or an item of it; undefined when the set has no free text or the
 * window no message.
 */
export async function themeGrowth(
  store: TableClient,
  set: { id: string; schema: string; config?: AnySchemaConfig },
  scope: { scope: ThemeScope; id: string },
  window: { from: string; to: string },
  beforeFrom: string,
): Promise<ThemeGrowth | undefined> {
  if (!MESSAGE_SCHEMAS.has(set.schema)) return undefined;
  const tags = negativeTags(set.config);
  const keys = tags.length > 0 ? tags.map((tag) => `t=${tag}`) : [ALL_TAGS];
  const [days, state] = await Promise.all([
    Promise.all(keys.map((key) => readDays(store, scope.scope, scope.id, key, beforeFrom, nextDay(window.to)))).then((read) => read.flat()),
    readThemeState(store, set.id, false),
  ]);
  const current = sumDays(days.filter((day) => day.day >= window.from));
  if (current.n === 0) return undefined;
  const before = sumDays(days.filter((day) => day.day < window.from));
  const grown = grownInWindow(current, before, (themeId) => state?.labels[themeId]?.label ?? themeId);
  return { ...(tags.length > 0 ? { tags } : {}), ...grown };
}
