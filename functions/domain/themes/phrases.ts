import { type ScoreChange, type ScoreInterval, scoreInterval } from '../statistics';
import { type ShareOfPeriod, shareWithChange } from './shares';
import { nearDuplicateGroups } from './near-duplicates';
import type { AnalysedText } from './text';

/**
 * Phrases: runs of one to three content words of one clause ("code sample broken" in "the code
 * sample is broken!"), keyed by their stems so case, inflection and spelling variants meet
 * ("Charged twice", "charging twice", "chargd twice"), shown in the words visitors used most
 * ("code sample is broken": the text between the first and last word, stop words kept). At
 * most two stop words may sit inside a phrase; a negation may open one ("no refund") but not
 * end it or stand alone.
 */
export interface Phrase {
  /** Stems joined by one space: what phrases are compared by. */
  key: string;
  /** The words as this message wrote them (normalised), from the phrase's first word to its last. */
  surface: string;
  /** How many content words: 1..3. */
  words: number;
}

export const MAX_PHRASE_WORDS = 3;
const MAX_INNER_STOP_WORDS = 2;

/** A message's distinct phrases, first occurrence of each key. */
export function messagePhrases(text: AnalysedText): Phrase[] {
  const seen = new Map<string, Phrase>();
  const content = text.tokens.map((token, index) => ({ token, index })).filter(({ token }) => !token.stop);
  for (let i = 0; i < content.length; i++) {
    for (let length = 1; length <= MAX_PHRASE_WORDS && i + length <= content.length; length++) {
      const run = content.slice(i, i + length);
      const first = run[0];
      const last = run[run.length - 1];
      if (first.token.clause !== last.token.clause) break;
      if (last.index - first.index - (length - 1) > MAX_INNER_STOP_WORDS) break;
      if (last.token.negation) continue;
      if (run.slice(1).some(({ token }) => token.negation)) break;
      const key = run.map(({ token }) => token.stem).join(' ');
      if (!seen.has(key)) seen.set(key, { key, surface: text.normalised.slice(first.token.start, last.token.end), words: length });
    }
  }
  return [...seen.values()];
}

/** Whether a key is a contiguous part of another key ("code broken" in "code sampl broken" is not; "sampl broken" is). */
export function isSubPhrase(inner: string, outer: string): boolean {
  return inner !== outer && ` ${outer} `.includes(` ${inner} `);
}

/** The phrases of many messages: per key, the messages that hold it and its surfaces' counts. */
export class PhraseIndex {
  readonly messages = new Map<string, Set<string>>();
  private readonly surfaces = new Map<string, Map<string, number>>();
  private readonly wordCounts = new Map<string, number>();

  add(messageId: string, phrases: readonly Phrase[]): void {
    for (const phrase of phrases) {
      let messages = this.messages.get(phrase.key);
      if (!messages) {
        messages = new Set();
        this.messages.set(phrase.key, messages);
        this.surfaces.set(phrase.key, new Map());
        this.wordCounts.set(phrase.key, phrase.words);
      }
      messages.add(messageId);
      const surfaces = this.surfaces.get(phrase.key) as Map<string, number>;
      surfaces.set(phrase.surface, (surfaces.get(phrase.surface) ?? 0) + 1);
    }
  }

  words(key: string): number {
    return this.wordCounts.get(key) ?? key.split(' ').length;
  }

  /** The readable form: the surface written most often; on a tie the shorter, then the first in code-point order. */
  surface(key: string): string {
    const surfaces = this.surfaces.get(key);
    if (!surfaces) return key;
    let best = '';
    let bestCount = -1;
    for (const [surface, count] of surfaces) {
      if (count > bestCount || (count === bestCount && (surface.length < best.length || (surface.length === best.length && surface < best)))) {
        best = surface;
        bestCount = count;
      }
    }
    return best;
  }
}

/**
 * Dunning's log-likelihood ratio G² (Dunning 1993, "Accurate methods for the statistics of
 * surprise and coincidence") of a 2x2 table: `k1` of `n1` messages in the period hold the
 * phrase, `k2` of `n2` in the reference. Large when the two rates differ more than chance
 * explains; unlike chi-squared it stays honest for rare phrases.
 */
