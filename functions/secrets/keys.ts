/**
 * The service's keys, each loaded by the one loader (loader.ts: the value variable, else the
 * Secrets Manager secret the stack generates, else on Lambda an error, else a key for this
 * process).
 */
import { createHash, randomBytes } from 'node:crypto';
import { cursorKey } from '../domain/cursor';
import { serviceKey, type ServiceKeySpec } from './loader';

export const MIN_CURSOR_SECRET_LENGTH = 32;

function cursorKeyOf(secret: string): Buffer {
  if (secret.length < MIN_CURSOR_SECRET_LENGTH) throw new Error(`The cursor secret must be at least ${MIN_CURSOR_SECRET_LENGTH} characters`);
  return cursorKey(secret);
}

/**
 * The key sealing paging cursors (domain/cursor.ts), from a secret of at least 32 characters:
 * `CURSOR_SECRET` (`npm start` sets it from `DATA_DIR/cursor-secret`, generated on first
 * start, so cursors survive restarts) or `CURSOR_SECRET_ARN` (given to the functions of the
 * lists that page by cursor).
 */
export const CURSOR_SECRET: ServiceKeySpec<Buffer> = {
  valueVariable: 'CURSOR_SECRET',
  secretIdVariable: 'CURSOR_SECRET_ARN',
  fromValue: cursorKeyOf,
  fromSecretString: cursorKeyOf,
  forThisProcess: () => cursorKey(randomBytes(32)),
  missingOnLambda: 'No cursor secret: set CURSOR_SECRET_ARN (the stack does) or CURSOR_SECRET',
};
export const cursorSealingKey = serviceKey(CURSOR_SECRET);

/** A key of the right size from any text (the stack's generated Secrets Manager string). */
const keyFromText = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** A 32-byte key from the base64 in `variable` (the value variables of the keys below). */
const keyFromBase64 =
  (variable: string) =>
  (text: string): Buffer => {
    const key = Buffer.from(text, 'base64');
    if (key.length !== 32) throw new Error(`${variable} must be the base64 of 32 bytes`);
    return key;
  };

/**
 * The key sealing webhook signing secrets at rest (webhooks/secrets.ts): `WEBHOOK_SECRETS_KEY`
 * (base64 of 32 bytes) or `WEBHOOK_SECRETS_KEY_ARN` (given to the functions that seal or open
 * secrets, and only those). `npm start` keeps one in `DATA_DIR/webhook-secrets.key` and `use`s it.
 */
export const WEBHOOK_SECRETS_KEY: ServiceKeySpec<Buffer> = {
  valueVariable: 'WEBHOOK_SECRETS_KEY',
  secretIdVariable: 'WEBHOOK_SECRETS_KEY_ARN',
  fromValue: keyFromBase64('WEBHOOK_SECRETS_KEY'),
  fromSecretString: keyFromText,
  forThisProcess: () => randomBytes(32),
  missingOnLambda: 'WEBHOOK_SECRETS_KEY_ARN is not set: this function cannot seal or open webhook secrets',
};
export const webhookSecretsKey = serviceKey(WEBHOOK_SECRETS_KEY);

/**
 * The key signing the unsubscribe links of mails (mail/unsubscribe-token.ts): `MAIL_TOKEN_KEY`
 * (base64 of 32 bytes) or `MAIL_TOKEN_KEY_ARN` (given to the functions that send mail or
 * take unsubscribes, and only those). `npm start` keeps one in `DATA_DIR/mail-token.key`, so
 * links in mails written earlier keep working after a restart. A new key voids every link
 * sent before it (the Notifications page still works).
 */
export const MAIL_TOKEN_KEY: ServiceKeySpec<Buffer> = {
  valueVariable: 'MAIL_TOKEN_KEY',
  secretIdVariable: 'MAIL_TOKEN_KEY_ARN',
  fromValue: keyFromBase64('MAIL_TOKEN_KEY'),
  fromSecretString: keyFromText,
  forThisProcess: () => randomBytes(32),
  missingOnLambda: 'MAIL_TOKEN_KEY_ARN is not set: this function cannot sign or check unsubscribe links',
};
export const mailTokenKey = serviceKey(MAIL_TOKEN_KEY);
