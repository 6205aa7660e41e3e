import { cursorKey, MAX_CURSOR_LENGTH, openCursor, openCursorFor, scopeFingerprint, sealCursor } from '../../functions/domain/cursor';

const key = cursorKey('a server secret of at least thirty-two characters');
const otherKey = cursorKey('another server secret, also thirty-two characters');
const content = {
  accountId: 'account-1',
  scope: scopeFingerprint({ operation: 'responses/list', partition: 'p1', state: 'active' }),
  position: 'eyJwayI6InJlc3BvbnNlI3IxIn0',
};

describe('sealed cursors', () => {
  it('open to what was sealed, and differ each time (random IV) without revealing the position', () => {
    const first = sealCursor(key, content);
    const second = sealCursor(key, content);
    expect(first).not.toBe(second);
    expect(openCursor(key, first)).toEqual(content);
    expect(openCursor(key, second)).toEqual(content);
    expect(first).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(first, 'base64url').toString('latin1')).not.toContain('account-1');
    expect(Buffer.from(first, 'base64url').toString('latin1')).not.toContain(content.position);
  });

  it('refuse any altered byte, truncation, extension or another key', () => {
    const cursor = sealCursor(key, content);
    const bytes = Buffer.from(cursor, 'base64url');
    for (let index = 0; index < bytes.length; index++) {
      const altered = Buffer.from(bytes);
      altered[index] ^= 0x01;
      expect(openCursor(key, altered.toString('base64url'))).toBeNull();
    }
    expect(openCursor(key, bytes.subarray(0, bytes.length - 1).toString('base64url'))).toBeNull();
    expect(openCursor(key, Buffer.concat([bytes, Buffer.from([0])]).toString('base64url'))).toBeNull();
    expect(openCursor(otherKey, cursor)).toBeNull();
  });

  it('refuse forgeries: plain text, ElectroDB-style base64 JSON, wrong alphabet, oversized, empty', () => {
    const forged = [
      '',
      'abc',
      Buffer.from(JSON.stringify({ pk: 'response#x', sk: 'response' })).toString('base64url'),
      Buffer.from(JSON.stringify(['account-1', content.scope, 'x'])).toString('base64url'),
      `${sealCursor(key, content)}==`,
      'a'.repeat(MAX_CURSOR_LENGTH + 1),
      '\u00e9t\u00e9',
    ];
    for (const cursor of forged) expect({ cursor, opened: openCursor(key, cursor) }).toEqual({ cursor, opened: null });
  });

  it('open for the same account and scope only', () => {
    const cursor = sealCursor(key, content);
    expect(openCursorFor(key, cursor, { accountId: 'account-1', scope: content.scope })).toBe(content.position);
    expect(openCursorFor(key, cursor, { accountId: 'account-2', scope: content.scope })).toBeNull();
    expect(
      openCursorFor(key, cursor, { accountId: 'account-1', scope: scopeFingerprint({ operation: 'responses/list', partition: 'p2', state: 'active' }) }),
    ).toBeNull();
  });

  it('fingerprint scopes by content, whatever the order of fields, ignoring undefined ones', () => {
    expect(scopeFingerprint({ a: 1, b: 'x', c: undefined })).toBe(scopeFingerprint({ b: 'x', a: 1 }));
    expect(scopeFingerprint({ a: 1, b: 'x' })).not.toBe(scopeFingerprint({ a: 1, b: 'y' }));
    expect(scopeFingerprint({ state: 'active' })).not.toBe(scopeFingerprint({ state: 'all' }));
  });

  it('derive different keys from different secrets', () => {
    expect(key.length).toBe(32);
    expect(key.equals(otherKey)).toBe(false);
    expect(cursorKey('a server secret of at least thirty-two characters').equals(key)).toBe(true);
  });
});
