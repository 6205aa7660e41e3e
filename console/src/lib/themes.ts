/** Themes in words and links: shares, changes, the tag a Why panel starts with, the way to a theme's messages. */
import type { ContentSet, Phrase, ScoreChange, ScoreInterval, TaggedMessageConfig, Theme, Themes } from '@feedback-service/client';
import { formatCount, formatDay, formatPercent, formatPoints, plural } from './format';

/** A share as a whole percent ("39%"; "0.4%" under one). */
export function sharePercent(value: number): string {
  return formatPercent(value, 1);
}

/** A share with its 95% interval: "39% (24–56%)". */
export function shareWords(share: ScoreInterval): string {
  return `${sharePercent(share.value)} (${sharePercent(share.low)}–${sharePercent(share.high)})`;
}

/**
 * How a theme's or phrase's share moved since the period before, in words: "up 34 points,
 * outside the noise" (Newcombe's 95% interval of the change excludes none) or "within the
 * noise", as a score's change reads (schemas' `changeWords`).
 */
export function shareChangeWords(change: ScoreChange): string {
  const direction = change.delta === 0 ? 'unchanged' : `${change.delta > 0 ? 'up' : 'down'} ${formatPoints(change.delta)}`;
  if (change.significant === null) return direction;
  return `${direction}, ${change.significant ? 'outside the noise' : 'within the noise'}`;
}

/**
 * The period before in words: "2 of 40 messages the period before" (the share is the count
 * over the period's messages, so it gives their number), or "none the period before".
 */
export function previousWords(previous: { count: number; share: ScoreInterval | null } | undefined, when = 'the period before'): string | undefined {
  if (!previous) return undefined;
  if (previous.count === 0) return `none ${when}`;
  const total = previous.share && previous.share.value > 0 ? Math.round(previous.count / previous.share.value) : undefined;
  return `${total === undefined ? plural(previous.count, 'message') : `${formatCount(previous.count)} of ${plural(total, 'message')}`} ${when}`;
}

/**
 * The tags of a tagged-message set, the most negative first (a Why panel starts with the
 * reasons people say no); none for other schemas.
 */
export function tagsNegativeFirst(set: Pick<ContentSet, 'schema' | 'schemaConfig'>): TaggedMessageConfig['tags'] {
  if (set.schema !== 'tagged-message') return [];
  const tags = (set.schemaConfig as TaggedMessageConfig | undefined)?.tags ?? [];
  return [...tags].sort((a, b) => a.sentiment - b.sentiment);
}

/** The most negative tag of a tagged-message set, when it has a negative one. */
export function negativeTag(set: Pick<ContentSet, 'schema' | 'schemaConfig'>): string | undefined {
  const [first] = tagsNegativeFirst(set);
  return first && first.sentiment < 0 ? first.value : undefined;
}

/** A period `[from, to)` of UTC instants as the days it covers: "1 Dec 2026 to 7 Dec 2026" (themes count UTC days). */
export function periodDays(from: string, to: string): string {
  const last = new Date(Date.parse(to) - 1).toISOString();
  return `${formatDay(from.slice(0, 10))} to ${formatDay(last.slice(0, 10))}`;
}

/** A new theme names a page's reason only with at least this many messages (one message is no reason). */
export const NEW_THEME_MESSAGES = 3;

/** What a page's messages say most, for Needs attention. */
export type PageReason = { theme: Theme; why: 'rising' | 'new' | 'largest' } | { phrase: Phrase };

/**
 * The reason a page's messages give: its rising theme with the most messages; else its phrase
 * that rose most; else a new theme of at least NEW_THEME_MESSAGES messages; else its largest
 * theme; none without messages.
 */
export function pageReason(answer: Pick<Themes, 'messages' | 'themes' | 'phrases'>): PageReason | undefined {
  if (answer.messages === 0) return undefined;
  const byCount = [...answer.themes].sort((a, b) => b.count - a.count);
  const rising = byCount.find((theme) => theme.rising);
  if (rising) return { theme: rising, why: 'rising' };
  const phrase = answer.phrases.find((entry) => entry.rising);
  if (phrase) return { phrase };
  const fresh = byCount.find((theme) => theme.new && theme.count >= NEW_THEME_MESSAGES);
  if (fresh) return { theme: fresh, why: 'new' };
  return byCount[0] ? { theme: byCount[0], why: 'largest' } : undefined;
}

/** A curation record in words, naming themes by their labels where the panel knows them. */
export function curationWords(record: Record<string, unknown>, labels: Map<string, string>): string {
  const name = (id: unknown) => (typeof id === 'string' && labels.has(id) ? `“${labels.get(id)}”` : 'a theme');
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  switch (record.kind) {
    case 'rename':
      return `Renamed ${labels.get(text(record.themeId)) === text(record.label) ? 'a theme' : name(record.themeId)} to “${text(record.label)}”`;
    case 'merge':
      return `Merged ${plural(Array.isArray(record.themeIds) ? record.themeIds.length : 2, 'theme')} into ${name(record.into)}`;
    case 'split': {
      const by = [
        record.phrase ? `the phrase “${text(record.phrase)}”` : '',
        Array.isArray(record.messageIds) ? plural(record.messageIds.length, 'message') : '',
      ]
        .filter(Boolean)
        .join(' and ');
      return `Split “${text(record.label)}” off ${name(record.themeId)}${by ? ` by ${by}` : ''}`;
    }
    case 'move':
      return `Moved a message to ${record.themeId === null ? 'no theme' : name(record.themeId)}`;
    case 'pin': {
      const phrases = Array.isArray(record.phrases) ? record.phrases.map((phrase) => `“${String(phrase)}”`).join(', ') : '';
      return `Pinned “${text(record.label)}”${phrases ? ` (${phrases})` : ''}`;
    }
    default:
      return 'A curation';
  }
}
