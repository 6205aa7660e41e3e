import { type Corpus, centroidOf, newThemeId } from './corpus';
import { dot } from './embedder';
import type { ThemeModel, ThemeSketch } from './types';
import { DENSE_WEIGHT, sparseDot } from './vectors';

/**
 * Stable ids: each cluster of a new discovery is matched to the theme of the last one that
 * it continues, and takes its id.
 *
 * A cluster continues a previous theme when it holds at least half of that theme's members
 * still present (through the theme's sample of member ids); when fewer than three of them are
 * present (the window moved on), when their centroids' similarity is at least 0.8 (same
 * embedder only). Pairs are taken best first (ties: the previous theme's id, the cluster's
 * first message): an automatic theme continues in one cluster at most, a curated theme in all
 * that continue it (so themes people merged stay merged). A curated theme no cluster continues
 * stays, empty, for curation to fill. Clusters that continue nothing get a new id from their
 * label and first message.
 */
export const MATCH_OVERLAP = 0.5;
export const MATCH_SIMILARITY = 0.8;

export interface DescribedCluster {
  members: number[];
  label: string;
  terms: string[];
}

export interface MatchedCluster extends DescribedCluster {
  id: string;
  sketch?: ThemeSketch;
}

export function sketchVector(sketch: ThemeSketch): { dense: Float32Array; sparse: Map<string, number> } {
  return { dense: Float32Array.from(sketch.dense), sparse: new Map(Object.entries(sketch.sparse)) };
}

export function matchPrevious(
  corpus: Corpus,
  clusters: readonly DescribedCluster[],
  previous: ThemeModel | undefined,
  sameEmbedder: boolean,
): MatchedCluster[] {
  const sketches = previous?.themes ?? [];
  const present = new Map(corpus.messages.map((message, i) => [message.id, i]));
  const pairs: Array<{ cluster: number; sketch: number; score: number }> = [];
  const centroids = clusters.map((cluster) => centroidOf(corpus, cluster.members));
  clusters.forEach((cluster, c) => {
    const members = new Set(cluster.members);
    sketches.forEach((sketch, s) => {
      const sample = sketch.memberSample.filter((id) => present.has(id));
      let score = 0;
      if (sample.length >= 3) {
        score = sample.filter((id) => members.has(present.get(id) as number)).length / sample.length;
        if (score < MATCH_OVERLAP) score = 0;
      } else if (sameEmbedder) {
        const vector = sketchVector(sketch);
        const similarity = DENSE_WEIGHT * dot(centroids[c].dense, vector.dense) + (1 - DENSE_WEIGHT) * sparseDot(centroids[c].sparse, vector.sparse);
        score = similarity >= MATCH_SIMILARITY ? similarity : 0;
      }
      if (score > 0) pairs.push({ cluster: c, sketch: s, score });
    });
  });
  pairs.sort(
    (a, b) =>
      b.score - a.score ||
      (sketches[a.sketch].id < sketches[b.sketch].id ? -1 : sketches[a.sketch].id > sketches[b.sketch].id ? 1 : 0) ||
      clusters[a.cluster].members[0] - clusters[b.cluster].members[0],
  );
  const sketchOfCluster = new Map<number, number>();
  const usedSketches = new Set<number>();
  for (const { cluster, sketch } of pairs) {
    if (sketchOfCluster.has(cluster)) continue;
    if (usedSketches.has(sketch) && !sketches[sketch].curated) continue;
    sketchOfCluster.set(cluster, sketch);
    usedSketches.add(sketch);
  }
  const bySketch = new Map<number, MatchedCluster>();
  const matched: MatchedCluster[] = [];
  clusters.forEach((cluster, c) => {
    const s = sketchOfCluster.get(c);
    if (s === undefined) {
      matched.push({ ...cluster, id: newThemeId(cluster.label, corpus.messages[Math.min(...cluster.members)].id) });
      return;
    }
    const existing = bySketch.get(s);
    if (existing) existing.members.push(...cluster.members);
    else {
      const continued = { ...cluster, members: [...cluster.members], id: sketches[s].id, sketch: sketches[s] };
      bySketch.set(s, continued);
      matched.push(continued);
    }
  });
  sketches.forEach((sketch, s) => {
    if (sketch.curated && !usedSketches.has(s)) matched.push({ members: [], label: sketch.label, terms: sketch.terms, id: sketch.id, sketch });
  });
  return matched;
}
