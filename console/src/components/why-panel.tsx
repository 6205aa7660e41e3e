/**
 * The Why panel of a set's or an item's page (issue 40): for the period shown, the themes of
 * the messages (label, count, share with its 95% interval as a bar, "new" and "rising" with
 * the change, two quotes, the pages with the most of it) and the phrases that stand out, each
 * linking to its messages; a tagged-message set starts with its most negative tag. Admins
 * curate the themes here; the set's page lists what people decided.
 */
import { useId, useState } from 'react';
import { Link } from 'wouter';
import type { ContentSet, Phrase, Theme, Themes } from '@feedback-service/client';
import { useThemes } from '../data/themes';
import type { Subject } from '../data/stats';
import { formatCount, formatDateTime, plural } from '../lib/format';
import { periodDays, previousWords, shareChangeWords, shareWords, tagsNegativeFirst, negativeTag } from '../lib/themes';
import { tagDisplay } from '../schemas/tagged-message';
import { optionText } from '../schemas';
import { useSession } from '../session';
import { IntervalBar } from './interval-bar';
import type { PeriodView } from './period-selector';
import { CurationDialog, CurationHistory, type CurationAction } from './theme-curation';
import { ErrorMessage, Loading } from './states';
import { type MessagesSelection, messagesPath } from '../../../shared/console-paths';

const EXAMPLES = 2;
/** The curations of a theme as a whole, by the buttons beside it (moving a message is beside the message). */
const CURATIONS = [
  ['rename', 'Rename'],
  ['merge', 'Merge…'],
  ['split', 'Split…'],
  ['pin', 'Pin…'],
] as const;
/** After a curation, the themes are read again this often until the job's next runs have shown it. */
const REFRESH_MS = 10_000;
const REFRESH_FOR_MS = 120_000;

function Badges(props: { entry: Pick<Theme, 'new' | 'rising'> & { curated?: boolean } }) {
  return (
    <>
      {props.entry.new && <span className="theme-badge theme-new">new</span>}
      {props.entry.rising && <span className="theme-badge theme-rising">rising</span>}
      {props.entry.curated && <span className="theme-badge">curated</span>}
    </>
  );
}

/** How it moved since the period before, in a line; nothing without a comparison. */
function ChangeLine(props: { entry: Pick<Theme, 'previous' | 'change' | 'new'> }) {
  const before = previousWords(props.entry.previous);
  if (!before) return null;
  const change = props.entry.change && !props.entry.new ? `; ${shareChangeWords(props.entry.change)}` : '';
  return (
    <p className="theme-change muted">
      {before}
      {change}
    </p>
  );
}

