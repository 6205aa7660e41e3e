import {
  analyseText,
  assignMessage,
  type Curation,
  countsByTheme,
  type Discovery,
  discoverThemes,
  guessLanguage,
  isRising,
  logLikelihoodRatio,
  messagePhrases,
  nearDuplicateGroups,
  normaliseText,
  type PhraseMessage,
  phraseKey,
  seededRandom,
  shareOf,
  shareWithChange,
  shippedWordVectors,
  spellingCorrections,
  standoutPhrases,
  type ThemeMessage,
  wordVectorEmbedder,
} from '../../functions/domain/themes';
import { scoreChange, scoreInterval } from '../../functions/domain/statistics';

const lexicon = shippedWordVectors();
const analysed = (text: string) => analyseText(text);
const stemsOf = (text: string) => analysed(text).contentStems;

/**
 * A small feedback corpus made with a fixed seed: three reasons, each said in several ways
 * (never one keyword), noise, a repeated spam text and near-duplicates.
 */
const REASONS: Record<string, string[]> = {
  refund: [
    'still waiting for my refund',
    'where is my refund',
    'refund not received after two weeks',
    'I never got my money back',
    'no refund yet for the returned shoes',
    'my refund is taking forever',
    'money back still missing',
    'waiting on the refund for a month',
  ],
  crash: [
    'the app crashes on startup',
    'crashes every time I open it',
    'it keeps crashing after the update',
    'app crashed and closed',
    'crash when I open a note',
    'constant crashes since the update',
    'the app crashes on my phone',
    'crashing all the time',
  ],
  darkMode: [
    'please add a dark mode',
    'dark mode would be great',
    'need a dark theme for the night',
    'dark mode please',
    'any plans for dark mode',
    'the screen is too bright, dark theme please',
    'I want a dark mode',
    'a dark theme would help my eyes',
  ],
};
const NOISE = ['ok', 'asdf', '👍', '?', 'hello', 'lol', 'test', 'xx'];

function corpus(seed: number, prefix = 'm'): { messages: ThemeMessage[]; gold: Map<string, string> } {
  const random = seededRandom(seed);
  const messages: ThemeMessage[] = [];
  const gold = new Map<string, string>();
  let n = 0;
  const add = (text: string, label: string) => {
    const id = `${prefix}${String(n++).padStart(3, '0')}`;
    messages.push({ id, text });
    gold.set(id, label);
  };
  for (const [label, texts] of Object.entries(REASONS)) for (const text of texts) add(random() < 0.5 ? text : `${text}!`, label);
  for (const text of NOISE) add(text, 'noise');
  for (let i = 0; i < 6; i++) add('Buy cheap watches now', 'spam');
  return { messages, gold };
}

function themeOf(discovery: Discovery, id: string): string | undefined {
  return discovery.themes.find((theme) => theme.messageIds.includes(id))?.id;
}

function majority(discovery: Discovery, gold: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const theme of discovery.themes) {
    const counts = new Map<string, number>();
    for (const id of theme.messageIds) counts.set(gold.get(id) ?? '', (counts.get(gold.get(id) ?? '') ?? 0) + 1);
    out.set([...counts].sort((a, b) => b[1] - a[1])[0][0], theme.id);
  }
  return out;
}

