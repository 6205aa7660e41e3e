/**
 * What the service mails the signed-in member (docs/api.md, "Mail"): the weekly digest on or
 * off, alert mails (each at once, one a day, or none), the projects they cover; where the mail
 * goes and, when it bounced or was marked as spam, a way to be mailed again; "send me this
 * week's digest now" (to oneself only). A mail's unsubscribe link turns a kind off: ticking it
 * again here subscribes again. Says so when the deployment sends no mail. An API key has no
 * mailbox: signed in with one, the page says only that.
 */
import { useId, useState, type FormEvent } from 'react';
import type { Notifications, NotificationPreferences, Project } from '@feedback-service/client';
import { Page, QueryPageState } from '../components/page';
import { ChangeError } from '../components/states';
import { useProjectLookup } from '../data/projects';
import { useNotifications, useSendDigest, useSetNotifications } from '../data/notifications';
import { ALERT_MODE_WORDS, suppressionWords } from '../lib/notification-words';
import { useSession } from '../session';

const TITLE = 'Notifications';
const ALERT_MODES = Object.keys(ALERT_MODE_WORDS) as NotificationPreferences['alerts'][];

/** Where mail goes, whether it can, and being mailed again after a bounce or complaint. */
function Delivery(props: { notifications: Notifications }) {
  const { mail, delivery } = props.notifications;
  const resume = useSetNotifications();
  return (
    <section aria-labelledby="mail-delivery" className="mail-delivery">
      <h2 id="mail-delivery">Where your mail goes</h2>
      {!delivery.enabled && (
        <div className="note" data-testid="mail-off">
          <p>
            <strong>{delivery.off}</strong>
          </p>
          <p>Nothing is mailed to anyone. Your choices below are kept, and hold once mail is on.</p>
        </div>
      )}
      {mail.address ? (
        <p>
          To <strong data-testid="mail-address">{mail.address}</strong>, the address your sign-in provider verified.
        </p>
      ) : (
        <p data-testid="mail-address-missing">
          Your sign-in provider has not verified an email address for you, so the service cannot mail you. Verify one there, then open this page again.
        </p>
      )}
      {mail.suppressed && (
        <div className="note" data-testid="mail-suppressed">
          <p>
            {suppressionWords(mail.suppressed)} The service mails this address nothing more until you ask it to: fix what went wrong first (a full or closed
            mailbox, a spam filter), then:
          </p>
          <button type="button" onClick={() => resume.mutate({ resumeMail: true })} disabled={resume.isPending}>
            Mail me again
          </button>
          <ChangeError error={resume.error} />
        </div>
      )}
    </section>
  );
}

/** The projects a member may limit their mail to: the account's active ones, by name. */
function ProjectChoices(props: { projects: Project[] | undefined; chosen: Set<string>; onToggle: (id: string, on: boolean) => void; describedBy: string }) {
  if (!props.projects) return <p className="muted">Loading the projects…</p>;
  if (props.projects.length === 0) return <p className="muted">This account has no active projects yet.</p>;
  return (
    <div className="project-choices">
      {props.projects.map((project) => (
        <label key={project.id} className="checkbox">
          <input
            type="checkbox"
            checked={props.chosen.has(project.id)}
            onChange={(event) => props.onToggle(project.id, event.target.checked)}
            aria-describedby={props.describedBy}
          />
          <span>{project.name}</span>
        </label>
      ))}
    </div>
  );
}

