import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import { fnv1a } from '../text';
import { type Corpus, centroidOf, centroidSimilarity, describe, MEMBER_THRESHOLD, readCorpus, type WorkingTheme } from './corpus';
import { type Curation, replayCuration, themesKeptBy } from './curation';
import { matchPrevious } from './stable-ids';
import type { Discovery, Theme, ThemeMessage, ThemeModel, ThemeSketch } from './types';
import { type Embedder, shippedWordVectors, type WordVectors, wordVectorEmbedder } from './embedder';
import { DENSE_WEIGHT, denseCentroid, sparseCentroid } from './vectors';

export interface DiscoveryOptions {
  /** Dense vectors of texts; default: SIF over the shipped word vectors. */
  embedder?: Embedder;
  /** The lexicon of spelling corrections and variants; default: the shipped word vectors' words. */
  lexicon?: WordVectors;
  /** The last discovery's model: themes that persist keep their ids, curated themes stay. */
  previous?: ThemeModel;
  /** Every curation decision so far, oldest first: replayed over the new themes. */
  curation?: readonly Curation[];
  /** At most this many themes (default 30); the smallest beyond go to `other`. */
  maxThemes?: number;
  /** A theme needs this many messages that are not near-duplicates of each other (default: 3, or 0.5% of them if more). */
  minThemeSize?: number;
}

/** Neighbours per message in the similarity graph. */
const NEIGHBOURS = 12;
/** An edge of the graph needs at least this similarity. */
const MIN_EDGE = 0.2;
/** Refinement rounds after the graph's communities: each message to its most similar centroid. */
const REFINEMENTS = 3;
/** Louvain's resolution: above 1 favours more, smaller communities. */
const RESOLUTION = 1.5;
/** Discovery clusters at most this many distinct messages (the first by a hash of their id); the rest are assigned to the themes found. */
export const SAMPLE_LIMIT = 4000;
/** A sketch keeps this many member ids for matching the next discovery. */
export const SKETCH_MEMBERS = 200;

