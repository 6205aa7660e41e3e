import { analyseText, type Lexicon, spellingCorrections } from './text';

/**
 * Texts as vectors, so that texts saying the same in other words lie close. Theme discovery
 * takes any `Embedder`; `wordVectorEmbedder` is the one shipped (word vectors built into the
 * bundle: nothing is fetched or downloaded at run time). A stronger model (a sentence encoder
 * whose weights are bundled, or a model endpoint inside the account) plugs in here.
 */
export interface Embedder {
  /** Names the model in a discovery's model, so that vectors of two models are never compared. */
  readonly name: string;
  readonly dimensions: number;
  /** One vector per text, in order: unit length, or all zeros when the model knows none of its words. */
  embed(texts: readonly string[]): Float32Array[];
}

/** The build-time file of word vectors (scripts/themes-word-vectors.ts): words by frequency, 4-bit vectors. */
export interface WordVectorFile {
  source: string;
  dimensions: number;
  bits: 4;
  /** The words, most frequent first, separated by spaces. */
  words: string;
  /** base64 of the vectors: per word, `ceil(dimensions / 2)` bytes, two 4-bit values a byte (low nibble first), 8 = zero. */
  vectors: string;
}

export interface WordVectors extends Lexicon {
  readonly source: string;
  readonly dimensions: number;
  /** The word's vector at unit length, or undefined for a word not kept. */
  vector(word: string): Float32Array | undefined;
}

/** Reads the build-time file: pure, the words indexed at once, each vector unpacked at its first use. */
export function parseWordVectors(file: WordVectorFile): WordVectors {
  const ranks = new Map(file.words.split(' ').map((word, index) => [word, index + 1]));
  const packed = Buffer.from(file.vectors, 'base64');
  const bytesPerWord = Math.ceil(file.dimensions / 2);
  const unpacked = new Map<string, Float32Array>();
  return {
    source: file.source,
    dimensions: file.dimensions,
    rank: (word) => ranks.get(word),
    vector(word) {
      const cached = unpacked.get(word);
      if (cached) return cached;
      const rank = ranks.get(word);
      if (rank === undefined) return undefined;
      const vector = new Float32Array(file.dimensions);
      const offset = (rank - 1) * bytesPerWord;
      let norm = 0;
      for (let dimension = 0; dimension < file.dimensions; dimension++) {
        const byte = packed[offset + (dimension >> 1)];
        const value = (dimension % 2 === 0 ? byte & 15 : byte >> 4) - 8;
        vector[dimension] = value;
        norm += value * value;
      }
      const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let dimension = 0; dimension < file.dimensions; dimension++) vector[dimension] *= scale;
      unpacked.set(word, vector);
      return vector;
    },
  };
}

let shipped: WordVectors | undefined;

/** The word vectors shipped with the module (100,000 English words; see scripts/themes-word-vectors.ts), parsed once. */
export function shippedWordVectors(): WordVectors {
  shipped ??= parseWordVectors(require('./word-vectors.json') as WordVectorFile);
  return shipped;
}

/**
 * Smooth inverse frequency (Arora, Liang and Ma, "A simple but tough-to-beat baseline for
 * sentence embeddings", ICLR 2017): a word weighs a / (a + p(w)), p(w) its probability. The
 * file keeps ranks, not counts, so p(w) is Zipf's law over GloVe's 400,000 words:
 * 1 / (rank * H), H the harmonic number (~13.5). a = 1e-3 as the paper recommends.
 */
const SIF_A = 1e-3;
const HARMONIC_400K = Math.log(400_000) + 0.5772;

export function sifWeight(rank: number): number {
  const probability = 1 / (rank * HARMONIC_400K);
  return SIF_A / (SIF_A + probability);
}

/**
 * A text's vector: the SIF-weighted mean of its content words' vectors (stop words and
 * negations left out; misspellings corrected against the batch's own words first), at unit length.
 * The common component SIF also removes is the discovery's job (it needs the corpus).
 */
export function wordVectorEmbedder(vectors: WordVectors = shippedWordVectors()): Embedder {
  return {
    name: `sif:${vectors.source}`,
    dimensions: vectors.dimensions,
    embed(texts) {
      const corrections = spellingCorrections(texts, vectors);
      return texts.map((text) => {
        const sum = new Float32Array(vectors.dimensions);
        for (const token of analyseText(text, { corrections }).tokens) {
          if (token.stop || token.negation) continue;
          const vector = vectors.vector(token.word);
          if (!vector) continue;
          const weight = sifWeight(vectors.rank(token.word) ?? 1);
          for (let i = 0; i < sum.length; i++) sum[i] += weight * vector[i];
        }
        return unit(sum);
      });
    },
  };
}

/** The vector at unit length (in place); all zeros stays all zeros. */
export function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i];
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) vector[i] *= scale;
  }
  return vector;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}
