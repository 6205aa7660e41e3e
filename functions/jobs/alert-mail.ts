/**
 * The alerts job's mail (docs/api.md, "Mail"): after each evaluation, every alert of the
 * last ALERT_MAIL_HOURS not yet mailed goes to the members who want alerts at once; on the
 * job's first run of a UTC day, each member who wants one mail a day gets the day before's.
 *
 * Alerts are found through the accounts of the watched projects (an alert needs responses
 * in its last 7 days, so its project is watched): one Query per watch shard, then per such
 * account one Query of its alerts of the last hours, of which only those not marked
 * `mailed` are mailed. An alert is marked once every member's mail went out or was
 * refused, so a run that died midway, or a failure left for a retry, is mailed by the
 * next run; the once-records keep anyone from getting it twice.
 */
import { type AlertImage, alertWindows } from '../domain/alerts';
import { type Audience, accountAudience } from '../mail/audience';
import { mailAlert, mailDailyAlerts, type MailContext } from '../mail/mails';
import { alertOf, markAlertMailed, readAlerts, watchedProjects } from '../store/alerts';
import type { TableClient } from '../store/dynamodb-clients';

/** How far back a run looks for alerts not yet mailed: a day and two hourly runs. */
export const ALERT_MAIL_HOURS = 26;
/** Alerts of an account read per run at most (newest first). */
const ALERTS_PER_ACCOUNT = 100;

export interface AlertMailResult {
  alerts: number;
  daily: number;
  sent: number;
}

export async function mailAlerts(store: TableClient, now: Date, mail: MailContext, daily: boolean): Promise<AlertMailResult> {
  const accounts = new Set((await watchedProjects(store, alertWindows(now).current.from)).map((project) => project.accountId));
  const audiences = new Map<string, Audience>();
  const audience = async (accountId: string) => {
    if (!audiences.has(accountId)) audiences.set(accountId, await accountAudience(store, accountId));
    return audiences.get(accountId)!;
  };
  const result: AlertMailResult = { alerts: 0, daily: 0, sent: 0 };
  const sentBefore = mail.sender.counts.sent;
  for (const accountId of accounts) {
    const since = new Date(now.getTime() - ALERT_MAIL_HOURS * 3600_000).toISOString();
    const { items } = await readAlerts(store, accountId, { from: since }, { count: ALERTS_PER_ACCOUNT });
    for (const item of items.filter((candidate) => candidate.mailed !== true).reverse()) {
      const alert = alertOf(item);
      const outcomes = await mailAlert(mail.sender, mail.settings, await audience(accountId), alert);
      result.alerts++;
      if (outcomes.every((outcome) => outcome.state !== 'retry')) await markAlertMailed(store, alert);
    }
    if (daily) {
      const day = new Date(now.getTime() - 24 * 3600_000).toISOString().slice(0, 10);
      const { items: yesterday } = await readAlerts(
        store,
        accountId,
        { from: `${day}T00:00:00.000Z`, to: `${day}T23:59:59.999Z~` },
        { count: ALERTS_PER_ACCOUNT },
      );
      const alerts: AlertImage[] = yesterday.map(alertOf).reverse();
      if (alerts.length > 0) result.daily += (await mailDailyAlerts(mail.sender, mail.settings, await audience(accountId), alerts, day)).length;
    }
  }
  result.sent = mail.sender.counts.sent - sentBefore;
  return result;
}
