/**
 * The mails' markup, with react-email (docs/architecture.md, "Mail": why react-email and
 * not MJML). Table layouts with inline styles from its components; one column of at most
 * 600 px that narrows to the screen (360 px phones); light colours inline and dark ones by
 * `prefers-color-scheme` in the head (clients that ignore it keep the light ones); `lang`,
 * one h1 and h2s; no images at all (the interval bars are table cells with a text
 * alternative), so no remote content, no tracking pixel, and every link goes straight to
 * its page. React escapes every name: user text is never markup.
 */
import { Body } from '@react-email/body';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { CSSProperties, ReactNode } from 'react';
import { messagesPath } from '../../shared/console-paths';
import { type AlertImage, consolePageUrl, formatScore, type ScoreMeasure } from '../domain/alerts';
import type { DigestPage, ProjectDigest } from '../domain/digest';
import { headerText, MAIL_ALERTS_LIMIT, percentOnScale, scaleOf, scoreInWords, shortDay } from '../domain/mail-words';
import { plainLine } from '../domain/webhook-chat';
import { DIGEST_GROWTH_WINDOWS, grownCounts, messagesRead } from '../../shared/theme-growth';

const LIGHT = {
  page: '#f4f5f7',
  card: '#ffffff',
  text: '#1f2328',
  muted: '#59636e',
  link: '#0b5cad',
  track: '#e3e6ea',
  band: '#0b5cad',
  worse: '#b42318',
  rule: '#d8dee4',
};
const DARK = {
  page: '#0d1117',
  card: '#161b22',
  text: '#e6edf3',
  muted: '#9198a1',
  link: '#79b8ff',
  track: '#30363d',
  band: '#58a6ff',
  worse: '#ff7b72',
  rule: '#30363d',
};

