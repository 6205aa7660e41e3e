/**
 * Webhook signing secrets: made, sealed at rest, opened to sign.
 *
 * A signing secret has to be usable to compute HMACs, so unlike API keys it cannot be kept
 * as a hash. It is shown once (create / rotateSecret) and stored encrypted with AES-256-GCM
 * under one service key, with the webhook's id as additional data (a sealed secret copied
 * onto another webhook does not open). The service key:
 * - on AWS, a Secrets Manager secret the stack generates (`WEBHOOK_SECRETS_KEY_ARN`), read
 *   once per Lambda container by the functions that seal or open secrets, and only those;
 * - locally, `WEBHOOK_SECRETS_KEY` (base64 of 32 bytes) when set, else a key generated once
 *   into the data folder (`webhook-secrets.key`, mode 600) by `npm start`, else (in-memory
 *   runs and tests) a random key for the life of the process.
 * Secrets are never logged and never returned after the call that made them.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

const SECRET_PREFIX = 'whsec_';
const SEALED_VERSION = 'v1';

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

let key: Buffer | undefined;
let loading: Promise<Buffer> | undefined;

/** Sets the service key of this process (the local runtime does, from its data folder). */
export function useSecretsKey(value: Buffer): void {
  if (value.length !== 32) throw new Error('the webhook secrets key must be 32 bytes');
  key = value;
}

/** A key of the right size from any text (the stack's generated Secrets Manager string). */
export function keyFromText(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The key kept in a file (base64), created with 32 random bytes if absent. */
export function keyFromFile(path: string): Buffer {
  if (!existsSync(path)) {
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  chmodSync(path, 0o600);
  const value = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (value.length !== 32) throw new Error(`${path} must hold the base64 of 32 bytes`);
  return value;
}

async function fromSecretsManager(secretId: string): Promise<Buffer> {
  // Loaded only here: the Lambda runtime provides the SDK, and local runs never need it.
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const client = new SecretsManagerClient({});
  try {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (!SecretString) throw new Error('the webhook secrets key secret has no string value');
    return keyFromText(SecretString);
  } finally {
    client.destroy();
  }
}

async function resolveKey(): Promise<Buffer> {
  const env = process.env;
  if (env.WEBHOOK_SECRETS_KEY) {
    const value = Buffer.from(env.WEBHOOK_SECRETS_KEY, 'base64');
    if (value.length !== 32) throw new Error('WEBHOOK_SECRETS_KEY must be the base64 of 32 bytes');
    return value;
  }
  if (env.WEBHOOK_SECRETS_KEY_ARN) return fromSecretsManager(env.WEBHOOK_SECRETS_KEY_ARN);
  if (env.AWS_LAMBDA_FUNCTION_NAME) throw new Error('WEBHOOK_SECRETS_KEY_ARN is not set: this function cannot seal or open webhook secrets');
  // In-memory local runs and tests: nothing outlives the process, neither need the key.
  return randomBytes(32);
}

export async function secretsKey(): Promise<Buffer> {
  if (key) return key;
  loading ??= resolveKey().then(
    (value) => (key = value),
    (error) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The secret encrypted for storage on the webhook `webhookId`. */
export async function sealSecret(secret: string, webhookId: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await secretsKey(), iv);
  cipher.setAAD(Buffer.from(webhookId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${SEALED_VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
}

export async function openSecret(sealed: string, webhookId: string): Promise<string> {
  const [version, iv, payload] = sealed.split('.');
  if (version !== SEALED_VERSION || !iv || !payload) throw new Error('not a sealed webhook secret');
  const bytes = Buffer.from(payload, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', await secretsKey(), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(webhookId, 'utf8'));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
}
