import { useEffect, useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../components/states';
import { useInvitedTo } from '../data/members';
import { formatDateTime } from '../lib/format';
import { startSignIn } from '../oidc';
import { checkKey, type SignInControls } from '../session';

/** The token of an invitation link this page was opened with (`/invitations#<token>`), if any. */
function invitationToken(): string | undefined {
  if (window.location.pathname !== '/invitations') return undefined;
  return window.location.hash.replace(/^#/, '') || undefined;
}

/**
 * The heading of the sign-in page: on an invitation link, what it invites to (read without
 * signing in), so the person knows why to sign in; otherwise "Sign in".
 */
function SignInHeading(props: { token: string | undefined }) {
  const invited = useInvitedTo(props.token);
  if (!props.token) {
    return (
      <>
        <h1>Sign in</h1>
        <p className="muted">See, read, export and manage the feedback your sites collect.</p>
      </>
    );
  }
  if (invited.data) {
    return (
      <>
        <h1>
          You are invited to <span data-testid="invited-account">{invited.data.accountName}</span>
        </h1>
        <p data-testid="invitation-summary">
          as <strong>{invited.data.role}</strong>: sign in to accept. The link works until {formatDateTime(invited.data.expiresAt)}, once.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Invitation</h1>
      {invited.error ? (
        <p className="error" role="alert">
          This invitation link does not work: {errorMessage(invited.error)}. Ask whoever sent it for a new one.
        </p>
      ) : (
        <p className="loading" role="status">
          Reading the invitation…
        </p>
      )}
    </>
  );
}

/**
 * Sign in as a person at the configured provider, or with an API key ("Use an API key
 * instead", the only way when sign-in is not configured); the credential stays in this tab.
 */
export function SignInPage(props: SignInControls) {
  const oidc = props.config.oidc;
  const [useKey, setUseKey] = useState(!oidc);
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
      await checkKey(trimmed);
      props.withKey(trimmed);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  const personSignIn = async () => {
    if (!oidc) return;
    setBusy(true);
    setError(undefined);
    try {
      await startSignIn(oidc, `${window.location.pathname}${window.location.search}${window.location.hash}`);
    } catch (failure) {
      setError(`The sign-in provider cannot be reached: ${(failure as Error).message}`);
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
        <SignInHeading token={invitationToken()} />
        {oidc && !useKey && (
          <>
            {error && (
              <p className="error" role="alert">
                {error}
              </p>
            )}
            <button type="button" className="primary" disabled={busy} onClick={personSignIn}>
              {busy ? 'Signing in…' : 'Sign in'}
            </button>
            <p>
              <button type="button" className="link-button" onClick={() => setUseKey(true)}>
                Use an API key instead
              </button>
            </p>
          </>
        )}
        {useKey && (
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
            {oidc && (
              <p>
                <button type="button" className="link-button" onClick={() => setUseKey(false)}>
                  Use your account instead
                </button>
              </p>
            )}
          </form>
        )}
      </div>
    </main>
  );
}