/** The member's choices: saved together, each said against their role's default. */
function PreferencesForm(props: { notifications: Notifications; projects: Project[] | undefined }) {
  const { preferences, chosen, defaults } = props.notifications;
  const [weeklyDigest, setWeeklyDigest] = useState(preferences.weeklyDigest);
  const [alerts, setAlerts] = useState(preferences.alerts);
  const [scope, setScope] = useState<'all' | 'some'>(preferences.projects ? 'some' : 'all');
  const [projects, setProjects] = useState(() => new Set(preferences.projects ?? []));
  const [saved, setSaved] = useState(false);
  const save = useSetNotifications();
  const ids = { digestHint: useId(), alertsHint: useId(), projectsHint: useId(), noProject: useId() };
  const noProject = scope === 'some' && projects.size === 0;
  const changed = () => {
    setSaved(false);
    save.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (noProject) return;
    save.mutate({ weeklyDigest, alerts, projects: scope === 'all' ? null : [...projects] }, { onSuccess: () => setSaved(true) });
  };
  const roleDefault = (on: boolean) => (on ? 'on' : 'off');
  return (
    <form className="form notification-form" onSubmit={submit} aria-labelledby="your-mails">
      <h2 id="your-mails">What you get</h2>
      <fieldset className="settings-group">
        <legend>Weekly digest</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={weeklyDigest}
            onChange={(event) => {
              setWeeklyDigest(event.target.checked);
              changed();
            }}
            aria-describedby={ids.digestHint}
          />
          <span>Mail me each project’s weekly digest on Monday</span>
        </label>
        <p id={ids.digestHint} className="hint">
          Last week’s responses and their change, the pages that did worst and best, and the week’s alerts, each linking here. Your role’s default:{' '}
          {roleDefault(defaults.weeklyDigest)}.
          {chosen.weeklyDigest === false && defaults.weeklyDigest && ' You turned it off (here, or with a digest’s unsubscribe link); tick it to get it again.'}
        </p>
      </fieldset>
      <fieldset className="settings-group">
        <legend>Alert mails</legend>
        {ALERT_MODES.map((mode) => (
          <label key={mode} className="checkbox">
            <input
              type="radio"
              name="alerts"
              value={mode}
              checked={alerts === mode}
              onChange={() => {
                setAlerts(mode);
                changed();
              }}
              aria-describedby={ids.alertsHint}
            />
            <span>{ALERT_MODE_WORDS[mode][0].toUpperCase() + ALERT_MODE_WORDS[mode].slice(1)}</span>
          </label>
        ))}
        <p id={ids.alertsHint} className="hint">
          An alert says a page’s feedback turned clearly worse. Your role’s default: {ALERT_MODE_WORDS[defaults.alerts]}.
          {chosen.alerts === 'off' &&
            defaults.alerts !== 'off' &&
            ' You turned them off (here, or with an alert’s unsubscribe link); choose how to get them again.'}
        </p>
      </fieldset>
      <fieldset className="settings-group">
        <legend>Projects</legend>
        <p id={ids.projectsHint} className="hint">
          The digest and the alerts of which projects.
        </p>
        <label className="checkbox">
          <input
            type="radio"
            name="scope"
            checked={scope === 'all'}
            onChange={() => {
              setScope('all');
              changed();
            }}
          />
          <span>Every project of the account, also those added later</span>
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name="scope"
            checked={scope === 'some'}
            onChange={() => {
              setScope('some');
              changed();
            }}
          />
          <span>Only these projects:</span>
        </label>
        {scope === 'some' && (
          <ProjectChoices
            projects={props.projects}
            chosen={projects}
            describedBy={noProject ? `${ids.projectsHint} ${ids.noProject}` : ids.projectsHint}
            onToggle={(id, on) => {
              setProjects((current) => {
                const next = new Set(current);
                if (on) next.add(id);
                else next.delete(id);
                return next;
              });
              changed();
            }}
          />
        )}
        {noProject && (
          <p id={ids.noProject} className="error field-error" role="alert">
            Choose at least one project, or every project.
          </p>
        )}
      </fieldset>
      <ChangeError error={save.error} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={save.isPending || noProject}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        <span role="status" className="success">
          {saved && !save.isPending ? 'Saved.' : ''}
        </span>
      </div>
    </form>
  );
}

/** This week's digest of one project to oneself now, when mail can reach one. */
function SendNow(props: { notifications: Notifications; projects: Project[] | undefined }) {
  const { mail, delivery } = props.notifications;
  const [projectId, setProjectId] = useState('');
  const send = useSendDigest();
  const selectId = useId();
  const why = !delivery.enabled
    ? 'Mail is off in this deployment.'
    : !mail.address
      ? 'The service has no verified address of yours.'
      : mail.suppressed
        ? 'Mail to your address is stopped: ask to be mailed again first.'
        : undefined;
  const chosen = projectId || props.projects?.[0]?.id || '';
  return (
    <section aria-labelledby="send-now">
      <h2 id="send-now">This week’s digest now</h2>
      <p className="hint">Mails you the digest of last week (Monday to Sunday) of one project, to your own address only, whatever you chose above.</p>
      {why ? (
        <p className="muted" data-testid="send-now-unavailable">
          {why}
        </p>
      ) : (
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (chosen) send.mutate(chosen);
          }}
        >
          <label htmlFor={selectId}>Project</label>
          <select
            id={selectId}
            value={chosen}
            onChange={(event) => {
              setProjectId(event.target.value);
              send.reset();
            }}
          >
            {props.projects?.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
          <button type="submit" disabled={!chosen || send.isPending}>
            {send.isPending ? 'Sending…' : 'Send me this week’s digest now'}
          </button>
        </form>
      )}
      <p role="status" className="success" data-testid="send-now-result">
        {send.data ? `Sent to ${send.data.to}: “${send.data.subject}”.` : ''}
      </p>
      <ChangeError error={send.error} />
    </section>
  );
}

export default function NotificationsPage() {
  const session = useSession();
  const person = session.credential === 'person';
  const notifications = useNotifications(person);
  const projects = useProjectLookup({ text: '', archived: false });
  if (!person) {
    return (
      <Page title={TITLE}>
        <p>
          Notifications are a person’s: you signed in with an API key, which has no mailbox. Sign in as yourself to choose the mails you get (the weekly digest,
          alerts).
        </p>
      </Page>
    );
  }
  if (notifications.error || !notifications.data) return <QueryPageState title={TITLE} what="your notifications" query={notifications} />;
  return (
    <Page title={TITLE} subtitle={`What the service mails you about ${session.me?.accountName ?? 'this account'}.`}>
      <Delivery notifications={notifications.data} />
      <PreferencesForm notifications={notifications.data} projects={projects.data} />
      <SendNow notifications={notifications.data} projects={projects.data} />
    </Page>
  );
}
