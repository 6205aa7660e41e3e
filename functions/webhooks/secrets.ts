/**
 * Webhook signing secrets: made, sealed at rest, opened to sign.
 *
 * A signing secret has to be usable to compute HMACs, so unlike API keys it cannot be kept
 * as a hash. It is shown once (create / rotateSecret) and stored sealed (domain/sealing.ts,
 * AES-256-GCM) under one service key, with the webhook's id as associated data (a sealed
 * secret copied onto another webhook does not open). The service key is
 * `webhookSecretsKey` (secrets/keys.ts): on AWS a Secrets Manager secret the stack generates,
 * read once per Lambda container by the functions that seal or open secrets, and only those;
 * locally `WEBHOOK_SECRETS_KEY`, else a key `npm start` keeps in its data folder, else (in-memory
 * runs and tests) a random key for the life of the process.
 * Secrets are never logged and never returned after the call that made them.
 */
import { randomBytes } from 'node:crypto';
import { open, seal } from '../domain/sealing';
import { webhookSecretsKey } from '../secrets/keys';

const SECRET_PREFIX = 'whsec_';

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Sets the service key of this process (the local runtime does, from its data folder). */
export function useSecretsKey(value: Buffer): void {
  if (value.length !== 32) throw new Error('the webhook secrets key must be 32 bytes');
  webhookSecretsKey.use(value);
}

/** The secret encrypted for storage on the webhook `webhookId`. */
export async function sealSecret(secret: string, webhookId: string): Promise<string> {
  return seal(await webhookSecretsKey.get(), secret, webhookId);
}

/** The secret sealed on the webhook `webhookId`; throws when it does not open (another key, another webhook, altered). */
export async function openSecret(sealed: string, webhookId: string): Promise<string> {
  const plain = open(await webhookSecretsKey.get(), sealed, webhookId);
  if (!plain) throw new Error(`the signing secret of webhook ${webhookId} does not open with this service's key`);
  return plain.toString('utf8');
}
