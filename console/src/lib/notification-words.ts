/**
 * Mail settings in words, as the Notifications page and the Members page say them: what a
 * member gets, and why the service stopped mailing an address.
 */
import type { MailSuppression, NotificationPreferences } from '@feedback-service/client';
import { formatDate } from './format';

export const ALERT_MODE_WORDS: Record<NotificationPreferences['alerts'], string> = {
  immediately: 'each alert as it is raised',
  daily: 'one mail a day listing the day’s alerts',
  off: 'no alert mails',
};

/** "Weekly digest, alerts daily, 2 projects": a member's settings in one short line. */
export function preferencesLine(preferences: NotificationPreferences): string {
  const alerts = preferences.alerts === 'off' ? 'no alerts' : `alerts ${preferences.alerts}`;
  const projects = preferences.projects ? `${preferences.projects.length} project${preferences.projects.length === 1 ? '' : 's'}` : 'all projects';
  return `${preferences.weeklyDigest ? 'Weekly digest' : 'No digest'}, ${alerts}, ${projects}`;
}

const REASON_WORDS: Record<MailSuppression['reason'], string> = {
  bounce: 'mail to it bounced',
  complaint: 'a mail was marked as spam',
  refused: 'its mail server refused mail for good',
};

/** "Mail stopped on 5 Jan 2026: mail to it bounced (General: 550 no such user)." */
export function suppressionWords(suppressed: MailSuppression): string {
  return `Mail stopped on ${formatDate(suppressed.at)}: ${REASON_WORDS[suppressed.reason]}${suppressed.detail ? ` (${suppressed.detail})` : ''}.`;
}
