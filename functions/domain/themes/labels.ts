import type { PhraseIndex } from './phrases';

/**
 * A theme's label and terms, drawn from its messages' phrases. A phrase scores by how many of
 * the theme's messages hold it (coverage, counted once per near-duplicate group) times how much
 * more often than in the whole corpus (log2 of 1 + lift), longer phrases preferred (+60% a
 * word: "dark mode" over "dark" when most of its messages say "dark mode"). The label is the
 * best phrase's readable form, 1-4 words, or, when the best is one word, the best phrase of
 * several words that a third of the messages and at least half as many as that word hold
 * ("return label" over "label"); the terms are the label and the next best phrases whose keys
 * neither lie inside a chosen one nor hold one, five in all. Ties fall to the key's code-point
 * order: deterministic.
 */
export interface LabelInput {
  /** The theme's members' near-duplicate groups, each with its phrase keys (a group's union). */
  groups: ReadonlyArray<ReadonlySet<string>>;
  /** Per phrase key, in how many groups of the corpus it occurs, and the corpus's group count. */
  corpusGroups: ReadonlyMap<string, number>;
  corpusSize: number;
  index: PhraseIndex;
}

export interface ScoredPhrase {
  key: string;
  text: string;
  score: number;
  coverage: number;
}

export const LABEL_MAX_WORDS = 4;
const TERMS = 5;
const LONGER_LABEL_COVERAGE = 0.33;

export function scoredPhrases({ groups, corpusGroups, corpusSize, index }: LabelInput): ScoredPhrase[] {
  const counts = new Map<string, number>();
  for (const keys of groups) for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  const scored: ScoredPhrase[] = [];
  for (const [key, count] of counts) {
    if (count < 2 && groups.length > 1) continue;
    const coverage = count / groups.length;
    const lift = coverage / ((corpusGroups.get(key) ?? count) / corpusSize);
    const text = index.surface(key);
    if (text.split(' ').length > LABEL_MAX_WORDS) continue;
    scored.push({ key, text, coverage, score: coverage * Math.log2(1 + lift) * (1 + 0.6 * (index.words(key) - 1)) });
  }
  return scored.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export function labelAndTerms(input: LabelInput): { label: string; terms: string[]; termKeys: string[] } {
  const scored = scoredPhrases(input);
  const best = scored[0];
  if (!best) return { label: '', terms: [], termKeys: [] };
  // A phrase of several words that a third of the messages hold, and at least half as many as the best single word, says more.
  const longer = best.key.includes(' ')
    ? undefined
    : scored.find((phrase) => phrase.key.includes(' ') && phrase.coverage >= LONGER_LABEL_COVERAGE && phrase.coverage >= best.coverage / 2);
  const chosen: ScoredPhrase[] = [longer ?? best];
  const overlaps = (a: string, b: string) => ` ${a} `.includes(` ${b} `) || ` ${b} `.includes(` ${a} `);
  for (const phrase of scored) {
    if (chosen.length === TERMS) break;
    if (!chosen.some((taken) => overlaps(taken.key, phrase.key))) chosen.push(phrase);
  }
  return { label: chosen[0].text, terms: chosen.map((phrase) => phrase.text), termKeys: chosen.map((phrase) => phrase.key) };
}
