/** The records theme discovery reads and writes (the contract is described in ./index.ts). */

/** A message to find themes in: an active response's free text. */
export interface ThemeMessage {
  /** The response id: themes list their messages by it. */
  id: string;
  text: string;
}

export interface Theme {
  /** Stable: kept by the theme that persists across discoveries (matched by members), or the curated theme's. */
  id: string;
  /** 1-4 words drawn from its messages ("code sample is broken"), or the curated label. */
  label: string;
  /** Up to 5 phrases that describe it, readable, the label's first. */
  terms: string[];
  /** Its messages' ids, sorted. A message is in at most one theme. */
  messageIds: string[];
  /** Up to 10 of them to quote: the most typical first (nearest its centroid), one per near-duplicate group. */
  exampleIds: string[];
  /** Set by curation (renamed, pinned, merged into, split off, or moved into): people decided about it. */
  curated: boolean;
}

/**
 * What the next discovery and the incremental assignment need of a theme: store it with the
 * discovery (JSON: numbers and strings only) and pass it back as `previous`.
 */
export interface ThemeSketch {
  id: string;
  label: string;
  terms: string[];
  curated: boolean;
  /** Up to `SKETCH_MEMBERS` member ids (those of the smallest hash: a uniform sample that the next discovery's members overlap). */
  memberSample: string[];
  /** How many messages it had. */
  count: number;
  /** The dense centroid, 4 decimals. */
  dense: number[];
  /** The sparse centroid's terms and weights (4 decimals). */
  sparse: Record<string, number>;
  /** Phrase keys that put a message in it outright (from curation: pinned or split by a phrase). */
  phraseKeys: string[];
  /** A new message joins it at this similarity to its centroid or more (the bar discovery held its members to). */
  threshold: number;
}

export interface ThemeModel {
  version: 1;
  /** The embedder's name: a model made by another embedder is not compared (ids are then matched by members alone). */
  embedder: string;
  /** The corpus's common direction, removed from every dense vector (4 decimals). */
  component: number[];
  /** Inverse document frequencies of the sketches' sparse terms, and the one of an unseen term. */
  idf: Record<string, number>;
  unseenIdf: number;
  themes: ThemeSketch[];
}

export interface Discovery {
  /** Largest first (ties by id). */
  themes: Theme[];
  /** Ids of the messages in no theme, sorted. */
  other: string[];
  model: ThemeModel;
}
