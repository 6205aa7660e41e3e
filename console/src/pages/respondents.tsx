/**
 * Respondent data: a respondent's (a person who answered) responses across the account (by the userId the widgets' forms record, or a
 * site's own profiling.userId), their export, and for admins the erasure of their data.
 */
import { useId, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { ConfirmDialog } from '../components/dialog';
import { Page } from '../components/page';
import { ResponsesList } from '../components/responses';
import { OperationError } from '../components/states';
import { useCountPersonResponses, useErasePerson } from '../data/responses';
import { formatCount, plural } from '../lib/format';
import { useSession } from '../session';

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function RespondentsPage() {
  const [, navigate] = useLocation();
  const [userId, setUserId] = useState('');
  const inputId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (userId.trim()) navigate(`/respondents/${encodeURIComponent(userId.trim())}`);
  };
  return (
    <Page title="Respondent data" subtitle="Find everything one respondent sent, export it, or erase it on request.">
      <form onSubmit={submit} className="form narrow">
        <label htmlFor={inputId}>User id</label>
        <input id={inputId} value={userId} onChange={(event) => setUserId(event.target.value)} placeholder="e.g. someone@example.com" required />
        <p className="hint">
          The <code>userId</code> of a response’s profiling: the e-mail address the widgets’ forms ask for, or the id your site sends.
        </p>
        <button type="submit" className="primary">
          Show responses
        </button>
      </form>
    </Page>
  );
}

function EraseButton(props: { userId: string }) {
  const [count, setCount] = useState<number | undefined>();
  const [result, setResult] = useState<string | undefined>();
  const counting = useCountPersonResponses(props.userId, { onSuccess: setCount });
  const erase = useErasePerson(props.userId, {
    onSuccess: (erased) => {
      setCount(undefined);
      setResult(`Erased ${plural(erased, 'response')} of ${props.userId}.`);
    },
  });
  return (
    <>
      <button type="button" className="danger" onClick={() => counting.mutate()} disabled={counting.isPending}>
        {counting.isPending ? 'Counting…' : 'Erase this person’s data'}
      </button>
      {result && (
        <p role="status" className="success">
          {result}
        </p>
      )}
      {counting.error && <OperationError error={counting.error} feature="Erasing a person’s data" retry={null} />}
      {erase.error && <OperationError error={erase.error} feature="Erasing a person’s data" retry={null} />}
      <ConfirmDialog
        open={count !== undefined}
        title={`Erase ${props.userId}’s data?`}
        confirmLabel={`Erase ${plural(count ?? 0, 'response')}`}
        danger
        busy={erase.isPending}
        onConfirm={() => erase.mutate()}
        onClose={() => setCount(undefined)}
      >
        <p>
          This deletes <strong>{formatCount(count ?? 0)}</strong> {count === 1 ? 'response' : 'responses'} of <strong>{props.userId}</strong> for good, in every
          project, and corrects the statistics. It cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}

export function RespondentPage(props: { userId: string }) {
  const { isAdmin } = useSession();
  const userId = decoded(props.userId);
  return (
    <Page title={userId} kicker="Respondent" crumbs={[{ label: 'Respondent data', href: '/respondents' }]} actions={isAdmin && <EraseButton userId={userId} />}>
      <ResponsesList scope={{ userId }} />
    </Page>
  );
}
