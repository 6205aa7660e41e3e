import { stemmerFor } from './stemmers';
import { STOP_WORD_LANGUAGES, type StopWordLanguage, stopWordsOf } from './stop-words';

/**
 * A message's words as theme discovery reads them: normalised (Unicode NFKC, lower case,
 * typographic apostrophes), tokenised, its language guessed, stop words marked, each word
 * stemmed by the Snowball stemmer of its language (so "crashes", "crashed" and "crashing"
 * are one key) after British spellings were folded into American ones ("colour" -> "color";
 * `americanSpelling`). Negations ("no", "not", "doesn't", "never") are one key, `not`,
 * and never stop words: "no example" is not "example".
 */

/** A word of a message: what it says (`surface`, lower case), its key (`stem`), its place. */
export interface Token {
  surface: string;
  /** The key words are compared by: the stem of the (corrected, American) spelling; `not` for every negation. */
  stem: string;
  /** The spelling the word vectors look up: the corrected, American form. */
  word: string;
  stop: boolean;
  negation: boolean;
  /** Index of the clause (text between punctuation) it is in: phrases never cross clauses. */
  clause: number;
  start: number;
  end: number;
}

export interface AnalysedText {
  /** The normalised text: NFKC, lower case, one space between words. */
  normalised: string;
  language: StopWordLanguage;
  tokens: Token[];
  /** The distinct stems of its content words (no stop words, no negations), sorted. */
  contentStems: string[];
}

/** Words a lexicon ranks by frequency (1 = most frequent), for spelling variants and corrections. */
export interface Lexicon {
  rank(word: string): number | undefined;
}

const NEGATIONS = new Set([
  'no',
  'not',
  'never',
  'nothing',
  'none',
  'nobody',
  'without',
  'cannot',
  'cant',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'wont',
  'wasnt',
  'arent',
  'havent',
  'hasnt',
  'couldnt',
  'shouldnt',
  'wouldnt',
  'aint',
]);

/** English function words and contractions the `stopword` package's short English list lacks (general English, not any site's). */
const ENGLISH_EXTRA_STOP_WORDS = [
  'im',
  'ive',
  'id',
  'ill',
  'its',
  'thats',
  'theres',
  'youre',
  'were',
  'lets',
  'whats',
  'hows',
  'just',
  'also',
  'even',
  'really',
  'yet',
  'anyway',
  'anymore',
  'already',
  'again',
  'us',
  'u',
  'pls',
  'plz',
  'please',
  'thanks',
  'thank',
  'hi',
  'hello',
  'hey',
  'ok',
  'okay',
  'something',
  'anything',
  'everything',
  'thing',
  'things',
  'am',
  'does',
  'doing',
  'done',
  'going',
  'gets',
  'getting',
  'cause',
  'bit',
  'lot',
  'lots',
  'ever',
  'always',
  'every',
  'will',
  'shall',
  'may',
  'here',
  'there',
  'why',
  'when',
  'what',
  'which',
  'whom',
  'whose',
  'yes',
  'yeah',
  'oh',
  'so',
];

