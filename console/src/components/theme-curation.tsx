/**
 * An admin's curation of a set's themes (sets/curateThemes): rename, merge, split, move a
 * message, pin; and the set's curation records in words (sets/themeCurations). A curation is
 * recorded at once and shows in the themes at the themes job's next run.
 */
import { useId, useState, type FormEvent } from 'react';
import type { Theme, ThemeCuration, ThemeCurationResult } from '@feedback-service/client';
import { useCurateThemes, useThemeCurations } from '../data/themes';
import { formatDateTime, plural } from '../lib/format';
import { curationWords } from '../lib/themes';
import { Dialog, FormActions } from './dialog';
import { ErrorMessage, Loading } from './states';

/** A message to move: its response id and text. */
export interface MovedMessage {
  responseId: string;
  text: string;
}

/** What an admin chose to do; `theme` absent for a new pinned theme, or for a message in no theme. */
export type CurationAction =
  | { kind: 'rename' | 'merge' | 'split'; theme: Theme }
  | { kind: 'move'; theme?: Theme; message: MovedMessage }
  | { kind: 'pin'; theme?: Theme };

const TITLES: Record<CurationAction['kind'], string> = {
  rename: 'Rename theme',
  merge: 'Merge themes',
  split: 'Split theme',
  move: 'Move message',
  pin: 'Pin theme',
};

