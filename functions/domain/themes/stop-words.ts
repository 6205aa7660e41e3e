/**
 * Stop words of the languages whose messages theme discovery recognises, from the maintained
 * `stopword` package (its lists, apostrophes dropped as the tokeniser drops them). A message in
 * one of these languages loses its language's stop words, so "die", "el" or "le" never make a
 * theme; a message in another language keeps its words, which rarely meet enough others to.
 */
export const STOP_WORD_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'da', 'no', 'fi', 'pl', 'ro', 'hu', 'tr', 'ru'] as const;
export type StopWordLanguage = (typeof STOP_WORD_LANGUAGES)[number];

/** The `stopword` package's lists (it ships no types). */
const stopword = require('stopword') as Record<string, string[]>;

const LISTS: Record<StopWordLanguage, readonly string[]> = {
  en: stopword.eng,
  de: stopword.deu,
  fr: stopword.fra,
  es: stopword.spa,
  it: stopword.ita,
  pt: stopword.por,
  nl: stopword.nld,
  sv: stopword.swe,
  da: stopword.dan,
  no: stopword.nob,
  fi: stopword.fin,
  pl: stopword.pol,
  ro: stopword.ron,
  hu: stopword.hun,
  tr: stopword.tur,
  ru: stopword.rus,
};

const sets = new Map<StopWordLanguage, Set<string>>();

export function stopWordsOf(language: StopWordLanguage): ReadonlySet<string> {
  let set = sets.get(language);
  if (!set) {
    set = new Set(LISTS[language].map((word) => word.normalize('NFKC').toLowerCase().replace(/['’]/g, '')));
    sets.set(language, set);
  }
  return set;
}