export function logLikelihoodRatio(k1: number, n1: number, k2: number, n2: number): number {
  const total = n1 + n2;
  const k = k1 + k2;
  if (total === 0 || k === 0 || k === total) return 0;
  const term = (observed: number, expected: number) => (observed > 0 ? observed * Math.log(observed / expected) : 0);
  return 2 * (term(k1, (n1 * k) / total) + term(n1 - k1, (n1 * (total - k)) / total) + term(k2, (n2 * k) / total) + term(n2 - k2, (n2 * (total - k)) / total));
}

export interface PhraseMessage {
  id: string;
  text: AnalysedText;
  /** Raw text for near-duplicate detection; the analysed normalised text when absent. */
  raw?: string;
}

export interface StandoutPhrase {
  key: string;
  text: string;
  /** Messages of the period that hold it. */
  count: number;
  messageIds: string[];
  /** Dunning's G² against the history: the order of the list. */
  score: number;
  share: ScoreInterval;
  /** With a previous period: its count and share there, and the change of the share (Newcombe), `new` when it had none. */
  previous?: ShareOfPeriod;
  change?: ScoreChange | null;
  new?: boolean;
}

export interface StandoutOptions {
  /** At most this many phrases (default 20). */
  limit?: number;
  /** A phrase must be in at least this many messages of the period that are not near-duplicates of each other (default 3). */
  minMessages?: number;
  /** The period before, for `previous` and `change`. */
  previous?: readonly PhraseMessage[];
}

/**
 * The phrases that stand out in `period` against `history` (the scope's longer history,
 * without the period): those whose share of the period's messages is above their share of
 * the history's, in order of Dunning's G² (ties: more messages, then the key), at least
 * `minMessages` near-duplicate groups each. A phrase held by most messages of a longer one
 * that also stands out gives way to it ("charged" to "charged twice" when two thirds of its
 * messages say "charged twice"). Deterministic.
 */
export function standoutPhrases(period: readonly PhraseMessage[], history: readonly PhraseMessage[], options: StandoutOptions = {}): StandoutPhrase[] {
  const limit = options.limit ?? 20;
  const minMessages = options.minMessages ?? 3;
  if (period.length === 0) return [];
  const periodIndex = indexOf(period);
  const historyIndex = indexOf(history);
  const groups = nearDuplicateGroups(period.map((message) => message.raw ?? message.text.normalised));
  const groupOf = new Map(period.map((message, index) => [message.id, groups[index]]));
  const candidates: StandoutPhrase[] = [];
  for (const [key, messages] of periodIndex.messages) {
    if (new Set([...messages].map((id) => groupOf.get(id))).size < minMessages) continue;
    const k1 = messages.size;
    const k2 = historyIndex.messages.get(key)?.size ?? 0;
    if (history.length > 0 && k1 / period.length <= k2 / history.length) continue;
    const share = scoreInterval({ kind: 'proportion', successes: k1, n: period.length }) as ScoreInterval;
    candidates.push({
      key,
      text: periodIndex.surface(key),
      count: k1,
      messageIds: [...messages].sort(),
      score: logLikelihoodRatio(k1, period.length, k2, history.length),
      share,
    });
  }
  candidates.sort((a, b) => b.score - a.score || b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const kept = candidates.filter(
    (candidate) => !candidates.some((longer) => isSubPhrase(candidate.key, longer.key) && longer.count * 3 >= candidate.count * 2),
  );
  const top = kept.slice(0, limit);
  if (!options.previous) return top;
  const previousIndex = indexOf(options.previous);
  const previousTotal = options.previous.length;
  return top.map((phrase) => {
    const { previous, change, new: isNew } = shareWithChange(phrase.count, period.length, previousIndex.messages.get(phrase.key)?.size ?? 0, previousTotal);
    return { ...phrase, previous, change, new: isNew };
  });
}

function indexOf(messages: readonly PhraseMessage[]): PhraseIndex {
  const index = new PhraseIndex();
  for (const message of messages) index.add(message.id, messagePhrases(message.text));
  return index;
}
