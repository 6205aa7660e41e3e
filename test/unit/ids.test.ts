import fc from 'fast-check';
import { csvCells } from '../../functions/domain/export-format';
import { contentSetOfItemId, fnv1a, ID_PATTERN, idOf, newContentItemId, newId } from '../../functions/domain/text';

describe('ids', () => {
  test('fnv1a: the published FNV-1a 32-bit test vectors', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });

  test('newId: 22 URL-safe characters, different every time', () => {
    const ids = Array.from({ length: 100 }, newId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(100);
  });

  test('idOf: the bytes in base64url, a leading "-" (a spreadsheet formula) replaced by "_"', () => {
    expect(idOf(Buffer.from([0xf8, 0, 0]))).toBe('_AAA');
    expect(idOf(Buffer.from([0xfc, 0, 0]))).toBe('_AAA');
    expect(idOf(Buffer.from([0, 0, 0]))).toBe('AAAA');
  });

  test('every id survives the CSV formula guard unchanged', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
        const id = idOf(bytes);
        expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
        expect(csvCells([id])).toBe(`${id}\r\n`);
      }),
      { numRuns: 2000 },
    );
  });

  test("a content item's id is its set's id then a new id, and names that set", () => {
    const setId = newId();
    const itemId = newContentItemId(setId);
    expect(itemId).toHaveLength(44);
    expect(itemId.startsWith(setId)).toBe(true);
    expect(newContentItemId(setId)).not.toBe(itemId);
    expect(contentSetOfItemId(itemId)).toBe(setId);
    expect(ID_PATTERN.test(itemId)).toBe(true);
  });

  test.each([
    ['a 22-character id (issued before item ids carried their set)', newId()],
    ['43 characters', newId() + newId().slice(1)],
    ['45 characters', `${newId()}${newId()}x`],
    ['44 characters with one outside the alphabet', `${newId()}${newId().slice(1)}.`],
    ['empty', ''],
  ])('names no set: %s', (_name, id) => {
    expect(contentSetOfItemId(id)).toBeUndefined();
  });

  test.each(['', 'a'.repeat(21), 'a'.repeat(23), 'a'.repeat(43), 'a'.repeat(45), `${'a'.repeat(21)}=`])('ID_PATTERN refuses %p', (text) => {
    expect(ID_PATTERN.test(text)).toBe(false);
  });
});
