/**
 * Why a page needs attention, in a line: among its messages of the last 7 days (a
 * tagged-message set's most negative tag only), the theme that grew (rising or new), else the
 * phrase that rose, else its largest theme; linking to those messages. Nothing for a page
 * without messages.
 */
import { Link } from 'wouter';
import type { ContentSet } from '@feedback-service/client';
import { useThemes } from '../data/themes';
import { plural } from '../lib/format';
import { messagesHref, negativeTag, previousWords, tagsNegativeFirst } from '../lib/themes';
import { hasText } from '../schemas';
import { tagDisplay } from '../schemas/tagged-message';

export function PageReason(props: { itemId: string; set: ContentSet }) {
  const tag = negativeTag(props.set);
  const themes = useThemes(
    { kind: 'item', id: props.itemId },
    { period: 'rolling7d', tag, compare: true, size: 5, examples: 0 },
    { enabled: hasText(props.set.schema) },
  );
  const answer = themes.data;
  if (!answer || answer.messages === 0) return null;
  const tagOption = tag ? tagsNegativeFirst(props.set).find((entry) => entry.value === tag) : undefined;
  const noun = `${tagOption ? `“${tagDisplay(tagOption).label}” ` : ''}message`;
  const selection = { setId: props.set.id, contentId: props.itemId, tag, from: answer.from, to: answer.to };
  const grew = answer.themes.find((theme) => theme.rising || theme.new);
  const phrase = answer.phrases.find((entry) => entry.rising || entry.new);
  const theme = grew ?? (phrase ? undefined : answer.themes[0]);
  if (theme) {
    const before = previousWords(theme.previous, 'the 7 days before');
    return (
      <p className="attention-reason small" data-testid="attention-reason">
        {grew ? (theme.new ? 'New: ' : 'Growing: ') : 'Most said: '}
        <Link href={messagesHref({ ...selection, theme: theme.id, label: theme.label })}>{theme.label}</Link>: {theme.count} of{' '}
        {plural(answer.messages, noun)} in the last 7 days{before ? `; ${before}` : ''}
      </p>
    );
  }
  if (!phrase) return null;
  return (
    <p className="attention-reason small" data-testid="attention-reason">
      Rising phrase: <Link href={messagesHref({ ...selection, phrase: phrase.text, label: `“${phrase.text}”` })}>“{phrase.text}”</Link> in {phrase.messages} of{' '}
      {plural(answer.messages, noun)} in the last 7 days
    </p>
  );
}
