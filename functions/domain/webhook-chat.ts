/**
 * Slack and Discord notifications: one readable line per event, with the set's name, the
 * item's title or key and the value as a person reads it (Yes / No, the reaction's emoji
 * and name, ★ 4 of 5, the message text with its tag), escaped for the platform and cut to
 * its limit. Pure.
 *
 * - Slack incoming webhooks take `{ text, blocks? }`; a section block's text holds at most
 *   3,000 characters (mrkdwn: `&`, `<`, `>` must be escaped, which also keeps user text
 *   from forming `<!channel>` mentions or links).
 * - Discord webhooks take `{ content }` of at most 2,000 characters; user text has its
 *   markdown escaped and `allowed_mentions: { parse: [] }` keeps "@everyone" in a message
 *   from pinging anyone.
 */
import { type SignificanceSaid, significanceWords } from '../../shared/alert-significance';
import { ALERT_GROWTH_WINDOWS, DIGEST_GROWTH_WINDOWS, type GrownPhrase, type GrownTheme, growthSaid, type ThemeGrowth } from '../../shared/theme-growth';
import { alertWords, formatScore, type ScoreMeasure, type WindowScore } from './alerts';
import type { DigestPage, ProjectDigest } from './digest';
import { describeValue } from './schemas';
import type { DeliveredEventType } from './webhooks';

export const SLACK_SECTION_LIMIT = 3000;
export const DISCORD_CONTENT_LIMIT = 2000;
/** Item titles and keys may be 1,024 characters; a line shows at most this much of them. */
const LABEL_LIMIT = 200;

/** The parts of a standard event body the line is made of (webhooks/payloads.ts builds them). */
export interface ChatEvent {
  type: DeliveredEventType;
  data: {
    response?: { id: string; value?: unknown };
    /** response.updated: the value before; stats.alert: the 28 days before the alert's 7. */
    previous?: { value?: unknown } & Partial<WindowScore>;
    contentItem?: { id: string; key?: string; metadata?: { title?: string; url?: string } };
    contentSet?: { id: string; name?: string; schema?: string };
    project?: { id: string; name?: string };
    /** response.quarantined: why it was held. */
    quarantine?: { reason: string };
    /** stats.alert: the entity's name, the score's measure, the two windows, why it fired (absent on alerts from before), its console page. */
    name?: string;
    measure?: ScoreMeasure;
    current?: WindowScore;
    significance?: SignificanceSaid;
    url?: string;
    /** stats.alert: what grew among its messages (message sets). */
    themes?: GrownTheme[];
    phrases?: GrownPhrase[];
    themeTags?: string[];
  } & Partial<Pick<ProjectDigest, 'projectName' | 'week' | 'responses' | 'schemas' | 'alerts' | 'risingThemes'>>;
}

/** A piece of the line: our own words, or text that came from users (escaped, and shortened first when the line is too long). */
interface Segment {
  text: string;
  user?: boolean;
  bold?: boolean;
}

const words = (text: string): Segment => ({ text });
const user = (text: string, bold = false): Segment => ({ text: text.replace(/\s+/g, ' ').trim(), user: true, bold });

function cut(text: string, limit: number): string {
  const points = Array.from(text);
  return points.length <= limit ? text : `${points.slice(0, limit - 1).join('')}…`;
}

/** The segments of an event's line. */
export function chatSegments(event: ChatEvent, config?: unknown): Segment[] {
  const { data } = event;
  const set = user(data.contentSet?.name ?? data.contentSet?.id ?? 'a content set', true);
  const item = user(cut(data.contentItem?.metadata?.title || data.contentItem?.key || data.contentItem?.id || 'an item', LABEL_LIMIT));
  const schema = data.contentSet?.schema;
  const value = () => user(describeValue(schema, config, data.response?.value));
  switch (event.type) {
    case 'response.created':
      return [words('New response on '), set, words(' › '), item, words(': '), value()];
    case 'response.updated':
      return [
        words('Response changed on '),
        set,
        words(' › '),
        item,
        words(': '),
        value(),
        words(' (was '),
        user(describeValue(schema, config, data.previous?.value)),
        words(')'),
      ];
    case 'response.revoked':
      return [words('Response withdrawn on '), set, words(' › '), item, words(': '), value()];
    case 'response.quarantined':
      return [words(`Response held for review (${data.quarantine?.reason ?? 'held'}) on `), set, words(' › '), item, words(': '), value()];
    case 'response.deleted':
      return [words(`A response was erased (response ${data.response?.id}, content set ${data.contentSet?.id ?? '?'}).`)];
    case 'content.created':
      return [
        words('New content item on '),
        set,
        words(': '),
        item,
        ...(data.contentItem?.metadata?.url ? [words(' ('), user(cut(data.contentItem.metadata.url, LABEL_LIMIT)), words(')')] : []),
      ];
    case 'stats.alert':
      return [
        user(cut(data.name ?? 'A page', LABEL_LIMIT), true),
        words(
          `: ${data.measure && data.current && data.previous?.score ? alertWords(data.measure, data.current, data.previous as WindowScore) : 'its score fell'}`,
        ),
        ...(data.significance ? [words(`. ${significanceWords(data.significance)}`)] : []),
        ...(data.url ? [words(' '), user(data.url)] : []),
        ...grownSegments({ tags: data.themeTags, themes: data.themes, phrases: data.phrases }, ALERT_GROWTH_WINDOWS, '\n'),
      ];
    case 'digest.weekly':
      return digestSegments(data);
    case 'webhook.test':
      return [words('Test event from the feedback service: this endpoint receives its notifications.')];
  }
}

