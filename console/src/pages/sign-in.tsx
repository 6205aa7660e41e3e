import { useEffect, useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../components/states';
import { checkKey, type KeyLevel } from '../session';

/** Sign in with an API key; the key stays in this tab's sessionStorage. */
export function SignInPage(props: { onSignedIn: (key: string, level: KeyLevel) => void; message?: string }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(props.message);
  const inputId = useId();
  const hintId = useId();
  useEffect(() => {
    document.title = 'Sign in · Feedback console';
  }, []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) {
      setError('Enter an API key.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const level = await checkKey(trimmed);
      props.onSignedIn(trimmed, level);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  return (
    <main id="main" className="sign-in">
      <div className="sign-in-card">
        <p className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Feedback console
        </p>
        <h1>Sign in</h1>
        <p className="muted">See, read, export and manage the feedback your sites collect.</p>
        <form onSubmit={submit} noValidate>
          <label htmlFor={inputId}>API key</label>
          <input
            id={inputId}
            name="api-key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={key}
            onChange={(event) => setKey(event.target.value)}
            aria-describedby={hintId}
            aria-invalid={error ? true : undefined}
            required
          />
          <p id={hintId} className="hint">
            An admin or viewer key of your account (<code>fbk_…</code>). <code>npm start</code> prints the local ones; <code>npm run keys -- create</code>{' '}
            issues more. It is kept in this browser tab only until you sign out or close it.
          </p>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}