/** A fixed-seed generator (mulberry32) for Louvain's random choices: the same messages give the same themes. */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Whether a message can be in a theme: it has a content word the lexicon knows, or one that
 * at least three near-duplicate groups of the corpus use (a product's name, "idempotency").
 * "ok", "asdf", "👍" or "?" cannot.
 */
function informative(corpus: Corpus, i: number, stemGroups: ReadonlyMap<string, number>): boolean {
  return corpus.analysed[i].tokens.some(
    (token) => !token.stop && !token.negation && (corpus.lexicon.rank(token.word) !== undefined || (stemGroups.get(token.stem) ?? 0) >= 3),
  );
}

/**
 * Communities of the k-nearest-neighbour similarity graph (Louvain, seeded), as lists of message
 * indexes. An edge joins a message to each of its NEIGHBOURS most similar (at MIN_EDGE or
 * more) and weighs the shared-nearest-neighbour overlap of its ends, (shared + 1) / |union|
 * (Jarvis and Patrick's idea, as single-cell clustering uses it before Louvain): two messages
 * are close when their neighbourhoods agree, which keeps one frequent word ("app", "page")
 * from tying reasons together. Each row's sparse cosines are summed through an inverted index
 * of the sparse terms (only pairs sharing a term cost anything).
 */
function graphCommunities(corpus: Corpus, nodes: readonly number[]): number[][] {
  const graph = new Graph({ type: 'undirected' });
  for (const node of nodes) graph.addNode(String(node));
  const postings = new Map<string, Array<[number, number]>>();
  nodes.forEach((node, position) => {
    for (const [term, weight] of corpus.vectors[node].sparse) {
      const list = postings.get(term) ?? [];
      list.push([position, weight]);
      postings.set(term, list);
    }
  });
  const dimensions = corpus.embedder.dimensions;
  const matrix = new Float32Array(nodes.length * dimensions);
  nodes.forEach((node, position) => {
    matrix.set(corpus.vectors[node].dense, position * dimensions);
  });
  const sparseRow = new Float64Array(nodes.length);
  const neighbourLists: number[][] = [];
  for (let a = 0; a < nodes.length; a++) {
    sparseRow.fill(0);
    for (const [term, weight] of corpus.vectors[nodes[a]].sparse) for (const [b, other] of postings.get(term) ?? []) sparseRow[b] += weight * other;
    // The NEIGHBOURS best scores, kept sorted (best first; ties to the lower index) by insertion.
    const best: number[] = [];
    const bestScores: number[] = [];
    const rowStart = a * dimensions;
    for (let b = 0; b < nodes.length; b++) {
      if (a === b) continue;
      let dense = 0;
      const columnStart = b * dimensions;
      for (let d = 0; d < dimensions; d++) dense += matrix[rowStart + d] * matrix[columnStart + d];
      const score = DENSE_WEIGHT * dense + (1 - DENSE_WEIGHT) * sparseRow[b];
      if (score < MIN_EDGE || (best.length === NEIGHBOURS && score <= bestScores[NEIGHBOURS - 1])) continue;
      let at = Math.min(best.length, NEIGHBOURS - 1);
      while (at > 0 && bestScores[at - 1] < score) at -= 1;
      best.splice(at, 0, b);
      bestScores.splice(at, 0, score);
      if (best.length > NEIGHBOURS) {
        best.pop();
        bestScores.pop();
      }
    }
    neighbourLists.push(best);
  }
  const sets = neighbourLists.map((list) => new Set(list));
  neighbourLists.forEach((list, a) => {
    for (const b of list) {
      const source = String(nodes[a]);
      const target = String(nodes[b]);
      if (graph.hasEdge(source, target)) continue;
      let shared = 0;
      for (const neighbour of sets[a]) if (sets[b].has(neighbour)) shared += 1;
      graph.addEdge(source, target, { weight: (shared + 1) / (sets[a].size + sets[b].size - shared) });
    }
  });
  const communities = louvain(graph, { resolution: RESOLUTION, rng: seededRandom(40), getEdgeWeight: 'weight' });
  const byCommunity = new Map<number, number[]>();
  for (const node of nodes) {
    const community = communities[String(node)];
    const list = byCommunity.get(community) ?? [];
    list.push(node);
    byCommunity.set(community, list);
  }
  return [...byCommunity.values()];
}

/** Each node to its most similar centroid at MEMBER_THRESHOLD or more (else none), repeatedly; clusters below `minSize` groups dissolve. */
function refine(corpus: Corpus, clusters: number[][], nodes: readonly number[], minSize: number): number[][] {
  let current = clusters;
  for (let round = 0; round < REFINEMENTS; round++) {
    const centroids = current.map((members) => centroidOf(corpus, members));
    const next: number[][] = current.map(() => []);
    for (const node of nodes) {
      let best = -1;
      let bestScore = MEMBER_THRESHOLD;
      centroids.forEach((centroid, c) => {
        const score = centroidSimilarity(corpus.vectors[node], centroid);
        if (score >= bestScore) {
          best = c;
          bestScore = score;
        }
      });
      if (best >= 0) next[best].push(node);
    }
    current = next.filter((members) => members.length >= minSize);
  }
  return current;
}

/** The clusters discovery finds on its own, before ids and curation: lists of message indexes (every near-duplicate included). */
export function automaticClusters(corpus: Corpus, options: { maxThemes: number; minThemeSize?: number }): number[][] {
  const stemGroups = new Map<string, number>();
  const seen = new Set<number>();
  corpus.analysed.forEach((text, i) => {
    if (seen.has(corpus.groupOf[i])) return;
    seen.add(corpus.groupOf[i]);
    for (const stem of text.contentStems) stemGroups.set(stem, (stemGroups.get(stem) ?? 0) + 1);
  });
  const representatives = [...seen].filter((i) => informative(corpus, i, stemGroups));
  const minSize = options.minThemeSize ?? Math.max(3, Math.ceil(0.005 * corpus.groups));
  const sample =
    representatives.length <= SAMPLE_LIMIT
      ? representatives
      : [...representatives]
          .sort((a, b) => fnv1a(corpus.messages[a].id) - fnv1a(corpus.messages[b].id) || a - b)
          .slice(0, SAMPLE_LIMIT)
          .sort((a, b) => a - b);
  const sampleMin = Math.max(2, Math.round((minSize * sample.length) / Math.max(1, representatives.length)));
  const communities = graphCommunities(corpus, sample).filter((members) => members.length >= sampleMin);
  // Every representative (sampled or not) to its nearest community; then near-duplicates follow their group's first message.
  const refined = refine(corpus, communities, representatives, minSize)
    .sort((a, b) => b.length - a.length || a[0] - b[0])
    .slice(0, options.maxThemes);
  const clusterOfGroup = new Map<number, number>();
  refined.forEach((members, c) => {
    for (const member of members) clusterOfGroup.set(member, c);
  });
  const clusters: number[][] = refined.map(() => []);
  corpus.groupOf.forEach((group, i) => {
    const c = clusterOfGroup.get(group);
    if (c !== undefined) clusters[c].push(i);
  });
  return clusters;
}

/** 4 decimals, and never -0 (JSON has none). */
const round4 = (value: number) => Math.round(value * 10_000) / 10_000 || 0;

function sketchOf(corpus: Corpus, theme: WorkingTheme): ThemeSketch {
  const members = [...theme.members].sort((a, b) => a - b);
  const vectors = [...members.map((i) => corpus.vectors[i]), ...theme.examples];
  const centroid = {
    dense: denseCentroid(
      vectors.map((vector) => vector.dense),
      corpus.embedder.dimensions,
    ),
    sparse: sparseCentroid(vectors.map((vector) => vector.sparse)),
  };
  const memberSample = members
    .map((i) => corpus.messages[i].id)
    .sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : 1))
    .slice(0, SKETCH_MEMBERS)
    .sort();
  return {
    id: theme.id,
    label: theme.label,
    terms: theme.terms,
    curated: theme.curated,
    memberSample,
    count: members.length,
    dense: [...centroid.dense].map(round4),
    sparse: Object.fromEntries([...centroid.sparse].map(([term, weight]) => [term, round4(weight)])),
    phraseKeys: theme.phraseKeys,
    threshold: MEMBER_THRESHOLD,
  };
}

