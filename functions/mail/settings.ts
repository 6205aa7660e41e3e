/**
 * How this deployment sends mail, from its configuration (docs/api.md, "Mail"; README,
 * "Configuration"). Mail is on when there is a sender (`MAIL_FROM`: on AWS the verified
 * identity given at deploy, `cdk deploy -c mailFrom=...`; `npm start` has a default), a
 * way to send (`MAIL_TRANSPORT=ses` on AWS; locally `SMTP_URL`, else `.eml` files in
 * `MAIL_OUTBOX_DIR`, which npm start sets to `DATA_DIR/outbox`) and the console's URL
 * (`CONSOLE_URL`: every mail links into the console, and its unsubscribe URL is the
 * service's own, on the same origin).
 */

/** SES's sending rate in its sandbox (one message a second): the default cap. */
export const SES_SANDBOX_RATE_PER_SECOND = 1;
/** The path of the one-click unsubscribe endpoint under the API's stage. */
export const UNSUBSCRIBE_PATH = '/v0/mail/unsubscribe';

export type MailTransportSettings = { kind: 'ses'; configurationSet?: string } | { kind: 'smtp'; url: string } | { kind: 'files'; dir: string };

export interface MailSettings {
  from: string;
  transport: MailTransportSettings;
  /** Messages per second at most (MAIL_RATE_PER_SECOND). */
  ratePerSecond: number;
  /** The console's base URL: mails link its pages. */
  consoleUrl: string;
  /** The one-click unsubscribe URL (without its token). */
  unsubscribeUrl: string;
}

export type MailConfiguration = { enabled: true; settings: MailSettings } | { enabled: false; off: string };

function httpUrl(text: string | undefined): URL | undefined {
  if (!text?.trim()) return undefined;
  try {
    const url = new URL(text.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A sender address is one line of printable ASCII, `name@domain` or `Name <name@domain>`: nothing a header could be split with. */
const SENDER = /^(?:[ -~]*<([^<>@\s]+@[^<>@\s]+)>|([^<>@\s]+@[^<>@\s]+))$/;

/**
 * The address of a sender (`Name <feedback@example.com>` -> `feedback@example.com`), or
 * undefined when it is no sender address. The CDK stack reads `-c mailFrom` with it too:
 * the SES identities it may send as are that address and its domains.
 */
export function senderAddress(from: string): string | undefined {
  const match = SENDER.exec(from.trim());
  return match ? (match[1] ?? match[2]) : undefined;
}

/** The mail configuration of `env`; `enabled: false` says why not (the console shows it). */
export function mailConfiguration(env: NodeJS.ProcessEnv = process.env): MailConfiguration {
  const from = env.MAIL_FROM?.trim();
  if (!from) return { enabled: false, off: 'Mail is off: this deployment has no sender address (deploy with cdk deploy -c mailFrom=you@example.com).' };
  if (!senderAddress(from)) return { enabled: false, off: `Mail is off: MAIL_FROM is not a sender address` };
  const console = httpUrl(env.CONSOLE_URL);
  if (!console) return { enabled: false, off: "Mail is off: the service does not know the console's URL (CONSOLE_URL), which every mail links to." };
  const consoleUrl = `${console.origin}${console.pathname.replace(/\/+$/, '')}`;
  let transport: MailTransportSettings;
  if (env.MAIL_TRANSPORT === 'ses') transport = { kind: 'ses', ...(env.MAIL_CONFIGURATION_SET ? { configurationSet: env.MAIL_CONFIGURATION_SET } : {}) };
  else if (env.SMTP_URL?.trim()) transport = { kind: 'smtp', url: env.SMTP_URL.trim() };
  else if (env.MAIL_OUTBOX_DIR?.trim()) transport = { kind: 'files', dir: env.MAIL_OUTBOX_DIR.trim() };
  else return { enabled: false, off: 'Mail is off: no way to send is configured (SMTP_URL or MAIL_OUTBOX_DIR locally, SES on AWS).' };
  const rate = Number(env.MAIL_RATE_PER_SECOND ?? SES_SANDBOX_RATE_PER_SECOND);
  if (!Number.isInteger(rate) || rate < 1) return { enabled: false, off: `Mail is off: MAIL_RATE_PER_SECOND must be a whole number of at least 1` };
  return { enabled: true, settings: { from, transport, ratePerSecond: rate, consoleUrl, unsubscribeUrl: `${console.origin}${UNSUBSCRIBE_PATH}` } };
}
