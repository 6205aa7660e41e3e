/**
 * The three mails (docs/api.md, "Mail"), each to the members who asked for it:
 *
 * - the weekly digest of a project, once per member, project and week;
 * - an alert as it is raised, once per member and alert (members with `alerts: immediately`);
 * - a day's alerts in one mail, once per member and day (members with `alerts: daily`).
 *
 * The callers (the digest and alerts jobs, members/sendDigest, `npm run digest -- --mail`)
 * give what to say; whom, once and how is here and in mail/sender.ts.
 */
import type { AlertImage } from '../domain/alerts';
import type { ProjectDigest } from '../domain/digest';
import { headerText } from '../domain/mail-words';
import { mailKindName, type MailKind, wantsMail } from '../domain/notifications';
import type { Audience, AudienceMember } from './audience';
import { composeAlert, composeDailyAlerts, composeDigest } from './compose';
import type { TableClient } from '../store/dynamodb-clients';
import { type MailOutcome, type MailRequest, MailSender, type SenderOptions } from './sender';
import { mailConfiguration, type MailSettings } from './settings';
import { createMailTransport, type TransportOptions } from './transport';

/** The frame of a mail: its names made one plain line each (mail-words.ts `headerText`), whatever was stored. */
function frameOf(audience: Audience, settings: MailSettings, kind: MailKind, because: string): MailRequest['frame'] {
  const accountName = headerText(audience.accountName, 100);
  return { accountName, consoleUrl: settings.consoleUrl, stops: mailKindName(kind, accountName), because: headerText(because, 400) };
}

/** The week's key of a digest's once-record. */
export const digestOnce = (memberId: string, digest: Pick<ProjectDigest, 'projectId' | 'week'>) => `digest#${memberId}#${digest.projectId}#${digest.week.from}`;
export const alertOnce = (memberId: string, alertId: string) => `alert#${memberId}#${alertId}`;
export const dailyOnce = (memberId: string, day: string) => `alertday#${memberId}#${day}`;

/** Whether any member of the audience wants the project's digest (the job builds it only then). */
export function digestReaders(audience: Audience, projectId: string): AudienceMember[] {
  return audience.members.filter((member) => wantsMail(member.preferences, projectId, 'digest'));
}

/**
 * Mails a project's digest to the members who follow it with the digest on: once per
 * member and week when `weekly`, else now (`npm run digest -- --mail`).
 */
export async function mailDigest(
  sender: MailSender,
  settings: MailSettings,
  audience: Audience,
  digest: ProjectDigest,
  weekly: boolean,
): Promise<MailOutcome[]> {
  const outcomes: MailOutcome[] = [];
  for (const member of digestReaders(audience, digest.projectId)) {
    outcomes.push(
      await sender.send({
        recipient: member.recipient,
        kind: 'digest',
        ...(weekly ? { once: digestOnce(member.recipient.memberId, digest) } : {}),
        compose: (frame) => composeDigest(digest, frame),
        frame: frameOf(
          audience,
          settings,
          'digest',
          `You get this because you follow ${digest.projectName} in ${audience.accountName} with the weekly digest on.`,
        ),
        wants: (preferences) => wantsMail(preferences, digest.projectId, 'digest'),
      }),
    );
  }
  return outcomes;
}

/** A member's own digest now (members/sendDigest): to them only, whatever their preferences. */
export function mailDigestTo(
  sender: MailSender,
  settings: MailSettings,
  audience: Audience,
  member: AudienceMember,
  digest: ProjectDigest,
): Promise<MailOutcome> {
  return sender.send({
    recipient: member.recipient,
    kind: 'digest',
    compose: (frame) => composeDigest(digest, frame),
    frame: frameOf(audience, settings, 'digest', `You get this because you asked for this week's digest of ${digest.projectName} in the console.`),
    wants: () => true,
  });
}

/** An alert as it is raised, to the members who want alerts at once and follow its project. */
export async function mailAlert(sender: MailSender, settings: MailSettings, audience: Audience, alert: AlertImage): Promise<MailOutcome[]> {
  const outcomes: MailOutcome[] = [];
  for (const member of audience.members.filter((candidate) => wantsMail(candidate.preferences, alert.projectId, 'immediately'))) {
    outcomes.push(
      await sender.send({
        recipient: member.recipient,
        kind: 'alerts',
        once: alertOnce(member.recipient.memberId, alert.id),
        compose: (frame) => composeAlert(alert, frame),
        frame: frameOf(audience, settings, 'alerts', `You get this because you have alert mails on in ${audience.accountName}.`),
        wants: (preferences) => wantsMail(preferences, alert.projectId, 'immediately'),
      }),
    );
  }
  return outcomes;
}

/** A day's alerts, one mail per member who wants them daily, listing those of the projects they follow. */
export async function mailDailyAlerts(
  sender: MailSender,
  settings: MailSettings,
  audience: Audience,
  alerts: readonly AlertImage[],
  day: string,
): Promise<MailOutcome[]> {
  const outcomes: MailOutcome[] = [];
  for (const member of audience.members.filter((candidate) => candidate.preferences.alerts === 'daily')) {
    const theirs = alerts.filter((alert) => wantsMail(member.preferences, alert.projectId, 'daily'));
    if (theirs.length === 0) continue;
    outcomes.push(
      await sender.send({
        recipient: member.recipient,
        kind: 'alerts',
        once: dailyOnce(member.recipient.memberId, day),
        compose: (frame) => composeDailyAlerts(theirs, day, frame),
        frame: frameOf(audience, settings, 'alerts', `You get this because you have a daily alert mail on in ${audience.accountName}.`),
        wants: (preferences) => preferences.alerts === 'daily',
      }),
    );
  }
  return outcomes;
}

/** The mail of a run: its settings and one sender (one rate cap, one transport). */
export interface MailContext {
  settings: MailSettings;
  sender: MailSender;
}

/**
 * The mail context of this configuration (mail/settings.ts), or undefined when mail is off.
 * Close it (`sender.close()`) at the end of the run.
 */
export function openMail(store: TableClient, options: TransportOptions & SenderOptions & { env?: NodeJS.ProcessEnv } = {}): MailContext | undefined {
  const configuration = mailConfiguration(options.env);
  if (!configuration.enabled) return undefined;
  const { settings } = configuration;
  return { settings, sender: new MailSender(store, settings, createMailTransport(settings.transport, options), options) };
}

/** Runs `work` with this configuration's mail (undefined when off), closing its transport after. */
export async function withMail<T>(
  store: TableClient,
  work: (mail: MailContext | undefined) => Promise<T>,
  options: Parameters<typeof openMail>[1] = {},
): Promise<T> {
  const mail = openMail(store, options);
  try {
    return await work(mail);
  } finally {
    mail?.sender.close();
  }
}