describe('text', () => {
  test('normalises case, width and apostrophes', () => {
    expect(normaliseText('  Doesn’t   WORK ')).toBe("doesn't work");
  });

  test('one key for inflections, spelling variants and negations', () => {
    expect(stemsOf('crashes')).toEqual(stemsOf('crashing'));
    expect(stemsOf('colour')).toEqual(stemsOf('color'));
    expect(analysed("doesn't").tokens[0]).toMatchObject({ stem: 'not', negation: true, stop: false });
    expect(analysed('never').tokens[0].stem).toBe('not');
  });

  test('British and American spellings of a phrase have one key, with and without the word vectors loaded', () => {
    const pairs = [
      ['colour', 'color'],
      ['wrong colours', 'wrong colors'],
      ['coloured buttons', 'colored buttons'],
      ['odd behaviour', 'odd behavior'],
      ['order cancelled', 'order canceled'],
      ['cancelling my order', 'canceling my order'],
      ['organise the menu', 'organize the menu'],
      ['organised', 'organized'],
      ['favourite', 'favorite'],
      ['licence key', 'license key'],
      ['grey text', 'gray text'],
      ['catalogue', 'catalog'],
      ['customisation options', 'customization options'],
    ];
    for (const [british, american] of pairs) {
      expect({ british, key: phraseKey(british) }).toEqual({ british, key: phraseKey(american) });
      expect({ british, key: messagePhrases(analyseText(british)).map((phrase) => phrase.key) }).toEqual({
        british,
        key: messagePhrases(analyseText(american)).map((phrase) => phrase.key),
      });
    }
    // The surface stays as the visitor wrote it; the word vectors look up the American word.
    expect(analysed('colour').tokens[0]).toMatchObject({ surface: 'colour', word: 'color' });
    // Words that only look like a British spelling stay themselves.
    for (const [word, other] of [
      ['four', 'for'],
      ['hour', 'hor'],
      ['tour', 'tor'],
      ['filled', 'filed'],
      ['filling', 'filing'],
      ['rise', 'rize'],
      ['noise', 'noize'],
    ]) {
      expect({ word, key: phraseKey(word) }).not.toEqual({ word, key: phraseKey(other) });
      expect(analysed(word).tokens[0].word).toBe(word);
    }
  });

  test('guesses the language by stop words and drops that language’s', () => {
    expect(guessLanguage('der code funktioniert nicht mehr'.split(' '))).toBe('de');
    expect(guessLanguage('el ejemplo no funciona'.split(' '))).toBe('es');
    expect(guessLanguage('code sample is broken'.split(' '))).toBe('en');
    expect(analysed('Die Anleitung ist veraltet').contentStems).toEqual(['anleit', 'veraltet']);
    expect(analysed('el código no funciona').contentStems).not.toContain('el');
  });

  test('corrects a misspelling to the corpus word one edit away, not a known word', () => {
    const corrections = spellingCorrections(['the sampel crashes', 'the sample code', 'a sample', 'exmaple please', 'an example'], lexicon);
    expect(corrections.get('sampel')).toBe('sample');
    expect(corrections.get('exmaple')).toBe('example');
    expect(corrections.has('sample')).toBe(false);
    expect(spellingCorrections(['sampel', 'sample'], undefined).size).toBe(0);
  });
});

describe('near-duplicates', () => {
  test('groups the same text sent twice and near copies, not other texts', () => {
    const groups = nearDuplicateGroups([
      'Still no refund!!',
      'still no refund',
      'where is my package',
      'Where is my packages?',
      'refund please',
      'where is my refund',
    ]);
    expect(groups).toEqual([0, 0, 2, 2, 4, 5]);
  });

  test('is deterministic and order-independent in its pairs', () => {
    const random = seededRandom(3);
    const texts = Array.from({ length: 300 }, (_, i) => `message number ${Math.floor(random() * 50)} about ${i % 7 === 0 ? 'refunds' : 'crashes'}`);
    const once = nearDuplicateGroups(texts);
    expect(nearDuplicateGroups(texts)).toEqual(once);
    for (let i = 0; i < texts.length; i++) if (once[i] !== i) expect(once[once[i]]).toBe(once[i]);
  });
});

