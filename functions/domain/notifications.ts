/**
 * Who gets which mail (docs/api.md, "Mail"): a member's notification preferences in their
 * account, their defaults by role, and whether a mail about a project reaches them. Pure.
 *
 * A member stores only what they chose; the rest follows their role at the moment of
 * sending, so a viewer promoted to admin gets the admin's defaults unless they chose.
 */

export const ALERT_MAIL_MODES = ['immediately', 'daily', 'off'] as const;
export type AlertMailMode = (typeof ALERT_MAIL_MODES)[number];

/** The kinds of mail the service sends; each has its own unsubscribe. */
export const MAIL_KINDS = ['digest', 'alerts'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** At most this many projects in a member's filter. */
export const MAX_FOLLOWED_PROJECTS = 100;

export interface NotificationPreferences {
  /** The weekly digest of each followed project, on Mondays. */
  weeklyDigest: boolean;
  /** Alert mails: one per alert as it is raised, one a day listing the day's alerts, or none. */
  alerts: AlertMailMode;
  /** Only these projects (absent: every project of the account). */
  projects?: string[];
}

/** What a member chose; absent fields follow their role. `projects: null` is stored as absent (all projects). */
export type StoredPreferences = Partial<NotificationPreferences>;

type Role = 'viewer' | 'admin' | 'owner';

/** Owners and admins are told by default; viewers opt in. */
export function defaultPreferences(role: Role): NotificationPreferences {
  const told = role !== 'viewer';
  return { weeklyDigest: told, alerts: told ? 'immediately' : 'off' };
}

/** A member's preferences in effect: what they chose over their role's defaults. */
export function effectivePreferences(role: Role, stored: StoredPreferences | undefined): NotificationPreferences {
  const defaults = defaultPreferences(role);
  return {
    weeklyDigest: stored?.weeklyDigest ?? defaults.weeklyDigest,
    alerts: stored?.alerts ?? defaults.alerts,
    ...(stored?.projects === undefined ? {} : { projects: stored.projects }),
  };
}

/** Whether the preferences follow a project (no filter: all of them). */
export function followsProject(preferences: NotificationPreferences, projectId: string): boolean {
  return preferences.projects === undefined || preferences.projects.includes(projectId);
}

/** Whether a member gets a kind of mail about a project; `alerts` with the mode asked (a daily listing or at once). */
export function wantsMail(preferences: NotificationPreferences, projectId: string, kind: 'digest' | AlertMailMode): boolean {
  if (!followsProject(preferences, projectId)) return false;
  if (kind === 'digest') return preferences.weeklyDigest;
  return kind !== 'off' && preferences.alerts === kind;
}

/** What an unsubscribe of a kind stores: the same preferences with that kind off. */
export function unsubscribed(stored: StoredPreferences | undefined, kind: MailKind): StoredPreferences {
  return kind === 'digest' ? { ...stored, weeklyDigest: false } : { ...stored, alerts: 'off' };
}

/** How a kind of mail is named to a person (the footer's unsubscribe link, the unsubscribe page). */
export function mailKindName(kind: MailKind, accountName: string): string {
  return kind === 'digest' ? `the weekly digest for ${accountName}` : `alert mails for ${accountName}`;
}