/** Dark colours by class, for clients that honour `prefers-color-scheme` (Apple Mail, iOS, Outlook.com, Gmail's apps in part). */
const DARK_CSS = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
@media (prefers-color-scheme: dark) {
  .fb-page, .fb-page > table > tbody > tr > td { background-color: ${DARK.page} !important; }
  .fb-card { background-color: ${DARK.card} !important; }
  .fb-text, .fb-text h1, .fb-text h2, .fb-text p { color: ${DARK.text} !important; }
  .fb-text .fb-muted, .fb-muted { color: ${DARK.muted} !important; }
  .fb-link { color: ${DARK.link} !important; }
  .fb-track { background-color: ${DARK.track} !important; }
  .fb-band { background-color: ${DARK.band} !important; }
  .fb-worse { background-color: ${DARK.worse} !important; }
  .fb-rule { border-color: ${DARK.rule} !important; }
}
@media only screen and (max-width: 480px) {
  .fb-card-padding { padding: 16px !important; }
}`;

/** A name from users as the mail shows it: one line, no control, format or direction-override characters, at most 200 characters. */
const named = (text: string) => headerText(text, 200);

const font = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const styles = {
  page: { backgroundColor: LIGHT.page, margin: 0, padding: '24px 8px', fontFamily: font } satisfies CSSProperties,
  card: { backgroundColor: LIGHT.card, maxWidth: '600px', width: '100%', borderRadius: '8px' } satisfies CSSProperties,
  inner: { padding: '24px 28px' } satisfies CSSProperties,
  h1: { color: LIGHT.text, fontSize: '22px', lineHeight: '28px', margin: '0 0 8px', fontWeight: 700 } satisfies CSSProperties,
  h2: { color: LIGHT.text, fontSize: '17px', lineHeight: '24px', margin: '24px 0 8px', fontWeight: 700 } satisfies CSSProperties,
  text: { color: LIGHT.text, fontSize: '15px', lineHeight: '22px', margin: '0 0 8px' } satisfies CSSProperties,
  muted: { color: LIGHT.muted, fontSize: '13px', lineHeight: '18px', margin: '0 0 4px' } satisfies CSSProperties,
  link: { color: LIGHT.link, textDecoration: 'underline' } satisfies CSSProperties,
  rule: { borderColor: LIGHT.rule, borderTopWidth: '1px', margin: '24px 0 16px' } satisfies CSSProperties,
};

export interface MailFrame {
  /** The account's name as its people see it. */
  accountName: string;
  consoleUrl: string;
  /** The one-click unsubscribe URL (with its token). */
  unsubscribeUrl: string;
  /** What the unsubscribe stops, in words ("the weekly digest for Acme docs"). */
  stops: string;
  /** Why the person gets this mail. */
  because: string;
}

function Frame({ title, preview, frame, children }: { title: string; preview: string; frame: MailFrame; children: ReactNode }) {
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
        <title>{title}</title>
        <style>{DARK_CSS}</style>
      </Head>
      <Preview>{preview}</Preview>
      <Body className="fb-page" style={styles.page}>
        <Container className="fb-card fb-text" style={styles.card}>
          <Section className="fb-card-padding" style={styles.inner}>
            {children}
            <Hr className="fb-rule" style={styles.rule} />
            <Text className="fb-muted" style={styles.muted}>
              {frame.because}{' '}
              <Link className="fb-link" style={styles.link} href={frame.unsubscribeUrl}>
                Unsubscribe from {frame.stops}
              </Link>
              {' · '}
              <Link className="fb-link" style={styles.link} href={`${frame.consoleUrl}/notifications`}>
                Your notification settings
              </Link>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** A score's 95% interval as a bar on its scale: cells of the track's and the band's colour, with its text alternative. */
function IntervalBar({ measure, score, worse }: { measure: ScoreMeasure; score: DigestPage['score']; worse?: boolean }) {
  const scale = scaleOf(measure, score.high);
  const low = percentOnScale(score.low, scale);
  const high = Math.max(low + 1, percentOnScale(score.high, scale));
  const cell = (width: number, className: string, color: string) => (
    <td className={className} width={`${width}%`} style={{ width: `${width}%`, backgroundColor: color, height: '8px', fontSize: '1px', lineHeight: '8px' }}>
      {'\u00a0'}
    </td>
  );
  return (
    <table
      role="img"
      aria-label={`95% interval: ${scoreInWords(measure, score)}`}
      width="100%"
      cellPadding={0}
      cellSpacing={0}
      border={0}
      style={{ width: '100%', borderCollapse: 'collapse', tableLayout: 'fixed', margin: '2px 0 12px' }}
    >
      <tbody>
        <tr>
          {low > 0 && cell(low, 'fb-track', LIGHT.track)}
          {cell(Math.min(100, high) - low, worse ? 'fb-worse' : 'fb-band', worse ? LIGHT.worse : LIGHT.band)}
          {high < 100 && cell(100 - high, 'fb-track', LIGHT.track)}
        </tr>
      </tbody>
    </table>
  );
}

function PageLine({ page, measure, consoleUrl, worse }: { page: DigestPage; measure: ScoreMeasure; consoleUrl: string; worse?: boolean }) {
  return (
    <>
      <Text className="fb-text" style={{ ...styles.text, margin: '0' }}>
        <Link className="fb-link" style={styles.link} href={consolePageUrl(consoleUrl, 'contentItem', page.contentItemId)}>
          {named(page.name)}
        </Link>{' '}
        <span className="fb-muted" style={{ color: LIGHT.muted }}>
          {formatScore(measure, page.score.value)} ({formatScore(measure, page.score.low)} to {formatScore(measure, page.score.high)}), {page.count} responses
        </span>
      </Text>
      <IntervalBar measure={measure} score={page.score} worse={worse} />
    </>
  );
}

const SCHEMA_LABELS: Record<string, string> = { 'yes-no': 'was this helpful', rating: 'ratings', reaction: 'reactions', feedback: 'feedback' };

function AlertLines({ alerts, consoleUrl }: { alerts: readonly AlertImage[]; consoleUrl: string }) {
  const shown = alerts.slice(0, MAIL_ALERTS_LIMIT);
  return (
    <>
      {shown.map((alert) => (
        <Text key={alert.id} className="fb-text" style={styles.text}>
          <Link className="fb-link" style={styles.link} href={consolePageUrl(consoleUrl, alert.entity, alert.entityId)}>
            {named(alert.name)}
          </Link>
          {plainLine({ type: 'stats.alert', data: { ...alert, name: '', url: undefined } })}
        </Text>
      ))}
      {alerts.length > shown.length && (
        <Text className="fb-text" style={styles.text}>
          <Link className="fb-link" style={styles.link} href={`${consoleUrl}/alerts`}>
            {alerts.length - shown.length} more in the console
          </Link>
        </Text>
      )}
    </>
  );
}

/**
 * Per message set, the themes and phrases whose share of the week's messages rose against
 * the 4 weeks before (issue 40 §5), each linking to its messages of the week in the console.
 * The console's list takes one tag: a set read through several negative tags links to all
 * the theme's messages of the week.
 */
function RisingThemes({ digest, consoleUrl }: { digest: ProjectDigest; consoleUrl: string }) {
  const sets = digest.risingThemes ?? [];
  if (sets.length === 0) return null;
  const from = `${digest.week.from}T00:00:00.000Z`;
  const to = new Date(Date.parse(`${digest.week.to}T00:00:00.000Z`) + 86_400_000).toISOString();
  const [window, before] = DIGEST_GROWTH_WINDOWS;
  return (
    <>
      <Heading as="h2" className="fb-text" style={styles.h2}>
        Rising themes
      </Heading>
      {sets.map((set) => {
        const tag = set.tags?.length === 1 ? set.tags[0] : undefined;
        const messages = (selection: { theme?: string; phrase?: string; label: string }) =>
          `${consoleUrl}${messagesPath({ setId: set.contentSetId, ...selection, tag, from, to })}`;
        return (
          <Section key={set.contentSetId} style={{ margin: '0 0 8px' }}>
            <Text className="fb-text" style={{ ...styles.text, margin: '0 0 4px' }}>
              <Link className="fb-link" style={styles.link} href={consolePageUrl(consoleUrl, 'contentSet', set.contentSetId)}>
                {named(set.name)}
              </Link>{' '}
              <span className="fb-muted" style={{ color: LIGHT.muted }}>
                · what {messagesRead(set.tags)} {window} mention more than {before}
              </span>
            </Text>
            {set.themes.map((theme) => (
              <Text key={theme.id} className="fb-text" style={{ ...styles.text, margin: '0 0 4px 16px' }}>
                <Link className="fb-link" style={styles.link} href={messages({ theme: theme.id, label: theme.label })}>
                  {named(theme.label)}
                </Link>{' '}
                <span className="fb-muted" style={{ color: LIGHT.muted }}>
                  {grownCounts(theme)}
                </span>
              </Text>
            ))}
            {set.phrases.map((phrase) => (
              <Text key={phrase.text} className="fb-text" style={{ ...styles.text, margin: '0 0 4px 16px' }}>
                <Link className="fb-link" style={styles.link} href={messages({ phrase: phrase.text, label: `“${phrase.text}”` })}>
                  “{named(phrase.text)}”
                </Link>{' '}
                <span className="fb-muted" style={{ color: LIGHT.muted }}>
                  {grownCounts(phrase)}
                </span>
              </Text>
            ))}
          </Section>
        );
      })}
    </>
  );
}

export function DigestMail({ digest, subject, frame }: { digest: ProjectDigest; subject: string; frame: MailFrame }) {
  const { count, change } = digest.responses;
  const trend =
    change.percentage === null
      ? ''
      : ` ${change.difference >= 0 ? 'up' : 'down'} ${Math.abs(change.percentage)}% on the week before (${digest.responses.previous})`;
  return (
    <Frame title={subject} preview={subject} frame={frame}>
      <Text className="fb-muted" style={styles.muted}>
        Weekly digest · {named(frame.accountName)}
      </Text>
      <Heading as="h1" className="fb-text" style={styles.h1}>
        {named(digest.projectName)}: {shortDay(digest.week.from)} to {shortDay(digest.week.to)}
      </Heading>
      <Text className="fb-text" style={styles.text}>
        {count} response{count === 1 ? '' : 's'}
        {trend}.{' '}
        <Link className="fb-link" style={styles.link} href={`${frame.consoleUrl}/projects/${encodeURIComponent(digest.projectId)}`}>
          Open the project
        </Link>
      </Text>
      {digest.schemas.map((part) => (
        <Section key={part.schema}>
          {part.worst.length > 0 && (
            <>
              <Heading as="h2" className="fb-text" style={styles.h2}>
                Needs attention ({SCHEMA_LABELS[part.schema] ?? part.schema})
              </Heading>
              {part.worst.map((page) => (
                <PageLine key={page.contentItemId} page={page} measure={part.measure} consoleUrl={frame.consoleUrl} worse />
              ))}
            </>
          )}
          {part.changes.length > 0 && (
            <>
              <Heading as="h2" className="fb-text" style={styles.h2}>
                Changes outside the noise
              </Heading>
              {part.changes.map((entry) => (
                <Text key={entry.contentItemId} className="fb-text" style={styles.text}>
                  <Link className="fb-link" style={styles.link} href={consolePageUrl(frame.consoleUrl, 'contentItem', entry.contentItemId)}>
                    {named(entry.name)}
                  </Link>
                  : {entry.change.delta < 0 ? 'down' : 'up'} from {formatScore(part.measure, entry.previous.score.value)} to{' '}
                  {formatScore(part.measure, entry.score.value)} ({entry.count} responses)
                </Text>
              ))}
            </>
          )}
          {part.best.length > 0 && (
            <>
              <Heading as="h2" className="fb-text" style={styles.h2}>
                Doing well ({SCHEMA_LABELS[part.schema] ?? part.schema})
              </Heading>
              {part.best.map((page) => (
                <PageLine key={page.contentItemId} page={page} measure={part.measure} consoleUrl={frame.consoleUrl} />
              ))}
            </>
          )}
        </Section>
      ))}
      <RisingThemes digest={digest} consoleUrl={frame.consoleUrl} />
      <Heading as="h2" className="fb-text" style={styles.h2}>
        Alerts this week
      </Heading>
      {digest.alerts.length === 0 ? (
        <Text className="fb-text" style={styles.text}>
          None.
        </Text>
      ) : (
        <AlertLines alerts={digest.alerts} consoleUrl={frame.consoleUrl} />
      )}
    </Frame>
  );
}

/** One alert (`immediately`), or the day's (`daily`). */
export function AlertMail({ alerts, subject, heading, frame }: { alerts: readonly AlertImage[]; subject: string; heading: string; frame: MailFrame }) {
  return (
    <Frame title={subject} preview={subject} frame={frame}>
      <Text className="fb-muted" style={styles.muted}>
        Alert · {named(frame.accountName)}
      </Text>
      <Heading as="h1" className="fb-text" style={styles.h1}>
        {heading}
      </Heading>
      <AlertLines alerts={alerts} consoleUrl={frame.consoleUrl} />
      <Text className="fb-muted" style={styles.muted}>
        An alert means the last 7 days are significantly worse than the 28 days before them.{' '}
        <Link className="fb-link" style={styles.link} href={`${frame.consoleUrl}/alerts`}>
          All alerts
        </Link>
      </Text>
    </Frame>
  );
}