describe('phrases', () => {
  test('one to three content words of a clause, keyed by stems, shown as written', () => {
    const phrases = messagePhrases(analysed('The code sample is broken, it throws'));
    const byKey = new Map(phrases.map((phrase) => [phrase.key, phrase.surface]));
    expect(byKey.get('code sampl broken')).toBe('code sample is broken');
    expect(byKey.has('broken throw')).toBe(false); // across the comma
    expect(messagePhrases(analysed('charged twice')).map((phrase) => phrase.key)).toEqual(
      messagePhrases(analysed('Charging twice!')).map((phrase) => phrase.key),
    );
  });

  test('a negation opens a phrase but never ends or is one', () => {
    const keys = messagePhrases(analysed('no example for python')).map((phrase) => phrase.key);
    expect(keys).toContain('not exampl');
    expect(keys).not.toContain('not');
    expect(keys.every((key) => !key.endsWith(' not'))).toBe(true);
  });

  test("Dunning's G² equals 2N times the mutual information of the table", () => {
    const [k1, n1, k2, n2] = [12, 31, 2, 40];
    const cells = [k1, n1 - k1, k2, n2 - k2];
    const n = n1 + n2;
    const h = (values: number[]) => -values.filter((v) => v > 0).reduce((sum, v) => sum + (v / n) * Math.log(v / n), 0);
    const mutualInformation = h([n1, n2]) + h([k1 + k2, n - k1 - k2]) - h(cells);
    expect(logLikelihoodRatio(k1, n1, k2, n2)).toBeCloseTo(2 * n * mutualInformation, 10);
    expect(logLikelihoodRatio(5, 50, 10, 100)).toBeCloseTo(0, 10);
  });

  test('stand out against the history, near-duplicates counted once, with their change', () => {
    const message = (id: string, text: string): PhraseMessage => ({ id, text: analysed(text), raw: text });
    const history = Array.from({ length: 40 }, (_, i) => message(`h${i}`, i % 2 ? 'the search is slow' : 'where is my refund'));
    const period = [
      message('p1', 'I was charged twice'),
      message('p2', 'charged twice for one order'),
      message('p3', 'Charged twice!!'),
      message('p4', 'where is my refund'),
      message('p5', 'spam spam offer'),
      message('p6', 'spam spam offer'),
      message('p7', 'spam spam offer'),
    ];
    const previous = Array.from({ length: 20 }, (_, i) => message(`b${i}`, i % 2 ? 'where is my refund' : 'search is slow'));
    const phrases = standoutPhrases(period, history, { previous });
    expect(phrases[0]).toMatchObject({ key: 'charg twice', text: 'charged twice', count: 3, messageIds: ['p1', 'p2', 'p3'], new: true });
    expect(phrases.some((phrase) => phrase.key.includes('spam'))).toBe(false); // one visitor's three copies
    expect(phrases.some((phrase) => phrase.key === 'charg')).toBe(false); // gives way to "charged twice"
    expect(phrases.some((phrase) => phrase.key === 'refund')).toBe(false); // not above its history
    expect(phrases[0].share).toEqual(scoreInterval({ kind: 'proportion', successes: 3, n: 7 }));
  });
});

describe('discovery', () => {
  const { messages, gold } = corpus(40);
  const discovery = discoverThemes(messages);

  test('finds each reason as one theme, labelled in its messages’ words', () => {
    const found = majority(discovery, gold);
    for (const reason of Object.keys(REASONS)) {
      const theme = discovery.themes.find((candidate) => candidate.id === found.get(reason));
      expect(theme).toBeDefined();
      const members = theme?.messageIds ?? [];
      expect(members.filter((id) => gold.get(id) === reason).length).toBeGreaterThanOrEqual(6);
      expect(members.every((id) => gold.get(id) === reason)).toBe(true);
    }
    const labels = discovery.themes.map((theme) => theme.label);
    expect(labels.some((label) => label.includes('refund'))).toBe(true);
    expect(labels.some((label) => label.includes('dark'))).toBe(true);
    expect(labels.some((label) => label.includes('crash'))).toBe(true);
    for (const theme of discovery.themes) {
      expect(theme.label.split(' ').length).toBeLessThanOrEqual(4);
      expect(theme.terms[0]).toBe(theme.label);
      expect(theme.exampleIds.length).toBeGreaterThan(0);
      expect(theme.exampleIds.every((id) => theme.messageIds.includes(id))).toBe(true);
      const texts = theme.exampleIds.map((id) => messages.find((message) => message.id === id)?.text ?? '');
      expect(new Set(nearDuplicateGroups(texts)).size).toBe(texts.length);
    }
  });

  test('noise and one visitor’s repeated text stay in other; every message once', () => {
    for (const [id, label] of gold) if (label === 'noise' || label === 'spam') expect(discovery.other).toContain(id);
    const all = [...discovery.themes.flatMap((theme) => theme.messageIds), ...discovery.other];
    expect(all.sort()).toEqual(messages.map((message) => message.id).sort());
  });

  test('messages in other languages never make a theme of stop words', () => {
    const foreign = [
      'die Seite ist alt',
      'das ist nicht gut',
      'die App ist langsam',
      'der Link ist kaputt',
      'el pedido no llega',
      'el código no va',
      'la app es lenta',
    ];
    const result = discoverThemes([...messages, ...foreign.map((text, i) => ({ id: `f${i}`, text }))]);
    for (const theme of result.themes) for (const term of theme.terms) expect(['die', 'das', 'der', 'ist', 'el', 'la', 'es', 'no']).not.toContain(term);
  });

  test('is deterministic: same messages in any order, same themes, ids and labels', () => {
    const shuffled = [...messages].sort((a, b) => (a.text < b.text ? -1 : 1));
    expect(discoverThemes(shuffled)).toEqual(discovery);
  });

  test('a persisting theme keeps its id; a new theme gets a new one', () => {
    const more = corpus(41, 'n');
    const next = discoverThemes([...messages.slice(4), ...more.messages], { previous: discovery.model });
    const before = majority(discovery, gold);
    const after = majority(next, new Map([...gold, ...more.gold]));
    for (const reason of Object.keys(REASONS)) expect(after.get(reason)).toBe(before.get(reason));
    // Entirely new messages (the window moved on): matched by centroid.
    const moved = discoverThemes(more.messages, { previous: discovery.model });
    expect(majority(moved, more.gold).get('refund')).toBe(before.get('refund'));
  });

  test('assigns a new message to its theme within the model, noise to none', () => {
    const refund = majority(discovery, gold).get('refund');
    const embedder = wordVectorEmbedder();
    expect(assignMessage(discovery.model, 'still no refund for my order', embedder)).toBe(refund);
    expect(assignMessage(discovery.model, 'asdf', embedder)).toBeNull();
    expect(assignMessage({ ...discovery.model, embedder: 'another' }, 'still no refund', embedder)).toBeNull();
  });

  test('the model is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(discovery.model))).toEqual(discovery.model);
  });
});

