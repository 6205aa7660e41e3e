/**
 * One alert in words, as the webhook's chat line says it: "Getting started: the share of yes
 * fell from 90% (70–97%) to 25% (11–47%) over the last 7 days, 20 responses", with a link to
 * the page or set it is about, on a message set what grew among its messages ("'no' messages
 * in the last 7 days mention "code sample broken": 12 of 31, …", as the chat lines say it),
 * why it fired (its p-value and the threshold it passed) and when it was raised.
 */
import { Link } from 'wouter';
import type { Alert } from '@feedback-service/client';
import { significanceWords } from '../../../shared/alert-significance';
import { ALERT_GROWTH_WINDOWS, growthSaid } from '../../../shared/theme-growth';
import { formatDateTime, plural } from '../lib/format';
import { scoreView } from '../schemas';

type Score = Alert['current']['score'];

export function alertHref(alert: Pick<Alert, 'entity' | 'entityId'>): string {
  return alert.entity === 'contentItem' ? `/items/${alert.entityId}` : `/sets/${alert.entityId}`;
}

/** What the alert says, after its subject's name: "The share of yes fell from …". */
export function alertWords(alert: Alert): string {
  const score = scoreView(alert.schema);
  const format = (value: number) => score?.format(value, undefined) ?? String(value);
  const withInterval = (of: Score) => `${format(of.value)} (${format(of.low)}–${format(of.high)})`;
  const subject = score?.name ?? 'the score';
  return `${subject.charAt(0).toUpperCase()}${subject.slice(1)} fell from ${withInterval(alert.previous.score)} to ${withInterval(alert.current.score)} over the last 7 days, ${plural(alert.current.count, 'response')}`;
}

export function AlertItem(props: { alert: Alert }) {
  const { alert } = props;
  const grown = growthSaid({ tags: alert.themeTags, themes: alert.themes, phrases: alert.phrases }, ...ALERT_GROWTH_WINDOWS);
  return (
    <li className="alert-item" data-alert={alert.entityId}>
      <Link href={alertHref(alert)} className="alert-subject">
        {alert.name}
      </Link>
      {alert.entity === 'contentSet' && <span className="muted"> (the whole set)</span>}
      <span className="alert-words">{alertWords(alert)}.</span>
      {grown && (
        <span className="alert-growth">
          {grown.lead}
          <span className="alert-growth-name">{grown.name}</span>
          {grown.tail}.
        </span>
      )}
      {alert.significance && <span className="muted alert-significance">{significanceWords(alert.significance)}</span>}
      <time className="muted alert-time" dateTime={alert.createdAt}>
        {formatDateTime(alert.createdAt)}
      </time>
    </li>
  );
}