/** The digest as lines (a line break is our own word): the counts, the worst and best pages, the changes, the alerts. */
function digestSegments(data: ChatEvent['data']): Segment[] {
  const responses = data.responses;
  const trend =
    responses?.change.percentage == null ? '' : ` (${responses.change.difference >= 0 ? '+' : ''}${responses.change.percentage}% on the week before)`;
  const segments: Segment[] = [
    words(`Week ${data.week?.from} to ${data.week?.to} in `),
    user(data.projectName ?? 'the project', true),
    words(`: ${responses?.count ?? 0} responses${trend}.`),
  ];
  const pages = (measure: ScoreMeasure, entries: DigestPage[]) =>
    entries.flatMap((entry, index) => [
      ...(index > 0 ? [words(', ')] : []),
      user(cut(entry.name, LABEL_LIMIT)),
      words(` ${formatScore(measure, entry.score.value)} (${entry.count})`),
    ]);
  for (const part of data.schemas ?? []) {
    if (part.worst.length > 0) segments.push(words(`\nNeeds attention (${part.schema}): `), ...pages(part.measure, part.worst), words('.'));
    if (part.best.length > 0) segments.push(words(`\nDoing well (${part.schema}): `), ...pages(part.measure, part.best), words('.'));
    for (const entry of part.changes) {
      segments.push(
        words('\n'),
        user(cut(entry.name, LABEL_LIMIT)),
        words(
          `: ${entry.change.delta < 0 ? 'down' : 'up'} from ${formatScore(part.measure, entry.previous.score.value)} to ${formatScore(part.measure, entry.score.value)}, outside the noise.`,
        ),
      );
    }
  }
  for (const set of data.risingThemes ?? []) segments.push(words('\n'), user(set.name, true), words(': '), ...grownSegments(set, DIGEST_GROWTH_WINDOWS, ''));
  const alerts = data.alerts?.length ?? 0;
  segments.push(words(alerts === 0 ? '\nNo alerts this week.' : `\n${alerts} alert${alerts === 1 ? '' : 's'} this week.`));
  return segments;
}

/** What grew (shared/theme-growth.ts): our words around the label or phrase, which are visitors'. */
function grownSegments(growth: Partial<ThemeGrowth>, windows: readonly [string, string], separator: string): Segment[] {
  const said = growthSaid(growth, windows[0], windows[1]);
  return said ? [words(`${separator}${said.lead}`), user(cut(said.name, LABEL_LIMIT)), words(`${said.tail}.`)] : [];
}

interface Platform {
  limit: number;
  escape(text: string): string;
  bold(text: string): string;
}

const SLACK: Platform = {
  limit: SLACK_SECTION_LIMIT,
  escape: (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  bold: (text) => `*${text}*`,
};

const DISCORD: Platform = {
  limit: DISCORD_CONTENT_LIMIT,
  escape: (text) => text.replace(/[\\*_~`|>[\]]/g, (character) => `\\${character}`),
  bold: (text) => `**${text}**`,
};

/** The longest escaped prefix of `text` (whole code points, whole escapes) that fits `budget` with its ellipsis. */
function fitEscaped(text: string, budget: number, platform: Platform): string {
  const whole = platform.escape(text);
  if (whole.length <= budget) return whole;
  let fitted = '';
  for (const point of Array.from(text)) {
    const next = fitted + platform.escape(point);
    if (next.length + 1 > budget) break;
    fitted = next;
  }
  return budget >= 1 ? `${fitted}…` : '';
}

/**
 * The line for a platform within its limit: our words are kept, user segments share what
 * is left (shortest first get all they need, the longest is cut), each escaped.
 */
export function renderLine(segments: Segment[], platform: Platform): string {
  const decorate = (segment: Segment, text: string) => (segment.bold && text !== '' ? platform.bold(text) : text);
  const fixed = segments.filter((segment) => !segment.user).reduce((length, segment) => length + platform.escape(segment.text).length, 0);
  const boldCost = segments.filter((segment) => segment.user && segment.bold).length * platform.bold('').length;
  let budget = Math.max(0, platform.limit - fixed - boldCost);
  const users = segments
    .map((segment, index) => ({ segment, index, length: platform.escape(segment.text).length }))
    .filter(({ segment }) => segment.user)
    .sort((a, b) => a.length - b.length);
  const rendered = new Map<number, string>();
  users.forEach(({ segment, index }, position) => {
    const share = Math.floor(budget / (users.length - position));
    const text = fitEscaped(segment.text, share, platform);
    rendered.set(index, text);
    budget -= text.length;
  });
  return segments.map((segment, index) => decorate(segment, rendered.get(index) ?? platform.escape(segment.text))).join('');
}

export function slackText(event: ChatEvent, config?: unknown): string {
  return renderLine(chatSegments(event, config), SLACK);
}

export function discordText(event: ChatEvent, config?: unknown): string {
  return renderLine(chatSegments(event, config), DISCORD);
}

/** The JSON body posted to a Slack incoming webhook. */
export function slackBody(event: ChatEvent, config?: unknown): string {
  const text = slackText(event, config);
  return JSON.stringify({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
}

/** The JSON body posted to a Discord webhook. */
export function discordBody(event: ChatEvent, config?: unknown): string {
  return JSON.stringify({ content: discordText(event, config), allowed_mentions: { parse: [] } });
}

/** The line in plain words, no platform's markup: what an alert mail says (mail/templates.tsx), as Slack would. */
export function plainLine(event: ChatEvent, config?: unknown): string {
  return chatSegments(event, config)
    .map((segment) => segment.text)
    .join('');
}
