/**
 * Values sealed by the code before sealing had one home (commit 2cafe1b's
 * functions/domain/cursor.ts and functions/webhooks/secrets.ts), with fixed keys. Cursors
 * in clients' hands must keep opening across a deploy, and webhook signing secrets sealed
 * at rest in the table must keep opening for ever: whatever `seal` writes today, these
 * must open.
 */
import { cursorKey, openCursor } from '../../functions/domain/cursor';
import { openSecret, useSecretsKey } from '../../functions/webhooks/secrets';

/** Cursor layout 1: base64url of version byte 1 | IV (12) | ciphertext | tag (16); AAD the version byte. */
const CURSOR_SECRET = 'fixed test vector cursor secret, 32+ characters';
const SEALED_CURSOR =
  'Ac4Jodi1uIj9tvVNnBaIW2tuIFQ6PdHn8ruNBAIPGl2a7X8Cg0Qx4D9w9MvvMQjyN2E5O8Gm6kXWFUd1SkRNvdZR0RuKW1MdiNdcW8xOWWbt47nPEn40PhQueU7c6aDfcfUGts5muKqF16g6ojN8bsBK72ozo-Y';

/** Webhook secret layout `v1.<IV base64url>.<ciphertext | tag base64url>`; AAD the webhook id. */
const WEBHOOK_SECRETS_KEY = Buffer.alloc(32, 7);
const SEALED_WEBHOOK_SECRET = 'v1.1EFUj846VdLHPR7f.YQ6et7cjOZznTUDoAYGEqMPHJYotj6oSmSVPVmYTuWX9D5IIzRwMhFDhDzLpCFFfZ2_rMvt3hbeNTHrNJxmHDWUC';

describe('values sealed by earlier releases', () => {
  it('a cursor handed out before still opens', () => {
    expect(openCursor(cursorKey(CURSOR_SECRET), SEALED_CURSOR)).toEqual({
      accountId: 'acct_vector',
      scope: 'scope-fingerprint-12345',
      position: '{"pk":"response#p1","sk":"2024-01-01"}',
    });
    expect(openCursor(cursorKey(`${CURSOR_SECRET}!`), SEALED_CURSOR)).toBeNull();
  });

  it('a webhook signing secret sealed at rest before still opens, for its webhook only', async () => {
    useSecretsKey(WEBHOOK_SECRETS_KEY);
    expect(await openSecret(SEALED_WEBHOOK_SECRET, 'wh_vector')).toBe('whsec_dGVzdCB2ZWN0b3Igc2lnbmluZyBzZWNyZXQgMzJieXQ=');
    await expect(openSecret(SEALED_WEBHOOK_SECRET, 'wh_other')).rejects.toThrow();
  });
});
