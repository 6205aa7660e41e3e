/** Themes in words and links: shares, changes, the tag a Why panel starts with, the way to a theme's messages. */
import type { ContentSet, ScoreChange, ScoreInterval, TaggedMessageConfig } from '@feedback-service/client';
import { formatCount, plural } from './format';

/** A share as a whole percent ("39%"; "0.4%" under one). */
export function sharePercent(value: number): string {
  const percent = value * 100;
  return `${percent > 0 && percent < 1 ? percent.toFixed(1) : Math.round(percent)}%`;
}

/** A share with its 95% interval: "39% (24–56%)". */
export function shareWords(share: ScoreInterval): string {
  return `${sharePercent(share.value)} (${sharePercent(share.low)}–${sharePercent(share.high)})`;
}

/**
 * How a theme's or phrase's share moved since the period before, in words: "up 34 points,
 * beyond the noise" (Newcombe's 95% interval of the change excludes none) or "within the noise".
 */
export function shareChangeWords(change: ScoreChange): string {
  const points = Math.round(Math.abs(change.delta) * 100);
  const direction = points === 0 ? 'unchanged' : `${change.delta > 0 ? 'up' : 'down'} ${plural(points, 'point')}`;
  if (change.significant === null) return direction;
  return `${direction}, ${change.significant ? 'beyond the noise' : 'within the noise'}`;
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

/** Which messages a link lists: a theme's (its id, or "other") or a phrase's, in a scope, a period and a tag. */
export interface MessagesSelection {
  setId: string;
  /** An item of the set: only its messages. */
  contentId?: string;
  theme?: string;
  phrase?: string;
  /** What the list is called ("code sample broken"). */
  label: string;
  tag?: string;
  from: string;
  to: string;
}

/** The console's page listing the messages of a theme or a phrase. */
export function messagesHref(selection: MessagesSelection): string {
  const params = new URLSearchParams();
  if (selection.contentId) params.set('item', selection.contentId);
  if (selection.theme) params.set('theme', selection.theme);
  if (selection.phrase) params.set('phrase', selection.phrase);
  params.set('label', selection.label);
  if (selection.tag) params.set('tag', selection.tag);
  params.set('from', selection.from);
  params.set('to', selection.to);
  return `/sets/${selection.setId}/messages?${params.toString()}`;
}
