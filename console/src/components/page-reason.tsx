/**
 * Why a page needs attention, in a line: what its messages of the last 7 days say most (a
 * tagged-message set's most negative tag only; `pageReason` in lib/themes.ts chooses), linking
 * to those messages. Nothing for a page without messages.
 */
import { Link } from 'wouter';
import type { ContentSet } from '@feedback-service/client';
import { useThemes } from '../data/themes';
import { plural } from '../lib/format';
import { negativeTag, pageReason, previousWords, tagsNegativeFirst } from '../lib/themes';
import { hasText } from '../schemas';
import { tagDisplay } from '../schemas/tagged-message';
import { messagesPath } from '../../../shared/console-paths';

const LEADS = { rising: 'Growing', new: 'New', largest: 'Most said' } as const;

export function PageReason(props: { itemId: string; set: ContentSet }) {
  const tag = negativeTag(props.set);
  const themes = useThemes(
    { kind: 'item', id: props.itemId },
    { period: 'rolling7d', tag, compare: true, size: 5, examples: 0 },
    { enabled: hasText(props.set.schema) },
  );
  const answer = themes.data;
  const reason = answer && pageReason(answer);
  if (!answer || !reason) return null;
  const tagOption = tag ? tagsNegativeFirst(props.set).find((entry) => entry.value === tag) : undefined;
  const noun = `${tagOption ? `“${tagDisplay(tagOption).label}” ` : ''}message`;
  const selection = { setId: props.set.id, contentId: props.itemId, tag, from: answer.from, to: answer.to };
  const of = `of ${plural(answer.messages, noun)} in the last 7 days`;
  if ('phrase' in reason) {
    const { phrase } = reason;
    return (
      <p className="attention-reason small" data-testid="attention-reason">
        Rising phrase: <Link href={messagesPath({ ...selection, phrase: phrase.text, label: `“${phrase.text}”` })}>“{phrase.text}”</Link> in {phrase.messages}{' '}
        {of}
      </p>
    );
  }
  const { theme } = reason;
  const before = previousWords(theme.previous, 'the 7 days before');
  return (
    <p className="attention-reason small" data-testid="attention-reason">
      {LEADS[reason.why]}: <Link href={messagesPath({ ...selection, theme: theme.id, label: theme.label })}>{theme.label}</Link>, {theme.count} {of}
      {before ? `; ${before}` : ''}
    </p>
  );
}