/**
 * Themes of messages (see ./index.ts for the whole contract): near-duplicates grouped, the
 * informative messages' similarity graph split into communities (Louvain), refined to
 * centroids, small ones dissolved; ids matched to `previous`, curation replayed, labels drawn.
 */
export function discoverThemes(messages: readonly ThemeMessage[], options: DiscoveryOptions = {}): Discovery {
  const lexicon = options.lexicon ?? shippedWordVectors();
  const embedder = options.embedder ?? wordVectorEmbedder(lexicon);
  const corpus = readCorpus(messages, embedder, lexicon);
  const clusters = automaticClusters(corpus, { maxThemes: options.maxThemes ?? 30, minThemeSize: options.minThemeSize });
  // The last model, with the themes people's records keep marked curated (themesKeptBy).
  const kept = themesKeptBy(options.curation ?? []);
  const previous = options.previous && {
    ...options.previous,
    themes: options.previous.themes.map((sketch) => (kept.has(sketch.id) && !sketch.curated ? { ...sketch, curated: true } : sketch)),
  };
  const sameEmbedder = previous?.embedder === embedder.name || previous?.themes.length === 0;
  const described = clusters.map((members) => ({ members, ...describe(corpus, members) }));
  const matched = matchPrevious(corpus, described, previous, sameEmbedder);
  const working: WorkingTheme[] = matched.map(({ members, label, terms, id, sketch }) => ({
    id,
    label: sketch?.curated && sketch.label ? sketch.label : label,
    terms,
    members: new Set(members),
    curated: sketch?.curated ?? false,
    labelFixed: false,
    phraseKeys: sketch?.phraseKeys ?? [],
    examples: [],
  }));
  const themes = replayCuration(corpus, working, options.curation ?? [], previous);
  return finish(corpus, themes);
}

/** Examples shown with a theme. */
export const EXAMPLES = 10;

/** Up to EXAMPLES member ids, most similar to the theme's centroid first, one per near-duplicate group (ties: the id). */
function exampleIds(corpus: Corpus, theme: WorkingTheme): string[] {
  const members = [...theme.members];
  if (members.length === 0) return [];
  const centroid = centroidOf(corpus, members);
  const seenGroups = new Set<number>();
  return members
    .map((i) => ({ i, score: centroidSimilarity(corpus.vectors[i], centroid), id: corpus.messages[i].id }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .filter(({ i }) => {
      if (seenGroups.has(corpus.groupOf[i])) return false;
      seenGroups.add(corpus.groupOf[i]);
      return true;
    })
    .slice(0, EXAMPLES)
    .map(({ id }) => id);
}

function finish(corpus: Corpus, working: WorkingTheme[]): Discovery {
  const themed = new Set<number>();
  const kept = working.filter((theme) => theme.members.size > 0 || theme.curated);
  for (const theme of kept) {
    if (!theme.labelFixed && theme.members.size > 0) {
      const { label, terms } = describe(corpus, [...theme.members]);
      theme.label = label || theme.label;
      theme.terms = terms;
    }
    for (const member of theme.members) themed.add(member);
  }
  const themes: Theme[] = kept
    .map((theme) => ({
      id: theme.id,
      label: theme.label,
      terms: theme.terms,
      messageIds: [...theme.members].map((i) => corpus.messages[i].id).sort(),
      exampleIds: exampleIds(corpus, theme),
      curated: theme.curated,
    }))
    .sort((a, b) => b.messageIds.length - a.messageIds.length || (a.id < b.id ? -1 : 1));
  const model: ThemeModel = {
    version: 1,
    embedder: corpus.embedder.name,
    component: [...corpus.component].map(round4),
    idf: {},
    unseenIdf: round4(corpus.unseenIdf),
    themes: [],
  };
  const byId = new Map(kept.map((theme) => [theme.id, theme]));
  model.themes = themes.map((theme) => sketchOf(corpus, byId.get(theme.id) as WorkingTheme));
  for (const sketch of model.themes) for (const term of Object.keys(sketch.sparse)) model.idf[term] = round4(corpus.idf.get(term) ?? corpus.unseenIdf);
  return {
    themes,
    other: corpus.messages
      .filter((_, i) => !themed.has(i))
      .map((message) => message.id)
      .sort(),
    model,
  };
}
