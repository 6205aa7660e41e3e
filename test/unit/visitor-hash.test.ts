import { addressHash, saltDay, visitorResponseId } from '../../functions/domain/visitor-hash';
import { ID_PATTERN } from '../../functions/domain/text';

/** The visitor's response id of a day (functions/domain/visitor-hash.ts). */
const salt = Buffer.alloc(32, 7);
const visitor = { addressKey: '198.51.100.7', userAgent: 'Mozilla/5.0 Firefox/140.0' };
const target = { contentSetId: 'S'.repeat(22), contentItemId: 'I'.repeat(44) };

test('the same visitor, item and salt: the same response id, shaped like every id', () => {
  const id = visitorResponseId(salt, visitor, target);
  expect(visitorResponseId(Buffer.alloc(32, 7), { ...visitor }, { ...target })).toBe(id);
  expect(id).toMatch(ID_PATTERN);
  expect(id).toHaveLength(22);
});

test('any other address, user agent, set, item or salt (day): another id', () => {
  const id = visitorResponseId(salt, visitor, target);
  const others = [
    visitorResponseId(salt, { ...visitor, addressKey: '198.51.100.8' }, target),
    visitorResponseId(salt, { ...visitor, userAgent: 'Mozilla/5.0 Firefox/141.0' }, target),
    visitorResponseId(salt, visitor, { ...target, contentSetId: 'T'.repeat(22) }),
    visitorResponseId(salt, visitor, { ...target, contentItemId: 'J'.repeat(44) }),
    visitorResponseId(Buffer.alloc(32, 8), visitor, target),
    // Parts are separated: moving text from one part to the next is another visitor.
    visitorResponseId(salt, { addressKey: '198.51.100.7M', userAgent: 'ozilla/5.0 Firefox/140.0' }, target),
  ];
  expect(new Set([id, ...others]).size).toBe(others.length + 1);
});

test('a salt serves the UTC day of the instant', () => {
  expect(saltDay(new Date('2026-11-27T23:59:59.999Z'))).toBe('2026-11-27');
  expect(saltDay(new Date('2026-11-28T00:00:00.000Z'))).toBe('2026-11-28');
});

describe('the address hash', () => {
  test('the same address, item and salt: the same hash, whatever the user agent; shaped like an id', () => {
    const hash = addressHash(salt, visitor.addressKey, target);
    expect(addressHash(Buffer.alloc(32, 7), '198.51.100.7', { ...target })).toBe(hash);
    expect(hash).toMatch(ID_PATTERN);
    expect(hash).toHaveLength(22);
  });

  test('any other address, set, item or salt (day): another hash; never a visitor hash', () => {
    const hash = addressHash(salt, visitor.addressKey, target);
    const others = [
      addressHash(salt, '198.51.100.8', target),
      addressHash(salt, visitor.addressKey, { ...target, contentSetId: 'T'.repeat(22) }),
      addressHash(salt, visitor.addressKey, { ...target, contentItemId: 'J'.repeat(44) }),
      addressHash(Buffer.alloc(32, 8), visitor.addressKey, target),
      visitorResponseId(salt, visitor, target),
      // The visitor whose parts would read as the address's: another message all the same.
      visitorResponseId(salt, { addressKey: visitor.addressKey, userAgent: target.contentSetId }, { contentSetId: target.contentItemId, contentItemId: '' }),
    ];
    expect(new Set([hash, ...others]).size).toBe(others.length + 1);
  });
});
