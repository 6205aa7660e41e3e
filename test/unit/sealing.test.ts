import { createCipheriv, randomBytes } from 'node:crypto';
import { open, seal } from '../../functions/domain/sealing';

const key = Buffer.alloc(32, 3);
const otherKey = Buffer.alloc(32, 4);

/** The webhook secrets' earlier text layout, as functions/webhooks/secrets.ts sealed it before (2cafe1b). */
function sealLegacyText(plain: string, associatedData: string, iv = randomBytes(12)): string {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
}

describe('sealing', () => {
  it('opens what it sealed, with the same key and associated data only', () => {
    const sealed = seal(key, 'a secret', 'hook-a');
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(seal(key, 'a secret', 'hook-a')).not.toBe(sealed);
    expect(open(key, sealed, 'hook-a')?.toString('utf8')).toBe('a secret');
    expect(open(key, sealed, 'hook-b')).toBeNull();
    expect(open(key, sealed)).toBeNull();
    expect(open(otherKey, sealed, 'hook-a')).toBeNull();
    expect(open(key, seal(key, ''))?.toString('utf8')).toBe('');
  });

  it('writes version byte 1 | IV | ciphertext | tag, the version byte and associated data authenticated', () => {
    const bytes = Buffer.from(seal(key, 'abc', 'x'), 'base64url');
    expect(bytes[0]).toBe(1);
    expect(bytes).toHaveLength(1 + 12 + 3 + 16);
    for (let index = 0; index < bytes.length; index++) {
      const altered = Buffer.from(bytes);
      altered[index] ^= 0x01;
      expect(open(key, altered.toString('base64url'), 'x')).toBeNull();
    }
    expect(open(key, bytes.subarray(0, -1).toString('base64url'), 'x')).toBeNull();
    expect(open(key, Buffer.concat([bytes, Buffer.from([0])]).toString('base64url'), 'x')).toBeNull();
  });

  it("reads the webhook secrets' earlier text layout, bound to its associated data", () => {
    const sealed = sealLegacyText('whsec_old', 'hook-a');
    expect(open(key, sealed, 'hook-a')?.toString('utf8')).toBe('whsec_old');
    expect(open(key, sealed, 'hook-b')).toBeNull();
    expect(open(otherKey, sealed, 'hook-a')).toBeNull();
    const [version, iv, payload] = sealed.split('.');
    expect(open(key, `v2.${iv}.${payload}`, 'hook-a')).toBeNull();
    // A truncated tag is refused, though GCM alone would check the bytes left.
    const short = Buffer.from(payload, 'base64url').subarray(0, -4).toString('base64url');
    expect(open(key, `${version}.${iv}.${short}`, 'hook-a')).toBeNull();
  });

  it('refuses what is no sealed value', () => {
    for (const value of ['', 'a', 'v1..', 'v1.a.b.c', 'not base64url!', Buffer.alloc(40).toString('base64url')]) {
      expect(open(key, value)).toBeNull();
    }
  });
});