/** Word characters: letters, marks and digits, with inner apostrophes or dots ("doesn't", "v4.2"). */
const WORD = /[\p{L}\p{M}\p{N}]+(?:['.][\p{L}\p{M}\p{N}]+)*/gu;
/** Punctuation that ends a clause: phrases do not run across it. */
const CLAUSE_BREAK = /[.,;:!?()[\]{}"…\n\r\t|/\\–—-]+/u;

/** Unicode NFKC, lower case, typographic apostrophes as `'`, whitespace collapsed. */
export function normaliseText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’ʼ`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

interface RawToken {
  surface: string;
  clause: number;
  start: number;
  end: number;
}

function rawTokens(normalised: string): RawToken[] {
  const tokens: RawToken[] = [];
  let clause = 0;
  let last = 0;
  for (const match of normalised.matchAll(WORD)) {
    const start = match.index ?? 0;
    if (CLAUSE_BREAK.test(normalised.slice(last, start))) clause += 1;
    tokens.push({ surface: match[0], clause, start, end: start + match[0].length });
    last = start + match[0].length;
  }
  return tokens;
}

/** Apostrophes dropped: "doesn't" and "doesnt" are one word, as visitors write both. */
function bare(surface: string): string {
  return surface.replace(/'/g, '');
}

/**
 * The language of a text, guessed by its stop words: the language whose list holds most of
 * its words; English (the `primary` language) on a tie or when none does. Short feedback
 * defeats character n-gram detectors (tried: tinyld called "code sample is broken" Afrikaans),
 * while what matters here is exactly which stop words to drop.
 */
export function guessLanguage(words: readonly string[], primary: StopWordLanguage = 'en'): StopWordLanguage {
  let best = primary;
  let bestHits = words.filter((word) => stopWordsOf(primary).has(word)).length;
  for (const language of STOP_WORD_LANGUAGES) {
    if (language === primary) continue;
    const stopWords = stopWordsOf(language);
    const hits = words.filter((word) => stopWords.has(word)).length;
    if (hits > bestHits) {
      best = language;
      bestHits = hits;
    }
  }
  return best;
}

const englishExtra = new Set(ENGLISH_EXTRA_STOP_WORDS);

function isStopWord(word: string, language: StopWordLanguage): boolean {
  if (stopWordsOf(language).has(word) || stopWordsOf('en').has(word)) return true;
  return englishExtra.has(word);
}

/**
 * British spellings as American ones ("colour" -> "color", "cancelled" -> "canceled",
 * "organise" -> "organize", "behaviour" -> "behavior"): the 1,738 pairs of the list the
 * npm package `american-british-english-translator` ships (words that differ only in spelling; it
 * leaves out those whose meaning differs, "cheque" and "check"). A list and not suffix rules:
 * rules fold words into other words ("four" -> "for", "filled" -> "filed", "hour" -> "hor"),
 * and a list needs no lexicon, so a phrase's key is the same where the word vectors are loaded
 * (the themes job) and where they are not (`responses/list?phrase=`). Beyond the list, words
 * ending in -isation fold by that ending ("customisation"): American writes every one -ization.
 */
const BRITISH_TO_AMERICAN = new Map(Object.entries(require('american-british-english-translator/data/british_spellings.json') as Record<string, string>));

export function americanSpelling(word: string): string {
  return BRITISH_TO_AMERICAN.get(word) ?? word.replace(/(.)isation(s?)$/, '$1ization$2');
}

/** Bumped when a word's key can change (the spelling folds, the stemmer): the themes job keys its stored messages again. */
export const WORD_KEYS_VERSION = 2;

export interface AnalyseOptions {
  /** Corrections of misspelt words, from `spellingCorrections` over the corpus. */
  corrections?: ReadonlyMap<string, string>;
  primaryLanguage?: StopWordLanguage;
}

/** A text's words, language, keys and content stems (see the module's comment). */
export function analyseText(text: string, options: AnalyseOptions = {}): AnalysedText {
  const normalised = normaliseText(text);
  const raw = rawTokens(normalised);
  const language = guessLanguage(
    raw.map((token) => bare(token.surface)),
    options.primaryLanguage,
  );
  const stem = stemmerFor(language);
  const tokens = raw.map(({ surface, clause, start, end }): Token => {
    const plain = bare(surface);
    if (NEGATIONS.has(plain)) {
      return { surface, stem: 'not', word: 'not', stop: false, negation: true, clause, start, end };
    }
    const corrected = options.corrections?.get(plain) ?? plain;
    const word = americanSpelling(corrected);
    const stop = isStopWord(plain, language) || /^\d{1,2}$/.test(plain);
    return { surface, stem: stem(word), word, stop, negation: false, clause, start, end };
  });
  const contentStems = [...new Set(tokens.filter((token) => !token.stop && !token.negation).map((token) => token.stem))].sort();
  return { normalised, language, tokens, contentStems };
}

/** The letters-only words of a text, normalised, before any correction: what `spellingCorrections` counts. */
export function plainWords(text: string): string[] {
  return rawTokens(normaliseText(text)).map((token) => bare(token.surface));
}

/** Optimal string alignment distance (Damerau-Levenshtein without repeated edits), at most `limit + 1`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: columns }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    let rowMinimum = Number.POSITIVE_INFINITY;
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, table[i - 2][j - 2] + 1);
      table[i][j] = value;
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum > limit) return limit + 1;
  }
  return table[a.length][b.length];
}

function deletions(word: string): string[] {
  const out = [word];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/**
 * Misspellings mapped to the word the visitors meant, learnt from the corpus itself: a word of
 * at least 5 letters that the lexicon does not know is corrected to a word of the corpus that
 * it knows, one edit away (insertion, deletion, substitution or swap of neighbours: "sampel",
 * "exmaple", "recieved", "notifcations"), the most frequent in the corpus if several are (then
 * the lexicon's more frequent). Candidates are found through an index of one-letter deletions
 * (the SymSpell idea), so the cost grows with the corpus's distinct words, not their square.
 * Without a lexicon nothing is corrected: a word cannot be told misspelt.
 */
export function spellingCorrections(texts: Iterable<string>, lexicon: Lexicon | undefined): Map<string, string> {
  const corrections = new Map<string, string>();
  if (!lexicon) return corrections;
  const counts = new Map<string, number>();
  for (const text of texts) for (const word of plainWords(text)) if (/^\p{L}+$/u.test(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const byDeletion = new Map<string, string[]>();
  for (const word of [...counts.keys()].sort()) {
    if (word.length < 4 || lexicon.rank(word) === undefined) continue;
    for (const deleted of deletions(word)) {
      const list = byDeletion.get(deleted);
      if (list) list.push(word);
      else byDeletion.set(deleted, [word]);
    }
  }
  for (const word of [...counts.keys()].sort()) {
    if (word.length < 5 || lexicon.rank(word) !== undefined) continue;
    const candidates = new Set<string>();
    for (const deleted of deletions(word)) for (const known of byDeletion.get(deleted) ?? []) candidates.add(known);
    let best: string | undefined;
    for (const candidate of [...candidates].sort()) {
      if (editDistance(word, candidate, 1) > 1) continue;
      const better =
        best === undefined ||
        (counts.get(candidate) ?? 0) > (counts.get(best) ?? 0) ||
        ((counts.get(candidate) ?? 0) === (counts.get(best) ?? 0) && (lexicon.rank(candidate) ?? Infinity) < (lexicon.rank(best) ?? Infinity));
      if (better) best = candidate;
    }
    if (best) corrections.set(word, best);
  }
  return corrections;
}
