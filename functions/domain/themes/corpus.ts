import { derivedId } from '../text';
import { dot, type Embedder, type WordVectors } from './embedder';
import { labelAndTerms } from './labels';
import { nearDuplicateGroups } from './near-duplicates';
import { messagePhrases, PhraseIndex } from './phrases';
import { type AnalysedText, analyseText, spellingCorrections } from './text';
import type { ThemeMessage } from './types';
import {
  DENSE_WEIGHT,
  denseCentroid,
  denseVectors,
  inverseDocumentFrequencies,
  type MessageVector,
  sparseCentroid,
  sparseDot,
  sparseTerms,
  sparseVector,
} from './vectors';

/**
 * A corpus as discovery, stable ids and curation share it: the messages (sorted by id), their
 * analysis, near-duplicate groups, phrases and vectors; and the working themes they build.
 */

/** A message stays in a theme at this similarity to its centroid or more, else it goes to `other`. */
export const MEMBER_THRESHOLD = 0.25;

/** Everything discovery knows of the corpus, shared with curation replay. */
export interface Corpus {
  messages: ThemeMessage[];
  analysed: AnalysedText[];
  /** Per message, the index of its near-duplicate group's first message. */
  groupOf: number[];
  phraseKeys: Set<string>[];
  index: PhraseIndex;
  /** Per phrase key, in how many near-duplicate groups it occurs; and how many groups there are. */
  groupCounts: Map<string, number>;
  groups: number;
  vectors: MessageVector[];
  idf: Map<string, number>;
  unseenIdf: number;
  component: Float32Array;
  embedder: Embedder;
  lexicon: WordVectors;
}

export function readCorpus(messages: readonly ThemeMessage[], embedder: Embedder, lexicon: WordVectors): Corpus {
  const sorted = [...messages].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const texts = sorted.map((message) => message.text);
  const corrections = spellingCorrections(texts, lexicon);
  const analysed = texts.map((text) => analyseText(text, { corrections }));
  const groupOf = nearDuplicateGroups(texts);
  const index = new PhraseIndex();
  const phraseKeys = analysed.map((text, i) => {
    const phrases = messagePhrases(text);
    index.add(sorted[i].id, phrases);
    return new Set(phrases.map((phrase) => phrase.key));
  });
  const groupKeys = new Map<number, Set<string>>();
  phraseKeys.forEach((keys, i) => {
    const group = groupKeys.get(groupOf[i]) ?? new Set<string>();
    for (const key of keys) group.add(key);
    groupKeys.set(groupOf[i], group);
  });
  const groupCounts = new Map<string, number>();
  for (const keys of groupKeys.values()) for (const key of keys) groupCounts.set(key, (groupCounts.get(key) ?? 0) + 1);
  const terms = analysed.map(sparseTerms);
  const representatives = [...groupKeys.keys()];
  const { idf, unseen } = inverseDocumentFrequencies(representatives.map((i) => terms[i]));
  const dense = denseVectors(embedder, texts);
  const vectors = analysed.map((_, i) => ({ dense: dense.vectors[i], sparse: sparseVector(terms[i], idf, unseen) }));
  return {
    messages: sorted,
    analysed,
    groupOf,
    phraseKeys,
    index,
    groupCounts,
    groups: groupKeys.size,
    vectors,
    idf,
    unseenIdf: unseen,
    component: dense.component,
    embedder,
    lexicon,
  };
}

export interface Centroid {
  dense: Float32Array;
  sparse: Map<string, number>;
}

export function centroidOf(corpus: Corpus, members: readonly number[]): Centroid {
  return {
    dense: denseCentroid(
      members.map((i) => corpus.vectors[i].dense),
      corpus.embedder.dimensions,
    ),
    sparse: sparseCentroid(members.map((i) => corpus.vectors[i].sparse)),
  };
}

export function centroidSimilarity(vector: MessageVector, centroid: Centroid): number {
  return DENSE_WEIGHT * dot(vector.dense, centroid.dense) + (1 - DENSE_WEIGHT) * sparseDot(vector.sparse, centroid.sparse);
}

/** A theme's label and terms from its members' phrases (see labels.ts). */
export function describe(corpus: Corpus, members: readonly number[]): { label: string; terms: string[]; termKeys: string[] } {
  const byGroup = new Map<number, Set<string>>();
  for (const i of members) {
    const keys = byGroup.get(corpus.groupOf[i]) ?? new Set<string>();
    for (const key of corpus.phraseKeys[i]) keys.add(key);
    byGroup.set(corpus.groupOf[i], keys);
  }
  return labelAndTerms({ groups: [...byGroup.values()], corpusGroups: corpus.groupCounts, corpusSize: corpus.groups, index: corpus.index });
}

/** A new theme's id: derived from its label and its first member's id, so the same messages give the same id. */
export function newThemeId(label: string, firstMessageId: string): string {
  return derivedId('theme', label, firstMessageId);
}

export interface WorkingTheme {
  id: string;
  label: string;
  terms: string[];
  members: Set<number>;
  curated: boolean;
  /** The label was set by a person: it is kept. */
  labelFixed: boolean;
  phraseKeys: string[];
  /** Vectors of a pinned theme's example texts: part of its centroid. */
  examples: MessageVector[];
}
