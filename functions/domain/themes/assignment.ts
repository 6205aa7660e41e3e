import { dot, type Embedder } from './embedder';
import { messagePhrases } from './phrases';
import { sketchVector } from './stable-ids';
import { analyseText } from './text';
import type { ThemeModel } from './types';
import { DENSE_WEIGHT, sparseDot, sparseTerms, sparseVector, withoutComponent } from './vectors';

/**
 * One new message placed in the current themes, within a minute of its arrival and before the
 * next discovery: into the curated theme one of whose phrases it holds (curated themes in id
 * order), else into the theme whose centroid it is most similar to, if at that theme's bar
 * (`threshold`, the bar discovery held its members to), else `null` (other). Needs only the stored model and the same embedder (a model of
 * another embedder places nothing by similarity).
 */
export function assignMessage(model: ThemeModel, text: string, embedder: Embedder): string | null {
  const analysed = analyseText(text);
  const keys = new Set(messagePhrases(analysed).map((phrase) => phrase.key));
  const curated = model.themes.filter((theme) => theme.curated).sort((a, b) => (a.id < b.id ? -1 : 1));
  const byPhrase = curated.find((theme) => theme.phraseKeys.some((key) => keys.has(key)));
  if (byPhrase) return byPhrase.id;
  if (model.embedder !== embedder.name || analysed.contentStems.length === 0) return null;
  const dense = withoutComponent(embedder.embed([text])[0], Float32Array.from(model.component));
  const sparse = sparseVector(sparseTerms(analysed), new Map(Object.entries(model.idf)), model.unseenIdf);
  let best: string | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const theme of model.themes) {
    const centroid = sketchVector(theme);
    const score = DENSE_WEIGHT * dot(dense, centroid.dense) + (1 - DENSE_WEIGHT) * sparseDot(sparse, centroid.sparse);
    if (score >= theme.threshold && score > bestScore) {
      best = theme.id;
      bestScore = score;
    }
  }
  return best;
}
