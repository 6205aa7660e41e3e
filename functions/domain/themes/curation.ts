import { type Corpus, centroidSimilarity, MEMBER_THRESHOLD, type WorkingTheme } from './corpus';
import { messagePhrases } from './phrases';
import { sketchVector } from './stable-ids';
import { analyseText } from './text';
import type { ThemeModel } from './types';
import { denseCentroid, denseVectors, type MessageVector, sparseCentroid, sparseTerms, sparseVector } from './vectors';

/**
 * What people decided about themes, as records the service keeps (audited) and replays over
 * every new discovery, oldest first. Ids in records are the themes' stable ids; a record about
 * a theme that no longer exists changes nothing. New themes' ids (`newThemeId` of split and
 * pin) are chosen by the caller (e.g. `derivedId` of the record's id) so replay is deterministic.
 *
 * - `rename`: the theme keeps its id and takes `label` for good.
 * - `merge`: the themes' messages go to `into` (which may be one of them); the others are gone,
 *   and what continues any of them later joins `into`.
 * - `split`: messages of `themeId` go to a new theme `newThemeId` labelled `label`: those listed
 *   (`messageIds`) or those holding `phrase`. A phrase split goes on taking that phrase's
 *   messages; a split by messages goes on taking messages like them.
 * - `move`: one message to a theme, or to `other` (`themeId: null`); it stays there.
 * - `pin`: a theme described by a person: `label`, a few `phrases` (any message holding one
 *   joins it) and `examples` (texts: messages similar to them join it). Pinning an existing
 *   theme's id keeps its messages; a new id makes a new theme.
 *
 * After the records, messages in `other` join the curated theme whose messages, examples and
 * phrases they are most similar to (at the theme's bar or more), messages holding a curated
 * theme's phrase join it from anywhere, and moves are applied once more so they always win.
 */
export type Curation =
  | { kind: 'rename'; themeId: string; label: string }
  | { kind: 'merge'; themeIds: string[]; into: string }
  | { kind: 'split'; themeId: string; newThemeId: string; label: string; messageIds?: string[]; phrase?: string }
  | { kind: 'move'; messageId: string; themeId: string | null }
  | { kind: 'pin'; themeId: string; label: string; phrases: string[]; examples: string[] };

/**
 * The themes records name as ones to keep: renamed, merged into, pinned, or a moved message's
 * target (a split names its parent only as where its messages come from). Each counts as
 * curated from its record on, also in the discovery the record itself asks for: the last
 * discovery's model, made before the record, does not mark it curated yet, and without this
 * a theme that discovery happens not to continue would go, and with it what the person just
 * decided about it.
 */
export function themesKeptBy(records: readonly Curation[]): Set<string> {
  const kept = new Set<string>();
  for (const record of records) {
    if (record.kind === 'merge') kept.add(record.into);
    else if (record.kind !== 'split' && record.themeId !== null) kept.add(record.themeId);
  }
  return kept;
}

/** A phrase as people type it, as the key messages' phrases are compared by (its words' stems). */
export function phraseKey(phrase: string): string {
  return (
    messagePhrases(analyseText(phrase))
      .sort((a, b) => b.words - a.words || (a.key < b.key ? -1 : 1))
      .map((found) => found.key)[0] ?? ''
  );
}

