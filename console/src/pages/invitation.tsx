/**
 * `/invitations#<token>`: the link an admin sent. The signed-in person accepts it
 * (members/accept) and sees the account they joined, or why not. The token is read from
 * the fragment (it never reaches a server) and then removed from the address bar.
 */
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { Me } from '@feedback-service/client';
import { Page } from '../components/page';
import { errorMessage } from '../components/states';
import { useAcceptInvitation } from '../data/members';
import { useSession } from '../session';

/** The token of the link this page was opened with, kept once the address bar no longer shows it. */
let linkToken: string | undefined;

export function InvitationPage() {
  const session = useSession();
  const [token] = useState(() => {
    const fromLink = window.location.hash.replace(/^#/, '');
    if (fromLink) linkToken = fromLink;
    return linkToken;
  });
  const accept = useAcceptInvitation(token, session.credential === 'person');
  const joined: Me | undefined = accept.data;
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  const { refreshMe } = session;
  useEffect(() => {
    if (joined) void refreshMe();
  }, [joined, refreshMe]);
  if (!token) {
    return (
      <Page title="Invitation">
        <p>This link holds no invitation. Open the whole link you were sent.</p>
      </Page>
    );
  }
  if (session.credential !== 'person') {
    return (
      <Page title="Invitation">
        <p>An invitation is accepted by a person: sign out and sign in with your account, then open the link again.</p>
      </Page>
    );
  }
  if (joined) {
    return (
      <Page title="You joined the account">
        <p>
          You are a member of <strong data-testid="joined-account">{joined.accountName}</strong> as <strong>{joined.role}</strong>.
        </p>
        <p>
          <Link href="/projects">Go to the projects</Link>
        </p>
      </Page>
    );
  }
  return (
    <Page title="Invitation">
      {accept.error ? (
        <p className="error" role="alert">
          The invitation was not accepted: {errorMessage(accept.error)}
        </p>
      ) : (
        <p className="loading" role="status">
          Accepting the invitation…
        </p>
      )}
    </Page>
  );
}
