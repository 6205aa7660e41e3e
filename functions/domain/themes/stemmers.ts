import type { StopWordLanguage } from './stop-words';

/**
 * The Snowball stemmer of each language (the maintained `snowball-stemmers` port of Martin
 * Porter's algorithms; English is Porter2), one instance per language, made at first use.
 */
const SNOWBALL_NAMES: Record<StopWordLanguage, string> = {
  en: 'english',
  de: 'german',
  fr: 'french',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  nl: 'dutch',
  sv: 'swedish',
  da: 'danish',
  no: 'norwegian',
  fi: 'finnish',
  pl: '',
  ro: 'romanian',
  hu: 'hungarian',
  tr: 'turkish',
  ru: 'russian',
};

interface SnowballStemmers {
  newStemmer(name: string): { stem(word: string): string };
}

const stemmers = new Map<StopWordLanguage, (word: string) => string>();

export function stemmerFor(language: StopWordLanguage): (word: string) => string {
  let stem = stemmers.get(language);
  if (!stem) {
    const name = SNOWBALL_NAMES[language];
    if (name === '') {
      stem = (word) => word; // Snowball has no Polish stemmer: Polish words are compared as written.
    } else {
      const stemmer = (require('snowball-stemmers') as SnowballStemmers).newStemmer(name);
      const cache = new Map<string, string>();
      stem = (word) => {
        let stemmed = cache.get(word);
        if (stemmed === undefined) {
          stemmed = stemmer.stem(word);
          if (cache.size < 200_000) cache.set(word, stemmed);
        }
        return stemmed;
      };
    }
    stemmers.set(language, stem);
  }
  return stem;
}
