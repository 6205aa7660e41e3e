import type { PhraseIndex } from './phrases';

/**
 * A theme's label and terms, drawn from its messages' phrases. A phrase scores by how many of
 * the theme's messages hold it (coverage, counted once per near-duplicate group) times how much
 * more often than in the whole corpus (log2 of 1 + lift), longer phrases preferred (+60% a
 * word: "dark mode" over "dark" when most of its messages say "dark mode"). The label is the best
 * phrase's readable form, 1-4 words; the terms are the best five whose keys are not part of a
 * better one. Ties fall to the key's code-point order: deterministic.
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
  const chosen: ScoredPhrase[] = [];
  for (const phrase of scored) {
    if (chosen.some((better) => ` ${better.key} `.includes(` ${phrase.key} `) || ` ${phrase.key} `.includes(` ${better.key} `))) continue;
    chosen.push(phrase);
    if (chosen.length === TERMS) break;
  }
  const label = chosen[0]?.text ?? '';
  return { label, terms: chosen.map((phrase) => phrase.text), termKeys: chosen.map((phrase) => phrase.key) };
}
