import fc from 'fast-check';
import { nameProblem, normalizedName, readableName } from '../../shared/names';

/** The one rule of names people read (shared/names.ts, issue 39 §5). */
const problem = (text: string) => nameProblem(normalizedName(text));

describe('normalizedName', () => {
  it('is NFC and trimmed', () => {
    expect(normalizedName('  Cafe\u0301\t')).toBe('Café');
    expect(normalizedName('\u212B')).toBe('Å'); // the Ångström sign's canonical equivalent
    expect(normalizedName('\u00A0Docs\u3000')).toBe('Docs');
  });
});

describe('nameProblem', () => {
  it.each([
    ['Acme\u202Eevil', 'U+202E'],
    ['\u202Aa', 'U+202A'],
    ['a\u2066b\u2069', 'U+2066'],
    ['a\u061Cb', 'U+061C'], // Arabic letter mark
    ['a\u200Eb', 'U+200E'],
    ['a\u200Bb', 'U+200B'],
    ['a\u200Cb', 'U+200C'],
    ['a\u200Db', 'U+200D'],
    ['a\u2060b', 'U+2060'],
    ['a\uFEFFb', 'U+FEFF'],
    ['a\u00ADb', 'U+00AD'],
    ['a\u0000b', 'U+0000'],
    ['a\u001Bb', 'U+001B'],
    ['a\u007Fb', 'U+007F'],
    ['a\u0085b', 'U+0085'],
    ['a\nb', 'U+000A'],
    ['a\u2028b', 'U+2028'],
    ['a\u2029b', 'U+2029'],
    ['a\uD800b', 'U+D800'], // a lone surrogate
    ['a\uFDD0b', 'U+FDD0'],
    ['a\uFFFEb', 'U+FFFE'],
    ['a\u{1FFFF}b', 'U+1FFFF'],
    ['a\u{10FFFE}', 'U+10FFFE'],
    ['a\u{E0061}', 'U+E0061'], // a tag character outside a flag
    ['x\u200D👩', 'U+200D'], // a joiner after a letter
    ['👩\u200Dx', 'U+200D'], // a joiner before a letter
    ['1\u200D2', 'U+200D'],
  ])('refuses %j, naming %s', (text, codePoint) => {
    expect(problem(text)).toMatch(new RegExp(`^must not contain ${codePoint.replace('+', '\\+')}:`));
  });

  it.each([
    'Acme',
    'Café',
    'مرحبا بالعالم', // right-to-left letters are text, not overrides
    'שלום',
    '日本語のドキュメント',
    'हिन्दी',
    '👩‍💻 Team',
    '🧑🏽‍💻',
    '👨‍👩‍👧‍👦',
    '🏳️‍🌈',
    '🏳️‍⚧️',
    '❤️‍🔥',
    '🐻‍❄️',
    '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
    '🇫🇷 France',
    'Docs (v2) — “beta”',
    'a\uE000b', // private use: not refused
  ])('takes %j', (text) => {
    expect(problem(text)).toBeUndefined();
  });
});

describe('readableName', () => {
  it('writes out what the rule refuses, keeping the rest and emoji sequences', () => {
    expect(readableName('Acme\u202Eevil')).toBe('Acme⟦U+202E⟧evil');
    expect(readableName('a\u200Bb\u0007')).toBe('a⟦U+200B⟧b⟦U+0007⟧');
    expect(readableName('👩‍💻 and a\u200Db')).toBe('👩‍💻 and a⟦U+200D⟧b');
    expect(readableName('Plain name')).toBe('Plain name');
  });

  it('leaves nothing the rule refuses, whatever was stored', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (stored) => {
        expect(nameProblem(readableName(stored))).toBeUndefined();
      }),
      { seed: 39, numRuns: 300 },
    );
  });

  it('changes no name the rule takes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (text) => {
        const name = normalizedName(text);
        fc.pre(nameProblem(name) === undefined);
        expect(readableName(name)).toBe(name);
      }),
      { seed: 39, numRuns: 300 },
    );
  });
});
