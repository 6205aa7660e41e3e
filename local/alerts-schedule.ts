import { withMail } from '../functions/mail/mails';
import { type AlertsResult, configuredConsoleUrl, runAlerts } from '../functions/jobs/alerts';
import { type DigestResult, runDigests } from '../functions/jobs/digest';
import type { TableClient } from '../functions/store/dynamodb-clients';
import { RepeatingJob } from './repeating-job';

export interface LocalAlertsOptions {
  store: TableClient;
  /** How often the alerts job runs (default ALERTS_INTERVAL_SECONDS, else 30 s; hourly on AWS). */
  intervalMs?: number;
  clock?: () => Date;
}

/** ALERTS_INTERVAL_SECONDS in ms, or 30 s. */
export function alertsIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.ALERTS_INTERVAL_SECONDS ?? 30);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new Error(`ALERTS_INTERVAL_SECONDS must be a positive number of seconds, not "${env.ALERTS_INTERVAL_SECONDS}"`);
  return seconds * 1000;
}

/** The alerts job for `npm start`: what the hourly EventBridge rule does on AWS, every 30 s. */
export class LocalAlerts extends RepeatingJob<AlertsResult | undefined> {
  constructor(options: LocalAlertsOptions) {
    const clock = options.clock ?? (() => new Date());
    super({
      name: 'alerts run',
      // CONSOLE_URL is read at each run: the runtime sets it once its server listens.
      work: () => withMail(options.store, (mail) => runAlerts(options.store, clock(), { consoleUrl: configuredConsoleUrl(), mail })),
      fallback: undefined,
      intervalMs: options.intervalMs ?? alertsIntervalMs(),
    });
  }
}

/**
 * The weekly digest for `npm start`: the job checks every minute and sends the week's
 * digests once, from Monday 08:00 UTC (its checkpoint keeps the other runs to one read).
 */
export class LocalDigests extends RepeatingJob<DigestResult | undefined> {
  constructor(options: { store: TableClient; clock?: () => Date }) {
    const clock = options.clock ?? (() => new Date());
    super({
      name: 'digest run',
      work: () => withMail(options.store, (mail) => runDigests(options.store, clock(), mail)),
      fallback: undefined,
      intervalMs: 60_000,
    });
  }
}