export function replayCuration(corpus: Corpus, themes: WorkingTheme[], records: readonly Curation[], previous: ThemeModel | undefined): WorkingTheme[] {
  const byId = new Map(themes.map((theme) => [theme.id, theme]));
  const indexOf = new Map(corpus.messages.map((message, i) => [message.id, i]));
  for (const sketch of previous?.themes ?? []) {
    const theme = byId.get(sketch.id);
    if (theme && sketch.curated) theme.examples.push(sketchVector(sketch));
  }
  const themeOf = (i: number) => themes.find((theme) => theme.members.has(i));
  const remove = (i: number) => {
    for (const theme of themes) theme.members.delete(i);
  };
  const create = (id: string, label: string): WorkingTheme => {
    let theme = byId.get(id);
    if (!theme) {
      theme = { id, label, terms: [label], members: new Set(), curated: true, labelFixed: true, phraseKeys: [], examples: [] };
      themes.push(theme);
      byId.set(id, theme);
    }
    return theme;
  };
  const moves: Array<Extract<Curation, { kind: 'move' }>> = [];
  for (const record of records) {
    switch (record.kind) {
      case 'rename': {
        const theme = byId.get(record.themeId);
        if (theme) Object.assign(theme, { label: record.label, labelFixed: true, curated: true });
        break;
      }
      case 'merge': {
        const into = byId.get(record.into);
        if (!into) break;
        into.curated = true;
        for (const id of record.themeIds) {
          const source = byId.get(id);
          if (!source || source === into) continue;
          for (const member of source.members) into.members.add(member);
          into.examples.push(...source.examples);
          into.phraseKeys = [...new Set([...into.phraseKeys, ...source.phraseKeys])];
          themes.splice(themes.indexOf(source), 1);
          byId.delete(id);
        }
        break;
      }
      case 'split': {
        const parent = byId.get(record.themeId);
        const child = create(record.newThemeId, record.label);
        Object.assign(child, { label: record.label, labelFixed: true, curated: true });
        const key = record.phrase ? phraseKey(record.phrase) : undefined;
        if (key) child.phraseKeys = [...new Set([...child.phraseKeys, key])];
        for (const id of record.messageIds ?? []) {
          const i = indexOf.get(id);
          if (i === undefined) continue;
          remove(i);
          child.members.add(i);
        }
        if (parent && key) {
          for (const i of [...parent.members]) {
            if (corpus.phraseKeys[i].has(key)) {
              parent.members.delete(i);
              child.members.add(i);
            }
          }
        }
        break;
      }
      case 'move': {
        moves.push(record);
        applyMove(record);
        break;
      }
      case 'pin': {
        const theme = create(record.themeId, record.label);
        Object.assign(theme, { label: record.label, labelFixed: true, curated: true });
        theme.phraseKeys = [...new Set([...theme.phraseKeys, ...record.phrases.map((phrase) => phraseKey(phrase)).filter(Boolean)])];
        if (record.examples.length > 0) {
          const { vectors } = denseVectors(corpus.embedder, record.examples, corpus.component);
          record.examples.forEach((text, e) => {
            const terms = sparseTerms(analyseText(text));
            theme.examples.push({ dense: vectors[e], sparse: sparseVector(terms, corpus.idf, corpus.unseenIdf) });
          });
        }
        break;
      }
    }
  }
  function applyMove(record: Extract<Curation, { kind: 'move' }>): void {
    const i = indexOf.get(record.messageId);
    if (i === undefined) return;
    const target = record.themeId === null ? undefined : byId.get(record.themeId);
    if (record.themeId !== null && !target) return;
    remove(i);
    if (target) {
      target.members.add(i);
      target.curated = true;
    }
  }
  // Curated phrases take their messages from anywhere; then `other` joins the most similar curated theme.
  const curated = themes.filter((theme) => theme.curated).sort((a, b) => (a.id < b.id ? -1 : 1));
  const moved = new Set(moves.map((move) => indexOf.get(move.messageId)));
  corpus.messages.forEach((_, i) => {
    if (moved.has(i)) return;
    const byPhrase = curated.find((theme) => theme.phraseKeys.some((key) => corpus.phraseKeys[i].has(key)));
    if (byPhrase && !byPhrase.members.has(i)) {
      remove(i);
      byPhrase.members.add(i);
    }
  });
  const centroids = curated.map((theme) => {
    const vectors: MessageVector[] = [...[...theme.members].map((i) => corpus.vectors[i]), ...theme.examples];
    return {
      dense: denseCentroid(
        vectors.map((vector) => vector.dense),
        corpus.embedder.dimensions,
      ),
      sparse: sparseCentroid(vectors.map((vector) => vector.sparse)),
    };
  });
  corpus.messages.forEach((_, i) => {
    if (moved.has(i) || themeOf(i)) return;
    let best: WorkingTheme | undefined;
    let bestScore = MEMBER_THRESHOLD;
    curated.forEach((theme, c) => {
      if (theme.members.size === 0 && theme.examples.length === 0) return;
      const score = centroidSimilarity(corpus.vectors[i], centroids[c]);
      if (score >= bestScore) {
        best = theme;
        bestScore = score;
      }
    });
    best?.members.add(i);
  });
  for (const move of moves) applyMove(move);
  return themes;
}
