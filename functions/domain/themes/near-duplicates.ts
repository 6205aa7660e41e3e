import { fnv1a } from '../text';
import { normaliseText } from './text';

/**
 * Near-duplicate messages: the same text sent twice ("still no refund", "Still no refund!!")
 * or nearly ("where is my package" / "Where is my package?" / "where is my packages"). Theme
 * discovery counts a group once when it decides what makes a theme, so one visitor repeating
 * themselves never makes one; every message of a group is still counted in its theme.
 *
 * Two texts are near-duplicates when the Jaccard similarity of their character 3-gram sets
 * (of the normalised words, punctuation and case ignored) is at least `threshold` (0.8).
 * Candidates come from MinHash locality-sensitive hashing (24 hashes in 8 bands of 3: a pair at
 * 0.8 is a candidate with probability 0.996, one at 0.3 with 0.2), then the exact Jaccard
 * decides, so the cost stays near linear in the messages. Groups are the connected pairs;
 * deterministic (fixed hash seeds, messages taken in the order given).
 */
export const NEAR_DUPLICATE_THRESHOLD = 0.8;

const HASHES = 24;
const ROWS = 3;

/** The words of a text, normalised, joined by one space: what near-duplicates compare. */
export function comparableText(text: string): string {
  return normaliseText(text)
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim();
}

function shingles(text: string): Set<string> {
  const padded = ` ${text} `;
  const out = new Set<string>();
  if (padded.length < 3) out.add(padded);
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

/** The i-th of a family of hash functions: the shingle's FNV-1a mixed with a fixed odd seed (murmur3's finaliser). */
function mix(hash: number, seed: number): number {
  let h = (hash ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A shingle's 24 hashes are the same in every text that has it, and texts share most of
 * theirs (" th", "the", ...), within a call and across the many small calls of one job (a
 * day's messages each): each distinct shingle is hashed once per process, which turns the
 * signatures' murmur finalisers per (text, shingle, hash) into comparisons. Bounded: emptied
 * past 50,000 shingles (about 15 MB).
 */
const hashesOf = new Map<string, Uint32Array>();
const HASHES_KEPT = 50_000;

function shingleHashes(shingle: string): Uint32Array {
  let hashes = hashesOf.get(shingle);
  if (!hashes) {
    if (hashesOf.size >= HASHES_KEPT) hashesOf.clear();
    const base = fnv1a(shingle);
    hashes = new Uint32Array(HASHES);
    for (let seed = 1; seed <= HASHES; seed++) hashes[seed - 1] = mix(base, seed);
    hashesOf.set(shingle, hashes);
  }
  return hashes;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const item of a) if (b.has(item)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/**
 * Groups of near-duplicates: for each text (by index) the index of its group's first text.
 * A text with no near-duplicate is its own group.
 */
export function nearDuplicateGroups(texts: readonly string[], threshold = NEAR_DUPLICATE_THRESHOLD): number[] {
  const parent = texts.map((_, index) => index);
  const find = (index: number): number => {
    let root = index;
    while (parent[root] !== root) root = parent[root];
    while (parent[index] !== root) [index, parent[index]] = [parent[index], root];
    return root;
  };
  const union = (a: number, b: number) => {
    const rootA = find(a);
    const rootB = find(b);
    if (rootA !== rootB) parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
  };
  // Equal texts first: one representative each, so the hashing below sees each distinct text once.
  const comparable = texts.map(comparableText);
  const firstOf = new Map<string, number>();
  const distinct: number[] = [];
  comparable.forEach((text, index) => {
    const first = firstOf.get(text);
    if (first === undefined) {
      firstOf.set(text, index);
      distinct.push(index);
    } else union(first, index);
  });
  const shingleSets = new Map<number, Set<string>>();
  const buckets = new Map<string, number[]>();
  for (const index of distinct) {
    const set = shingles(comparable[index]);
    shingleSets.set(index, set);
    const minima = new Uint32Array(HASHES).fill(0xffffffff);
    for (const shingle of set) {
      const hashes = shingleHashes(shingle);
      for (let hash = 0; hash < HASHES; hash++) if (hashes[hash] < minima[hash]) minima[hash] = hashes[hash];
    }
    for (let band = 0; band < HASHES / ROWS; band++) {
      const key = `${band}:${minima.subarray(band * ROWS, band * ROWS + ROWS).join(',')}`;
      const bucket = buckets.get(key);
      if (bucket) bucket.push(index);
      else buckets.set(key, [index]);
    }
  }
  const compared = new Set<string>();
  for (const bucket of buckets.values()) {
    for (let i = 0; i < bucket.length; i++) {
      for (let j = i + 1; j < bucket.length; j++) {
        const pair = `${bucket[i]},${bucket[j]}`;
        if (compared.has(pair)) continue;
        compared.add(pair);
        const a = shingleSets.get(bucket[i]) as Set<string>;
        const b = shingleSets.get(bucket[j]) as Set<string>;
        if (jaccard(a, b) >= threshold) union(bucket[i], bucket[j]);
      }
    }
  }
  return texts.map((_, index) => find(index));
}
