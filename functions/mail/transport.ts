/**
 * How a composed mail leaves (docs/architecture.md, "Mail"): nodemailer builds the MIME
 * message and hands it to one of three transports; the composition (mail/compose.ts) is the
 * same for all of them.
 *
 * - `ses`: Amazon SES v2 `SendEmail` with the raw message (nodemailer's SES transport), in
 *   the stack's configuration set, tagged with the account and the kind of mail, so the
 *   bounce and complaint events name the account (mail/bounces-handler.ts).
 * - `smtp`: an SMTP server (`SMTP_URL`, e.g. a mail catcher on `smtp://127.0.0.1:1025`).
 * - `files`: each message as an `.eml` file in `MAIL_OUTBOX_DIR` (npm start: DATA_DIR/outbox,
 *   owner-only like the rest of DATA_DIR), and one printed line per message.
 */
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { ACCOUNT_TAG, KIND_TAG } from '../domain/mail-suppression';
import type { MailKind } from '../domain/notifications';
import { newId } from '../domain/text';
import type { MailTransportSettings } from './settings';

/** A composed mail, addressed. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** The one-click unsubscribe URL (RFC 8058). */
  unsubscribeUrl: string;
  accountId: string;
  kind: MailKind;
}

export interface SentMail {
  messageId: string;
  /** The `.eml` file written, for the files transport. */
  file?: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<SentMail>;
  close(): void;
}

/** The message as nodemailer takes it: RFC 8058's two headers, and no tracking of any kind. */
function message(mail: OutgoingMail) {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    // nodemailer writes `List-Unsubscribe: <url>`; the POST header makes it one-click (RFC 8058).
    list: { unsubscribe: mail.unsubscribeUrl },
    headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'Auto-Submitted': 'auto-generated' },
    // Nodemailer's "disableUrlAccess"/"disableFileAccess": a mail never loads anything.
    disableUrlAccess: true,
    disableFileAccess: true,
  };
}

export interface TransportOptions {
  /** The SES client (the deploy rehearsal passes a recording one). */
  sesClient?: SESv2Client;
  /** Where the files transport says what it wrote (npm start: stdout). */
  print?: (line: string) => void;
}

export function createMailTransport(settings: MailTransportSettings, options: TransportOptions = {}): MailTransport {
  switch (settings.kind) {
    case 'ses': {
      const sesClient = options.sesClient ?? new SESv2Client({});
      const transport = nodemailer.createTransport({ SES: { sesClient, SendEmailCommand } });
      return {
        async send(mail) {
          const sent = await transport.sendMail({
            ...message(mail),
            ses: {
              ...(settings.configurationSet ? { ConfigurationSetName: settings.configurationSet } : {}),
              EmailTags: [
                { Name: ACCOUNT_TAG, Value: mail.accountId },
                { Name: KIND_TAG, Value: mail.kind },
              ],
            },
          } as never);
          return { messageId: String(sent.messageId) };
        },
        close: () => transport.close(),
      };
    }
    case 'smtp': {
      // No pooling: a run sends few mails, paced, and a pooled connection would outlive it.
      const transport = nodemailer.createTransport(settings.url);
      return {
        async send(mail) {
          const sent = await transport.sendMail(message(mail));
          return { messageId: String(sent.messageId) };
        },
        close: () => transport.close(),
      };
    }
    case 'files': {
      const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
      const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
      return {
        async send(mail) {
          const sent = await transport.sendMail(message(mail));
          mkdirSync(settings.dir, { recursive: true, mode: 0o700 });
          const file = join(settings.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId()}.eml`);
          writeFileSync(file, sent.message as Buffer, { mode: 0o600, flag: 'wx' });
          print(`mail to ${mail.to}: ${mail.subject} -> ${file}`);
          return { messageId: String(sent.messageId), file };
        },
        close: () => transport.close(),
      };
    }
  }
}