/** Lines of a text area, trimmed, without blank ones. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

function CurationForm(props: {
  action: CurationAction;
  themes: Theme[];
  busy: boolean;
  error: unknown;
  onSubmit: (curation: ThemeCuration) => void;
  onCancel: () => void;
}) {
  const { action } = props;
  const ids = { label: useId(), phrase: useId(), phrases: useId(), examples: useId(), target: useId() };
  const [label, setLabel] = useState(action.kind === 'rename' || (action.kind === 'pin' && action.theme) ? (action.theme?.label ?? '') : '');
  const [phrase, setPhrase] = useState('');
  const [phrases, setPhrases] = useState(action.kind === 'pin' && action.theme ? action.theme.terms.join('\n') : '');
  const [examples, setExamples] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [target, setTarget] = useState('');
  const toggle = (id: string) => setChosen((current) => (current.includes(id) ? current.filter((entry) => entry !== id) : [...current, id]));
  const others = action.theme ? props.themes.filter((theme) => theme.id !== action.theme?.id) : props.themes;

  let curation: ThemeCuration | undefined;
  switch (action.kind) {
    case 'rename':
      if (label.trim()) curation = { kind: 'rename', themeId: action.theme.id, label: label.trim() };
      break;
    case 'merge':
      if (chosen.length > 0) curation = { kind: 'merge', themeIds: [action.theme.id, ...chosen], into: action.theme.id };
      break;
    case 'split':
      if (label.trim() && (phrase.trim() || chosen.length > 0))
        curation = {
          kind: 'split',
          themeId: action.theme.id,
          label: label.trim(),
          ...(phrase.trim() ? { phrase: phrase.trim() } : {}),
          ...(chosen.length > 0 ? { messageIds: chosen } : {}),
        };
      break;
    case 'move':
      if (target) curation = { kind: 'move', messageId: action.message.responseId, themeId: target === 'other' ? null : target };
      break;
    case 'pin':
      // A new theme needs what describes it; an existing one has its messages.
      if (label.trim() && (action.theme || lines(phrases).length > 0 || lines(examples).length > 0))
        curation = {
          kind: 'pin',
          ...(action.theme ? { themeId: action.theme.id } : {}),
          label: label.trim(),
          phrases: lines(phrases),
          examples: lines(examples),
        };
      break;
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (curation) props.onSubmit(curation);
  };
  const labelField = (text: string) => (
    <>
      <label htmlFor={ids.label}>{text}</label>
      <input id={ids.label} value={label} onChange={(event) => setLabel(event.target.value)} maxLength={60} required />
    </>
  );
  return (
    <form onSubmit={submit} className="form">
      {action.kind === 'rename' && labelField('New name')}
      {action.kind === 'merge' && (
        <fieldset className="checkboxes">
          <legend>Merge into “{action.theme.label}”</legend>
          {others.length === 0 && <p className="muted">No other theme in this period.</p>}
          {others.map((theme) => (
            <label key={theme.id} className="checkbox">
              <input type="checkbox" checked={chosen.includes(theme.id)} onChange={() => toggle(theme.id)} /> {theme.label}{' '}
              <span className="muted">({plural(theme.count, 'message')})</span>
            </label>
          ))}
        </fieldset>
      )}
      {action.kind === 'split' && (
        <>
          {labelField('Name of the new theme')}
          <label htmlFor={ids.phrase}>Messages with this phrase</label>
          <input id={ids.phrase} value={phrase} onChange={(event) => setPhrase(event.target.value)} maxLength={80} />
          {action.theme.examples.length > 0 && (
            <fieldset className="checkboxes">
              <legend>And these messages</legend>
              {action.theme.examples.map((example) => (
                <label key={example.responseId} className="checkbox">
                  <input type="checkbox" checked={chosen.includes(example.responseId)} onChange={() => toggle(example.responseId)} /> {example.text}
                </label>
              ))}
            </fieldset>
          )}
          <p className="hint">A phrase, messages, or both. New messages with the phrase keep joining the new theme.</p>
        </>
      )}
      {action.kind === 'move' && (
        <>
          <blockquote className="theme-quote">{action.message.text}</blockquote>
          <label htmlFor={ids.target}>Move to</label>
          <select id={ids.target} value={target} onChange={(event) => setTarget(event.target.value)} required>
            <option value="">Choose a theme</option>
            {others.map((theme) => (
              <option key={theme.id} value={theme.id}>
                {theme.label}
              </option>
            ))}
            <option value="other">No theme (other)</option>
          </select>
        </>
      )}
      {action.kind === 'pin' && (
        <>
          {labelField('Name')}
          <label htmlFor={ids.phrases}>Phrases that mean it (one a line)</label>
          <textarea id={ids.phrases} value={phrases} onChange={(event) => setPhrases(event.target.value)} rows={3} />
          <label htmlFor={ids.examples}>Example messages (one a line)</label>
          <textarea id={ids.examples} value={examples} onChange={(event) => setExamples(event.target.value)} rows={3} />
          <p className="hint">
            A pinned theme keeps its name; messages like its phrases and examples join it at every discovery.
            {!action.theme && ' A new one needs a phrase or an example.'}
          </p>
        </>
      )}
      <FormActions
        error={props.error}
        submitLabel={props.busy ? 'Saving…' : TITLES[action.kind]}
        disabled={props.busy || !curation}
        onCancel={props.onCancel}
      />
    </form>
  );
}

/** The dialog of one curation; `onDone` hears the record once the API has it. */
export function CurationDialog(props: {
  setId: string;
  action: CurationAction | undefined;
  themes: Theme[];
  onClose: () => void;
  onDone: (result: ThemeCurationResult) => void;
}) {
  const curate = useCurateThemes(props.setId, {
    onSuccess: (result) => {
      props.onDone(result);
      props.onClose();
    },
  });
  const close = () => {
    curate.reset();
    props.onClose();
  };
  const action = props.action;
  return (
    <Dialog
      open={action !== undefined}
      title={action ? (action.kind === 'pin' && !action.theme ? 'Pin a new theme' : TITLES[action.kind]) : ''}
      onClose={close}
    >
      {action && (
        <CurationForm
          key={JSON.stringify(action)}
          action={action}
          themes={props.themes}
          busy={curate.isPending}
          error={curate.error}
          onSubmit={(curation) => curate.mutate(curation)}
          onCancel={close}
        />
      )}
    </Dialog>
  );
}

/** The set's curation records, newest first, and for admins the way to pin a new theme. */
export function CurationHistory(props: { setId: string; labels: Map<string, string>; isAdmin: boolean; onPinNew: () => void }) {
  const curations = useThemeCurations(props.setId);
  return (
    <section aria-labelledby={`curations-${props.setId}`} className="theme-curations">
      <h3 id={`curations-${props.setId}`}>What people decided</h3>
      {curations.error ? (
        <ErrorMessage error={curations.error} retry={() => void curations.refetch()} />
      ) : !curations.data ? (
        <Loading what="curations" />
      ) : curations.data.length === 0 ? (
        <p className="muted">No one has curated these themes yet.{props.isAdmin && ' Rename, merge, split or pin a theme with the buttons beside it.'}</p>
      ) : (
        <ol className="curation-list" data-testid="curations">
          {[...curations.data].reverse().map((entry) => (
            <li key={entry.id}>
              <span>{curationWords(entry.record, props.labels)}</span>{' '}
              <time className="muted" dateTime={entry.at}>
                {formatDateTime(entry.at)}
              </time>
            </li>
          ))}
        </ol>
      )}
      {props.isAdmin && (
        <button type="button" onClick={props.onPinNew}>
          Pin a new theme
        </button>
      )}
    </section>
  );
}
