/**
 * What grew among a scope's messages (issue 40 §5; docs/api.md "Alerts", "Weekly digest"):
 * the themes and phrases an alert and the weekly digest carry, and the one wording the
 * console, the Slack and Discord lines and the mails share.
 */

/** A count of messages out of those of a window: "12 of 31". */
export interface CountOf {
  count: number;
  of: number;
}

/** A theme whose share of the window's messages rose significantly above the days before. */
export interface GrownTheme extends CountOf {
  id: string;
  label: string;
  previous: CountOf;
}

/** A phrase that stands out in the window and rose significantly. */
export interface GrownPhrase extends CountOf {
  text: string;
  previous: CountOf;
}

/** What grew: the messages read (`tags`: a tagged-message set's negative tags; absent: all), its themes and phrases, most messages first. */
export interface ThemeGrowth {
  tags?: string[];
  themes: GrownTheme[];
  phrases: GrownPhrase[];
}

/** The words of what grew: ours around the theme's label or the phrase, which are visitors' words (escaped by whoever shows them). */
export interface GrowthSaid {
  lead: string;
  name: string;
  tail: string;
}

/**
 * `'no' messages in the last 7 days mention "code sample broken": 12 of 31, up from 2 of 40
 * in the 28 days before`: the first grown theme, else the first phrase; undefined when none grew.
 */
export function growthSaid(growth: Partial<ThemeGrowth>, window: string, before: string): GrowthSaid | undefined {
  const [theme] = growth.themes ?? [];
  const [phrase] = growth.phrases ?? [];
  const grown = theme ? { name: theme.label, ...theme } : phrase ? { name: phrase.text, ...phrase } : undefined;
  if (!grown) return undefined;
  const which = messagesRead(growth.tags);
  return { lead: `${which.charAt(0).toUpperCase()}${which.slice(1)} ${window} mention "`, name: grown.name, tail: `": ${grownCounts(grown)} ${before}` };
}

/** The messages read, in words: "'no' and 'meh' messages", or "messages" (all of them). */
export function messagesRead(tags: readonly string[] | undefined): string {
  return tags && tags.length > 0 ? `${tags.map((tag) => `'${tag}'`).join(' and ')} messages` : 'messages';
}

/** "12 of 31, up from 2 of 40". */
export function grownCounts(grown: CountOf & { previous: CountOf }): string {
  return `${grown.count} of ${grown.of}, up from ${grown.previous.count} of ${grown.previous.of}`;
}

/** growthSaid as one string. */
export function growthWords(growth: Partial<ThemeGrowth>, window: string, before: string): string | undefined {
  const said = growthSaid(growth, window, before);
  return said && `${said.lead}${said.name}${said.tail}`;
}

/** An alert's windows in words: the last 7 complete days against the 28 before them. */
export const ALERT_GROWTH_WINDOWS = ['in the last 7 days', 'in the 28 days before'] as const;
/** The digest's: the week against the 4 weeks before it. */
export const DIGEST_GROWTH_WINDOWS = ['this week', 'in the 4 weeks before'] as const;