describe('curation replayed over a new discovery', () => {
  const { messages, gold } = corpus(40);
  const first = discoverThemes(messages);
  const ids = majority(first, gold);
  const refund = ids.get('refund') as string;
  const crash = ids.get('crash') as string;
  const dark = ids.get('darkMode') as string;
  const more = corpus(42, 'n');
  const later = [...messages, ...more.messages];

  test('a renamed theme keeps its id and label', () => {
    const curation: Curation[] = [{ kind: 'rename', themeId: refund, label: 'Refund delays' }];
    const renamed = discoverThemes(messages, { previous: first.model, curation });
    const again = discoverThemes(later, { previous: renamed.model, curation });
    expect(again.themes.find((theme) => theme.id === refund)).toMatchObject({ label: 'Refund delays', curated: true });
  });

  test('a renamed theme, and a moved message’s theme, stay when the discovery after the record continues neither', () => {
    const refundless = messages.filter((message) => gold.get(message.id) !== 'refund');
    const [moved] = refundless;
    // On its own, that discovery drops the theme: none of its messages is left, and no cluster is like it.
    expect(discoverThemes(refundless, { previous: first.model }).themes.some((theme) => theme.id === refund)).toBe(false);
    const curation: Curation[] = [
      { kind: 'rename', themeId: refund, label: 'Refund delays' },
      { kind: 'move', messageId: moved.id, themeId: refund },
    ];
    const renamed = discoverThemes(refundless, { previous: first.model, curation });
    expect(renamed.themes.find((theme) => theme.id === refund)).toMatchObject({ label: 'Refund delays', curated: true, messageIds: [moved.id] });
    // Its model marks it curated: a later message like its old ones joins it.
    const arrival = { id: 'r1', text: 'still waiting for my refund' };
    const again = discoverThemes([...refundless, arrival], { previous: renamed.model, curation });
    expect(again.themes.find((theme) => theme.id === refund)?.messageIds).toEqual(expect.arrayContaining([moved.id, arrival.id]));
  });

  test('merged themes stay merged', () => {
    const curation: Curation[] = [{ kind: 'merge', themeIds: [crash, dark], into: crash }];
    const merged = discoverThemes(messages, { previous: first.model, curation });
    expect(merged.themes.some((theme) => theme.id === dark)).toBe(false);
    const again = discoverThemes(later, { previous: merged.model, curation });
    const theme = again.themes.find((candidate) => candidate.id === crash);
    const golds = new Set(theme?.messageIds.map((id) => gold.get(id) ?? more.gold.get(id)));
    expect(golds).toEqual(new Set(['crash', 'darkMode']));
    expect(again.themes.some((candidate) => candidate.id === dark)).toBe(false);
  });

  test('a split by phrase takes the phrase’s messages, also later ones', () => {
    const curation: Curation[] = [{ kind: 'split', themeId: crash, newThemeId: 'after-update', label: 'Since the update', phrase: 'update' }];
    const split = discoverThemes(messages, { previous: first.model, curation });
    const child = split.themes.find((theme) => theme.id === 'after-update');
    expect(child?.messageIds.map((id) => messages.find((message) => message.id === id)?.text.replace('!', ''))).toEqual([
      'it keeps crashing after the update',
      'constant crashes since the update',
    ]);
    const again = discoverThemes([...later, { id: 'z1', text: 'crashes after the latest update' }], { previous: split.model, curation });
    expect(again.themes.find((theme) => theme.id === 'after-update')?.messageIds).toContain('z1');
  });

  test('a split by messages and a moved message stay where people put them', () => {
    const [one, two] = first.themes.find((theme) => theme.id === refund)?.messageIds ?? [];
    const curation: Curation[] = [
      { kind: 'split', themeId: refund, newThemeId: 'picked', label: 'Picked', messageIds: [one] },
      { kind: 'move', messageId: two, themeId: dark },
      { kind: 'move', messageId: 'm016', themeId: null },
    ];
    const curated = discoverThemes(later, { previous: first.model, curation });
    expect(themeOf(curated, one)).toBe('picked');
    expect(themeOf(curated, two)).toBe(dark);
    expect(curated.other).toContain('m016');
  });

  test('a pinned theme keeps id and label and takes new messages by phrase and by similarity', () => {
    const curation: Curation[] = [
      { kind: 'pin', themeId: 'sizes', label: 'Sizing', phrases: ['size chart'], examples: ['the shoes run small, order a size up', 'sizes are too small'] },
    ];
    const pinned = discoverThemes(messages, { previous: first.model, curation });
    expect(pinned.themes.find((theme) => theme.id === 'sizes')).toMatchObject({ label: 'Sizing', curated: true, messageIds: [] });
    const arrivals = [
      { id: 'y1', text: 'the size chart is wrong' },
      { id: 'y2', text: 'the shoes run small' },
    ];
    const again = discoverThemes([...later, ...arrivals], { previous: pinned.model, curation });
    expect(again.themes.find((theme) => theme.id === 'sizes')).toMatchObject({ label: 'Sizing', messageIds: ['y1', 'y2'] });
    expect(assignMessage(again.model, 'your size chart is off', wordVectorEmbedder())).toBe('sizes');
  });
});

