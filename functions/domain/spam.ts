/**
 * The spam check of messages (docs/api.md "Quarantine"): links and their density, repeated
 * text, the same message across many items, and known spam shapes. Pure and local: nothing
 * leaves the service. Links are found by linkify-it (markdown-it's maintained link finder,
 * which knows schemes, bare domains of every top-level domain and e-mail addresses) rather
 * than a hand-written pattern. It runs in the webhooks consumer (stream/screening.ts), not in
 * responses/create, whose bundle stays without it.
 */
import { LinkifyIt } from 'linkify-it';
import type { QuarantineReason } from './quarantine';
import { isSchema, readableValue } from './schemas';

// Bare domains (`example.com`, `www.shop.biz`) are links here: spam rarely bothers with a scheme.
const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true });

/** More links than this in one message is spam. */
export const MAX_LINKS = 2;
/** A message of which links make up more than this share (of its characters, spaces excluded) is spam... */
export const MAX_LINK_SHARE = 0.5;
/** ...when it is longer than a bare link someone might share as feedback. */
export const LINK_SHARE_MIN_LENGTH = 40;
/** The same character this many times in a row ("!!!!..."). */
export const MAX_CHARACTER_RUN = 20;
/** A word of three letters or more this many times, making up at least half the words. */
export const MAX_WORD_REPEATS = 6;
/** The same message on this many other items of the set in the window is a campaign, not feedback. */
export const SAME_MESSAGE_ITEMS = 3;
/** Shorter messages ("great", "thanks!") repeat innocently across items. */
export const SAME_MESSAGE_MIN_LENGTH = 20;

/**
 * Known shapes of comment spam: markup links (HTML, BBCode, Markdown) nobody types into a
 * feedback box, and the vocabulary of the usual campaigns.
 */
const KNOWN_SHAPES: readonly RegExp[] = [
  /<a\s[^>]*href\s*=/i,
  /\[url\s*=?[^\]]*\]/i,
  /\[[^\]]+\]\(\s*https?:\/\//i,
  /\b(?:viagra|cialis|levitra|casino|porn|escort|payday loans?|forex signals?|crypto ?(?:currency )?investment|binary options)\b/i,
  /\b(?:seo services?|backlinks?|buy (?:cheap )?(?:followers|likes|reviews)|increase your (?:traffic|ranking))\b/i,
  /\b(?:whats ?app|telegram)\b[^\n]{0,20}[+@]\d{6,}/i,
];

/** A message as compared across items: case, punctuation and spacing do not make it another. */
export function normalizedMessage(message: string): string {
  return message
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function linksReason(message: string): QuarantineReason | undefined {
  const links = linkify.match(message) ?? [];
  if (links.length > MAX_LINKS) return 'spam-links';
  const characters = message.replace(/\s+/g, '').length;
  const linked = links.reduce((sum, link) => sum + link.raw.replace(/\s+/g, '').length, 0);
  if (links.length > 0 && message.trim().length >= LINK_SHARE_MIN_LENGTH && linked / characters > MAX_LINK_SHARE) return 'spam-link-density';
  return undefined;
}

function repeatedTextReason(message: string): QuarantineReason | undefined {
  if (new RegExp(`(.)\\1{${MAX_CHARACTER_RUN - 1},}`, 'su').test(message)) return 'spam-repeated-text';
  const words = normalizedMessage(message)
    .split(' ')
    .filter((word) => word.length >= 3);
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  const most = Math.max(0, ...counts.values());
  return most >= MAX_WORD_REPEATS && most * 2 >= words.length ? 'spam-repeated-text' : undefined;
}

/** A message of the set seen around the one checked. */
export interface RecentMessage {
  contentItemId: string;
  message: string;
}

/**
 * Why a message is spam, or undefined. `recent` are the set's other messages of the
 * screening window (store order), for the same message across many items.
 */
export function spamReason(message: string, contentItemId: string, recent: readonly RecentMessage[]): QuarantineReason | undefined {
  if (KNOWN_SHAPES.some((shape) => shape.test(message))) return 'spam-known-shape';
  const links = linksReason(message);
  if (links) return links;
  const repeated = repeatedTextReason(message);
  if (repeated) return repeated;
  const normalized = normalizedMessage(message);
  if (normalized.length < SAME_MESSAGE_MIN_LENGTH) return undefined;
  const items = new Set(
    recent.filter((other) => other.contentItemId !== contentItemId && normalizedMessage(other.message) === normalized).map((other) => other.contentItemId),
  );
  return items.size >= SAME_MESSAGE_ITEMS ? 'spam-same-message-across-items' : undefined;
}

/** The message text of a response's value (its export's message cell), or undefined for schemas without one. */
export function messageOf(schema: string, value: unknown): string | undefined {
  if (!isSchema(schema)) return undefined;
  const { message } = readableValue(schema, value);
  return message === '' ? undefined : message;
}
