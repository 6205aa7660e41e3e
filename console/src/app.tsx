/**
 * The console: a single-page app over the API's operations, served at `/` next to the API
 * (`/v0`). Routes use the browser history; the server answers every client route with
 * index.html, so deep links and reloads work.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { Loading } from './components/states';
import { Page } from './components/page';
import { ContentItemPage } from './pages/content-item';
import { ContentSetPage } from './pages/content-set';
import { RespondentPage, RespondentsPage } from './pages/respondents';
import { ProjectPage } from './pages/project';
import { ProjectsPage } from './pages/projects';
import { ResponsesPage } from './pages/responses';
import { ReviewPage } from './pages/review';
import { SetSettingsPage } from './pages/set-settings';
import { ThemeMessagesPage } from './pages/theme-messages';
import { InvitationPage } from './pages/invitation';
import { SignInPage } from './pages/sign-in';
import { SessionProvider, useSession } from './session';

const EmbedPage = lazy(() => import('./pages/embed'));
const WebhooksPage = lazy(() => import('./pages/webhooks'));
const WebhookPage = lazy(() => import('./pages/webhook'));
const KeysPage = lazy(() => import('./pages/keys'));
const AuditPage = lazy(() => import('./pages/audit'));
const MembersPage = lazy(() => import('./pages/members'));
const AlertsPage = lazy(() => import('./pages/alerts'));
const NotificationsPage = lazy(() => import('./pages/notifications'));

function NavLink(props: { href: string; children: ReactNode }) {
  const [location] = useLocation();
  const current = location === props.href || location.startsWith(`${props.href}/`);
  return (
    <Link href={props.href} aria-current={current ? 'page' : undefined}>
      {props.children}
    </Link>
  );
}

function Shell(props: { children: ReactNode }) {
  const session = useSession();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/projects" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Feedback console
        </Link>
        <nav aria-label="Main" className="main-nav">
          <NavLink href="/projects">Projects</NavLink>
          <NavLink href="/alerts">Alerts</NavLink>
          <NavLink href="/respondents">Respondent data</NavLink>
          {session.isAdmin && <NavLink href="/webhooks">Webhooks</NavLink>}
          {session.isAdmin && <NavLink href="/members">Members</NavLink>}
          {session.isAdmin && <NavLink href="/keys">API keys</NavLink>}
          {session.isAdmin && <NavLink href="/audit">Audit log</NavLink>}
          {session.credential === 'person' && <NavLink href="/notifications">Notifications</NavLink>}
        </nav>
        <div className="session">
          <span className="session-name" data-testid="session-name">
            {session.displayName}
          </span>
          {/* A person who is no member has no role to show (the invitation page says what they are invited as). */}
          {!session.notAMember && (
            <span className="level-badge" title={session.credential === 'key' ? 'The level of the key you signed in with' : 'Your role in this account'}>
              {session.roleLabel}
            </span>
          )}
          <button type="button" onClick={() => session.signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
    </>
  );
}

/** A signed-in person who is no member of an account (yet): only an invitation link helps. */
function NotAMember() {
  const session = useSession();
  return (
    <main id="main" className="sign-in">
      <div className="sign-in-card">
        <h1>You are not a member of an account</h1>
        <p>You signed in, but no account of this service has you as a member yet, so there is nothing to show you.</p>
        <p>
          To get in, ask an owner of the account you work with for an invitation (admins may invite viewers). They send you a link: open it in this browser and
          you join the account.
        </p>
        <button type="button" onClick={() => session.signOut()}>
          Sign out
        </button>
      </div>
    </main>
  );
}

function AdminOnly(props: { children: ReactNode }) {
  const session = useSession();
  if (session.isAdmin) return <>{props.children}</>;
  return (
    <Page title="Admins only">
      <p>This page needs an admin key. You signed in with a viewer key, which can read feedback but not manage the account.</p>
    </Page>
  );
}

function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p>
        Nothing here. <Link href="/projects">Go to your projects</Link>.
      </p>
    </Page>
  );
}

function Routes() {
  return (
    <Suspense fallback={<Loading what="page" />}>
      <Switch>
        <Route path="/">
          <Redirect to="/projects" replace />
        </Route>
        <Route path="/projects" component={ProjectsPage} />
        <Route path="/projects/:projectId">{(params) => <ProjectPage projectId={params.projectId} />}</Route>
        <Route path="/projects/:projectId/responses">{(params) => <ResponsesPage scope={{ projectId: params.projectId }} />}</Route>
        <Route path="/projects/:projectId/review">{(params) => <ReviewPage projectId={params.projectId} />}</Route>
        <Route path="/sets/:setId">{(params) => <ContentSetPage setId={params.setId} />}</Route>
        <Route path="/sets/:setId/responses">{(params) => <ResponsesPage scope={{ contentSetId: params.setId }} />}</Route>
        <Route path="/sets/:setId/embed">{(params) => <EmbedPage setId={params.setId} />}</Route>
        <Route path="/sets/:setId/messages">{(params) => <ThemeMessagesPage setId={params.setId} />}</Route>
        <Route path="/sets/:setId/settings">{(params) => <SetSettingsPage setId={params.setId} />}</Route>
        <Route path="/items/:itemId">{(params) => <ContentItemPage itemId={params.itemId} />}</Route>
        <Route path="/alerts" component={AlertsPage} />
        <Route path="/notifications" component={NotificationsPage} />
        <Route path="/respondents" component={RespondentsPage} />
        <Route path="/respondents/:userId">{(params) => <RespondentPage userId={params.userId} />}</Route>
        {/* The pages' earlier address: bookmarks keep working. */}
        <Route path="/people">
          <Redirect to="/respondents" replace />
        </Route>
        <Route path="/people/:userId">{(params) => <Redirect to={`/respondents/${params.userId}`} replace />}</Route>
        <Route path="/webhooks">
          <AdminOnly>
            <WebhooksPage />
          </AdminOnly>
        </Route>
        <Route path="/webhooks/:webhookId">
          {(params) => (
            <AdminOnly>
              <WebhookPage webhookId={params.webhookId} />
            </AdminOnly>
          )}
        </Route>
        <Route path="/keys">
          <AdminOnly>
            <KeysPage />
          </AdminOnly>
        </Route>
        <Route path="/members">
          <AdminOnly>
            <MembersPage />
          </AdminOnly>
        </Route>
        <Route path="/invitations" component={InvitationPage} />
        <Route path="/audit">
          <AdminOnly>
            <AuditPage />
          </AdminOnly>
        </Route>
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}

/** A person who is no member yet sees only the invitation page (or how to get one). */
function Signed() {
  const session = useSession();
  const [location] = useLocation();
  if (session.notAMember && location !== '/invitations') return <NotAMember />;
  return (
    <Shell>
      <Routes />
    </Shell>
  );
}

export function App() {
  return (
    <SessionProvider signIn={(controls) => <SignInPage {...controls} />} loading={<Loading what="the console" />}>
      <Signed />
    </SessionProvider>
  );
}
