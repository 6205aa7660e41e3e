/**
 * Themes and phrases of short free-text feedback (issue 40): pure, no I/O, deterministic.
 * This is the contract the themes operations, the job, curation and the console build on;
 * docs/architecture.md ("Themes") maps it and docs/themes.md says how it was chosen and measured.
 *
 * Messages: `ThemeMessage { id, text }` (a response id and its free text; only active
 * responses, the caller filters quarantined and removed ones).
 *
 * 1. Discovery (the job, per set, when enough new messages came or daily):
 *    `discoverThemes(messages, { previous?, curation?, maxThemes?, minThemeSize?, embedder? })`
 *    -> `Discovery { themes, other, model }`.
 *    - `themes`: `Theme { id, label, terms, messageIds, exampleIds, curated }`, largest first
 *      (`exampleIds`: up to 10 to quote, the most typical first, no two near-duplicates). A
 *      message is in at most one theme; `other` lists the rest (noise, lone messages, small
 *      groups).
 *    - Same messages and options -> same themes, ids and labels (fixed seeds, sorted inputs).
 *    - `previous`: the last discovery's `model` (store it; JSON). A theme that persists keeps its
 *      id (matched by its members, see stable-ids.ts); curated themes always stay.
 *    - `curation`: every `Curation` record so far, oldest first (rename, merge, split, move,
 *      pin; see curation.ts): replayed over the new themes, so what people decided survives.
 *    - Cost: 20,000 messages within the bench's time and memory (docs/bench-themes.json): at most
 *      SAMPLE_LIMIT distinct messages are clustered, the rest assigned to the themes found.
 * 2. Incremental assignment (a new message, before the next discovery):
 *    `assignMessage(model, text, embedder)` -> a theme id, or null for `other`.
 * 3. Phrases: `analyseText(text)` then `messagePhrases(analysed)` -> a message's phrases
 *    (`{ key, surface, words }`; `key` is what `responses/list?phrase=` should match);
 *    `standoutPhrases(period, history, { limit, minMessages, previous })` -> the phrases that
 *    stand out in a period against the longer history (Dunning's log-likelihood ratio), each
 *    `{ key, text, count, messageIds, score, share }` and with `previous` its change.
 * 4. Shares: `shareOf(count, total)` (Wilson) and `shareWithChange(count, total, previousCount,
 *    previousTotal)` (Newcombe; `new`); `isRising(count, total, historyCount, historyTotal)`:
 *    significantly above its share in the history before the period (the "rising" flag of
 *    themes and phrases); `countsByTheme(themes, messageIds)` counts a period's (or the previous
 *    period's, or the history's) messages per theme.
 * 5. `Embedder` (text -> unit vector): the shipped one is `wordVectorEmbedder()` (SIF over 100,000
 *    GloVe words built into word-vectors.json, 7.5 MB, parsed on first use); a stronger model
 *    plugs in through the same interface. A model made by one embedder is never compared with
 *    vectors of another.
 *
 * Labels are 1-4 words drawn from the theme's messages, in the words visitors used (labels.ts).
 * Stop words of 16 languages are dropped by the message's guessed language (text.ts), so
 * messages in other languages never make a theme of stop words; near-duplicates count once
 * towards making a theme (near-duplicates.ts).
 */
export { assignMessage } from './assignment';
export { type Curation, phraseKey } from './curation';
export { type DiscoveryOptions, discoverThemes, SAMPLE_LIMIT, seededRandom } from './discovery';
export { type Embedder, parseWordVectors, shippedWordVectors, type WordVectorFile, type WordVectors, wordVectorEmbedder } from './embedder';
export { NEAR_DUPLICATE_THRESHOLD, nearDuplicateGroups } from './near-duplicates';
export { isSubPhrase, logLikelihoodRatio, messagePhrases, type Phrase, type PhraseMessage, type StandoutPhrase, standoutPhrases } from './phrases';
export { countsByTheme, isRising, type ShareOfPeriod, type ShareWithChange, shareOf, shareWithChange } from './shares';
export { type AnalysedText, analyseText, guessLanguage, normaliseText, spellingCorrections, WORD_KEYS_VERSION } from './text';
export type { Discovery, Theme, ThemeMessage, ThemeModel, ThemeSketch } from './types';
