/**
 * The one rule for every name a person reads: an account's, a project's, a set's, an
 * item's title, a key's label, a webhook's description, a member's display name (docs/api.md,
 * "Names people read"). A name is NFC, trimmed, and holds no Unicode control character (Cc),
 * format character (Cf: bidirectional overrides and isolates, zero-width spaces and joiners,
 * soft hyphens, ...), line or paragraph separator, lone surrogate or noncharacter: those
 * are invisible or reorder what is shown, so "Acme" followed by U+202E and "emcA" reads as
 * another name. Two sequences of such characters draw visible emoji and are kept: a
 * zero-width joiner between two pictographs (👩‍💻, 🏳️‍🌈) and the tag characters of a
 * subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
 *
 * Pure and without zod: the API refines its models with it (functions/api/models.ts
 * `nameText`), the console shows stored names through `readableName`, and mail and chat
 * notifications can use either.
 */

/** A zero-width joiner inside an emoji sequence: after a pictograph (with its variation selector or skin tone), before one. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}\uFE0F?\p{Emoji_Modifier}?)\u200D(?=\p{Extended_Pictographic})/gu;
/** A subdivision flag: the black flag, tag characters, the cancel tag. */
const EMOJI_TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
/** Control and format characters, line and paragraph separators, lone surrogates. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** U+FDD0 to U+FDEF, and the last two code points of every plane. */
function isNoncharacter(codePoint: number): boolean {
  return (codePoint >= 0xfdd0 && codePoint <= 0xfdef) || (codePoint & 0xfffe) === 0xfffe;
}

function isRefused(character: string): boolean {
  return INVISIBLE.test(character) || isNoncharacter(character.codePointAt(0)!);
}

/** A code point as people look it up: U+202E. */
export function codePointName(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The characters of `text` outside the emoji sequences that may hold joiners and tags, each with whether the rule refuses it. */
function characters(text: string): { character: string; refused: boolean }[] {
  const kept = new Set<number>();
  for (const pattern of [EMOJI_JOINER, EMOJI_TAG_SEQUENCE]) {
    for (const match of text.matchAll(pattern)) for (let index = match.index; index < match.index + match[0].length; index++) kept.add(index);
  }
  const result: { character: string; refused: boolean }[] = [];
  let index = 0;
  for (const character of text) {
    result.push({ character, refused: !kept.has(index) && isRefused(character) });
    index += character.length;
  }
  return result;
}

/** A name as the rule keeps it: NFC, without leading or trailing white space. */
export function normalizedName(text: string): string {
  return text.normalize('NFC').trim();
}

/** What the rule says of a name already normalized, or undefined when it holds. */
export function nameProblem(name: string): string | undefined {
  const refused = characters(name).find((entry) => entry.refused);
  if (refused === undefined) return undefined;
  return `must not contain ${codePointName(refused.character)}: a name holds no control or format characters (such as bidirectional overrides or zero-width characters), line separators or noncharacters`;
}

/**
 * A stored name as the console shows it: every character the rule refuses written out as
 * its code point (`Acme⟦U+202E⟧emcA`), so a name stored before the rule can neither hide
 * characters nor reorder the text around it. The stored name is not changed.
 */
export function readableName(name: string): string {
  return characters(name)
    .map((entry) => (entry.refused ? `⟦${codePointName(entry.character)}⟧` : entry.character))
    .join('');
}
