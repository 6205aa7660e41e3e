/**
 * A mail's subject, HTML and text, from the templates (mail/templates.tsx): the one
 * composition of every transport. The text part is the HTML's text (html-to-text, as
 * react-email's render makes it), so both say the same.
 *
 * Why react-dom/server's `renderToStaticMarkup` and not `@react-email/render`: render()
 * loads react-dom/server and prettier through dynamic imports, which would put prettier
 * into the Lambda bundles and which jest's CommonJS runtime cannot run; the markup is the
 * same (its components are what make the mail), rendered synchronously.
 */
import { convert, type SelectorDefinition } from 'html-to-text';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReactElement } from 'react';
import type { AlertImage } from '../domain/alerts';
import type { ProjectDigest } from '../domain/digest';
import { alertSubject, dailyAlertsSubject, digestSubject, headerText, shortDay } from '../domain/mail-words';
import { AlertMail, DigestMail, type MailFrame } from './templates';

export interface ComposedMail {
  subject: string;
  html: string;
  text: string;
}

/** A mail must stay under this (Gmail clips a message's HTML past 102 KB). */
export const MAIL_SIZE_LIMIT = 100 * 1024;

/** The text part: headings as written (not upper case), the bars left out (their numbers are in the line above). */
const TEXT_SELECTORS: SelectorDefinition[] = [
  { selector: 'img', format: 'skip' },
  // The preview line (react-email's Preview) is for the inbox list only.
  { selector: '[data-skip-in-text=true]', format: 'skip' },
  { selector: 'a', options: { linkBrackets: false, hideLinkHrefIfSameAsText: true } },
  { selector: 'h1', options: { uppercase: false } },
  { selector: 'h2', options: { uppercase: false } },
  { selector: 'table[role=img]', format: 'skip' },
];

/** XHTML 1.0 Transitional, as react-email renders: what mail clients handle most alike. */
const DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

async function composed(subject: string, element: ReactElement): Promise<ComposedMail> {
  const html = DOCTYPE + renderToStaticMarkup(element);
  return { subject: headerText(subject, 200), html, text: convert(html, { wordwrap: 78, selectors: TEXT_SELECTORS }) };
}

export function composeDigest(digest: ProjectDigest, frame: MailFrame): Promise<ComposedMail> {
  const subject = digestSubject(digest);
  return composed(subject, <DigestMail digest={digest} subject={subject} frame={frame} />);
}

/** One alert, as it is raised. */
export function composeAlert(alert: AlertImage, frame: MailFrame): Promise<ComposedMail> {
  const subject = alertSubject(alert);
  return composed(subject, <AlertMail alerts={[alert]} subject={subject} heading="A page got worse" frame={frame} />);
}

/** The alerts of a day, for members who get one mail a day. */
export function composeDailyAlerts(alerts: readonly AlertImage[], day: string, frame: MailFrame): Promise<ComposedMail> {
  const subject = dailyAlertsSubject(alerts, day);
  const heading = `${alerts.length} alert${alerts.length === 1 ? '' : 's'} on ${shortDay(day)}`;
  return composed(subject, <AlertMail alerts={alerts} subject={subject} heading={heading} frame={frame} />);
}
