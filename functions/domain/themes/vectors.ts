import { dot, type Embedder, unit } from './embedder';
import type { AnalysedText } from './text';

/**
 * How discovery sees a message: a dense vector (the embedder's, the corpus's common direction
 * removed) and a sparse one (TF-IDF of its content stems and two-word phrase keys, unit
 * length). Their similarity is the weighted sum of the two cosines: the dense one finds
 * "deprecated" near "outdated", the sparse one keeps "python example" apart from "java example".
 */
export interface MessageVector {
  dense: Float32Array;
  sparse: Map<string, number>;
}

/** The dense cosine's weight in a similarity (the sparse one weighs the rest). */
export const DENSE_WEIGHT = 0.6;
/** A two-word phrase key's weight against a stem's in the sparse vector. */
const BIGRAM_WEIGHT = 0.5;

export function similarity(a: MessageVector, b: MessageVector): number {
  return DENSE_WEIGHT * dot(a.dense, b.dense) + (1 - DENSE_WEIGHT) * sparseDot(a.sparse, b.sparse);
}

export function sparseDot(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [key, value] of small) {
    const other = large.get(key);
    if (other !== undefined) sum += value * other;
  }
  return sum;
}

/** Sparse terms of a message: its content stems, and its adjacent content-stem pairs as "a b". */
export function sparseTerms(text: AnalysedText): string[] {
  const terms = new Set(text.contentStems);
  const content = text.tokens.filter((token) => !token.stop && !token.negation);
  for (let i = 0; i + 1 < content.length; i++) if (content[i].clause === content[i + 1].clause) terms.add(`${content[i].stem} ${content[i + 1].stem}`);
  return [...terms].sort();
}

/** Inverse document frequencies, smoothed: ln((1 + n) / (1 + df)) + 1 (scikit-learn's default). */
export function inverseDocumentFrequencies(documents: readonly (readonly string[])[]): { idf: Map<string, number>; unseen: number } {
  const frequencies = new Map<string, number>();
  for (const terms of documents) for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  const n = documents.length;
  const idf = new Map<string, number>();
  for (const [term, df] of frequencies) idf.set(term, Math.log((1 + n) / (1 + df)) + 1);
  return { idf, unseen: Math.log(1 + n) + 1 };
}

export function sparseVector(terms: readonly string[], idf: ReadonlyMap<string, number>, unseen: number): Map<string, number> {
  const vector = new Map<string, number>();
  let norm = 0;
  for (const term of terms) {
    const weight = (idf.get(term) ?? unseen) * (term.includes(' ') ? BIGRAM_WEIGHT : 1);
    vector.set(term, weight);
    norm += weight * weight;
  }
  if (norm > 0) for (const [term, weight] of vector) vector.set(term, weight / Math.sqrt(norm));
  return vector;
}

/**
 * The first principal direction of unit vectors (power iteration from a fixed start, 30
 * steps): SIF's "common component", the direction every short text shares, removed so that
 * similarities reflect what texts say rather than that they are all feedback.
 */
export function commonComponent(vectors: readonly Float32Array[], dimensions: number): Float32Array {
  let direction: Float32Array = new Float32Array(dimensions).fill(1 / Math.sqrt(dimensions));
  for (let step = 0; step < 30; step++) {
    const next = new Float32Array(dimensions);
    for (const vector of vectors) {
      const projection = dot(vector, direction);
      for (let i = 0; i < dimensions; i++) next[i] += projection * vector[i];
    }
    direction = unit(next);
  }
  return direction;
}

export function withoutComponent(vector: Float32Array, component: Float32Array): Float32Array {
  const out = Float32Array.from(vector);
  const projection = dot(vector, component);
  for (let i = 0; i < out.length; i++) out[i] -= projection * component[i];
  return unit(out);
}

/** Dense vectors of texts by the embedder, their common component removed. */
export function denseVectors(embedder: Embedder, texts: readonly string[], component?: Float32Array): { vectors: Float32Array[]; component: Float32Array } {
  const raw = embedder.embed(texts);
  const common = component ?? commonComponent(raw, embedder.dimensions);
  return { vectors: raw.map((vector) => withoutComponent(vector, common)), component: common };
}

/** The mean of vectors at unit length. */
export function denseCentroid(vectors: readonly Float32Array[], dimensions: number): Float32Array {
  const sum = new Float32Array(dimensions);
  for (const vector of vectors) for (let i = 0; i < dimensions; i++) sum[i] += vector[i];
  return unit(sum);
}

/** The mean of sparse vectors, its `keep` largest weights, at unit length. */
export function sparseCentroid(vectors: readonly ReadonlyMap<string, number>[], keep = 40): Map<string, number> {
  const sum = new Map<string, number>();
  for (const vector of vectors) for (const [term, weight] of vector) sum.set(term, (sum.get(term) ?? 0) + weight);
  const top = [...sum].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, keep);
  const norm = Math.sqrt(top.reduce((total, [, weight]) => total + weight * weight, 0)) || 1;
  return new Map(top.map(([term, weight]) => [term, weight / norm]));
}