function ThemeEntry(props: {
  theme: Theme;
  answer: Themes;
  selection: Omit<MessagesSelection, 'label'>;
  showItems: boolean;
  isAdmin: boolean;
  onCurate: (action: CurationAction) => void;
}) {
  const { theme } = props;
  const headingId = useId();
  return (
    <li className="theme" data-theme={theme.label} aria-labelledby={headingId}>
      <div className="theme-head">
        <h4 id={headingId}>
          <Link href={messagesPath({ ...props.selection, theme: theme.id, label: theme.label })}>{theme.label}</Link>
        </h4>
        <Badges entry={theme} />
        {props.isAdmin && (
          <div className="theme-actions">
            {CURATIONS.map(([kind, text]) => (
              <button key={kind} type="button" className="small" onClick={() => props.onCurate({ kind, theme })}>
                {text}
                <span className="visually-hidden"> {theme.label}</span>
              </button>
            ))}
          </div>
        )}
      </div>
      <p className="theme-count">
        <span>
          {formatCount(theme.count)} of {plural(props.answer.messages, 'message')}
        </span>
        <IntervalBar value={theme.share.value} low={theme.share.low} high={theme.share.high} range={[0, 1]} text={shareWords(theme.share)} />
      </p>
      <ChangeLine entry={theme} />
      {theme.examples.length > 0 && (
        <ul className="theme-examples">
          {theme.examples.slice(0, EXAMPLES).map((example) => (
            <li key={example.responseId}>
              <blockquote className="theme-quote">{example.text}</blockquote>
              <span className="muted small">
                <time dateTime={example.createdAt}>{formatDateTime(example.createdAt)}</time>
                {props.showItems && (
                  <>
                    {' · '}
                    <Link href={`/items/${example.contentId}`}>{theme.items?.find((item) => item.contentId === example.contentId)?.name ?? 'its page'}</Link>
                  </>
                )}
              </span>
              {props.isAdmin && (
                <button type="button" className="link-button small" onClick={() => props.onCurate({ kind: 'move', theme, message: example })}>
                  Move<span className="visually-hidden"> this message</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {props.showItems && theme.items && theme.items.length > 0 && (
        <p className="theme-items small">
          Most on:{' '}
          {theme.items.map((item, index) => (
            <span key={item.contentId}>
              {index > 0 && ', '}
              <Link href={`/items/${item.contentId}`}>{item.name}</Link> ({item.count})
            </span>
          ))}
        </p>
      )}
    </li>
  );
}

function PhraseEntry(props: { phrase: Phrase; selection: Omit<MessagesSelection, 'label'> }) {
  const { phrase } = props;
  const before = previousWords(phrase.previous);
  return (
    <li className="phrase" data-phrase={phrase.text}>
      <Link href={messagesPath({ ...props.selection, phrase: phrase.text, label: `“${phrase.text}”` })}>“{phrase.text}”</Link>{' '}
      <span>{plural(phrase.messages, 'message')}</span> <Badges entry={phrase} />
      {before && (
        <span className="muted small">
          {' '}
          {before}
          {phrase.change && !phrase.new ? `; ${shareChangeWords(phrase.change)}` : ''}
        </span>
      )}
    </li>
  );
}

function TagChoice(props: { set: ContentSet; tag: string | undefined; onChange: (tag: string | undefined) => void }) {
  const id = useId();
  const tags = tagsNegativeFirst(props.set);
  if (tags.length === 0) return null;
  return (
    <div className="why-tag">
      <label htmlFor={id}>Messages tagged</label>
      <select id={id} value={props.tag ?? ''} onChange={(event) => props.onChange(event.target.value || undefined)}>
        {tags.map((tag) => (
          <option key={tag.value} value={tag.value}>
            {optionText(tagDisplay(tag))}
          </option>
        ))}
        <option value="">Any tag</option>
      </select>
    </div>
  );
}

/** The panel's body for one answer. */
function WhyAnswer(props: { answer: Themes; set: ContentSet; item?: string; tag?: string; onCurate: (action: CurationAction) => void }) {
  const { isAdmin } = useSession();
  const { answer } = props;
  const selection = { setId: props.set.id, contentId: props.item, tag: props.tag, from: answer.from, to: answer.to };
  if (answer.messages === 0) return <p className="muted">No messages in this period{props.tag ? ' with this tag' : ''}.</p>;
  return (
    <>
      <p className="why-summary" data-testid="why-summary">
        {plural(answer.messages, 'message')} from {periodDays(answer.from, answer.to)}: {formatCount(answer.themed)} in a theme,{' '}
        {answer.other > 0 ? (
          <Link href={messagesPath({ ...selection, theme: 'other', label: 'No theme' })}>{formatCount(answer.other)} in no theme</Link>
        ) : (
          'none in no theme'
        )}
        .
      </p>
      <div className="why-columns">
        <section aria-labelledby={`why-themes-${props.set.id}`}>
          <h3 id={`why-themes-${props.set.id}`}>Themes</h3>
          {answer.themes.length === 0 ? (
            <p className="muted">No theme yet: too few messages say the same thing, or the themes job has not read them yet.</p>
          ) : (
            <ol className="theme-list" data-testid="themes">
              {answer.themes.map((theme) => (
                <ThemeEntry
                  key={theme.id}
                  theme={theme}
                  answer={answer}
                  selection={selection}
                  showItems={!props.item}
                  isAdmin={isAdmin}
                  onCurate={props.onCurate}
                />
              ))}
            </ol>
          )}
        </section>
        <section aria-labelledby={`why-phrases-${props.set.id}`}>
          <h3 id={`why-phrases-${props.set.id}`}>Phrases that stand out</h3>
          {answer.phrases.length === 0 ? (
            <p className="muted">No phrase stands out against the 28 days before.</p>
          ) : (
            <ol className="phrase-list" data-testid="phrases">
              {answer.phrases.map((phrase) => (
                <PhraseEntry key={phrase.text} phrase={phrase} selection={selection} />
              ))}
            </ol>
          )}
        </section>
      </div>
    </>
  );
}

/**
 * The Why panel for a set (`item` absent) or one of its items, over the period of the page;
 * nothing for sets without free text.
 */
export function WhyPanel(props: { set: ContentSet; item?: string; view: PeriodView }) {
  const { isAdmin } = useSession();
  const [tag, setTag] = useState(() => negativeTag(props.set));
  const [action, setAction] = useState<CurationAction | undefined>();
  const [refreshUntil, setRefreshUntil] = useState(0);
  const [recorded, setRecorded] = useState<string | undefined>();
  const subject: Subject = props.item ? { kind: 'item', id: props.item } : { kind: 'set', id: props.set.id };
  const refreshing = refreshUntil > Date.now();
  const themes = useThemes(
    subject,
    { period: props.view.period, reference: props.view.reference, tag, compare: true, examples: EXAMPLES },
    { refreshEvery: refreshing ? REFRESH_MS : undefined },
  );
  const labels = new Map((themes.data?.themes ?? []).map((theme) => [theme.id, theme.label]));
  return (
    <div className="why" data-testid="why">
      <p className="muted why-note">
        What visitors’ messages say, grouped into themes inside this service (no message leaves it). A theme’s bar is its share of the messages with its 95%
        interval.
      </p>
      <TagChoice set={props.set} tag={tag} onChange={setTag} />
      {recorded && (
        <p role="status" className="note">
          {recorded}
        </p>
      )}
      {themes.error ? (
        <ErrorMessage error={themes.error} retry={() => void themes.refetch()} />
      ) : !themes.data ? (
        <Loading what="themes" />
      ) : (
        <WhyAnswer answer={themes.data} set={props.set} item={props.item} tag={tag} onCurate={setAction} />
      )}
      {!props.item && <CurationHistory setId={props.set.id} labels={labels} isAdmin={isAdmin} onPinNew={() => setAction({ kind: 'pin' })} />}
      {isAdmin && (
        <CurationDialog
          setId={props.set.id}
          action={action}
          themes={themes.data?.themes ?? []}
          onClose={() => setAction(undefined)}
          onDone={() => {
            setRecorded('Recorded. The themes show it after the themes job’s next run, within a minute.');
            setRefreshUntil(Date.now() + REFRESH_FOR_MS);
          }}
        />
      )}
    </div>
  );
}