describe('shares', () => {
  test('Wilson share, Newcombe change, new and rising', () => {
    expect(shareOf(12, 31).share).toEqual(scoreInterval({ kind: 'proportion', successes: 12, n: 31 }));
    const change = shareWithChange(12, 31, 2, 40);
    expect(change.change).toEqual(scoreChange({ kind: 'proportion', successes: 12, n: 31 }, { kind: 'proportion', successes: 2, n: 40 }));
    expect(change).toMatchObject({ count: 12, previous: { count: 2 }, new: false });
    expect(shareWithChange(3, 30, 0, 30)).toMatchObject({ new: true });
    expect(isRising(12, 31, 2, 40)).toBe(true);
    expect(isRising(3, 30, 0, 30)).toBe(false); // new, but three of thirty is no sure rise
    expect(isRising(3, 30, 4, 30)).toBe(false);
    expect(isRising(2, 40, 12, 31)).toBe(false); // falling
  });

  test('counts a period’s messages per theme and other', () => {
    const counts = countsByTheme(
      [
        { id: 'a', messageIds: ['1', '2'] },
        { id: 'b', messageIds: ['3'] },
      ],
      ['1', '3', '4', '5'],
    );
    expect([...counts]).toEqual([
      ['a', 1],
      ['b', 1],
      ['other', 2],
    ]);
  });
});
