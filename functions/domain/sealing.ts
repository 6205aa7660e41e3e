/**
 * Sealing: AES-256-GCM, the one way this service encrypts what it hands out or keeps
 * (paging cursors, domain/cursor.ts; webhook signing secrets at rest, webhooks/secrets.ts).
 * Pure: the caller passes the 32-byte key (functions/secrets/ loads it).
 *
 * `seal` writes one layout, base64url (so it fits a URL as it is):
 *
 *     version byte 1 | IV (12 bytes) | ciphertext | tag (16 bytes)
 *
 * with the version byte followed by the caller's associated data (a webhook's id; nothing
 * for cursors) as GCM's additional authenticated data. With no associated data this is
 * byte for byte the cursors' layout since they exist, so cursors sealed before still open.
 *
 * `open` also reads the webhook secrets' earlier text layout, `v1.<IV>.<ciphertext | tag>`
 * (both base64url; the associated data alone as AAD), which secrets sealed at rest before
 * still have: the `.` is no base64url character, so the two layouts cannot be confused.
 * test/unit/sealed-vectors.test.ts holds values of both layouts sealed by the earlier code.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const LEGACY_TEXT_VERSION = 'v1';
const BASE64URL = /^[A-Za-z0-9_-]*$/;

const additionalData = (associatedData: string) => Buffer.concat([Buffer.from([VERSION]), Buffer.from(associatedData, 'utf8')]);

/** `plain` encrypted and authenticated under `key`, bound to `associatedData` (which `open` must be given again). */
export function seal(key: Buffer, plain: Buffer | string, associatedData = ''): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(associatedData));
  const ciphertext = Buffer.concat([cipher.update(typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, ciphertext, cipher.getAuthTag()]).toString('base64url');
}

/**
 * What `seal` (or the earlier webhook secrets' sealing) sealed with this key and associated
 * data; null for anything else: forged, altered, truncated, another key or associated data.
 */
export function open(key: Buffer, sealed: string, associatedData = ''): Buffer | null {
  const parts = sealed.split('.');
  if (parts.length === 3) {
    const [version, iv, payload] = parts;
    if (version !== LEGACY_TEXT_VERSION || !BASE64URL.test(iv) || !BASE64URL.test(payload)) return null;
    const bytes = Buffer.from(payload, 'base64url');
    return decrypt(key, Buffer.from(iv, 'base64url'), bytes.subarray(0, -TAG_BYTES), bytes.subarray(-TAG_BYTES), Buffer.from(associatedData, 'utf8'));
  }
  if (parts.length !== 1 || !BASE64URL.test(sealed)) return null;
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) return null;
  return decrypt(key, bytes.subarray(1, 1 + IV_BYTES), bytes.subarray(1 + IV_BYTES, -TAG_BYTES), bytes.subarray(-TAG_BYTES), additionalData(associatedData));
}

function decrypt(key: Buffer, iv: Buffer, ciphertext: Buffer, tag: Buffer, aad: Buffer): Buffer | null {
  // A full tag only: GCM would otherwise accept a truncated one (fewer bits to forge).
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    return null;
  }
}
