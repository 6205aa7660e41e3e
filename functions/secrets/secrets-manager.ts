/**
 * The string value of a Secrets Manager secret, for the keys the stack generates (the cursor
 * secret, the webhook secrets key: keys.ts). The SDK client is loaded only here: the Lambda
 * runtime provides it, and local runs, which take their keys from the environment or the data
 * folder, never load it.
 */
export async function readSecretString(secretId: string): Promise<string> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const client = new SecretsManagerClient({});
  try {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (!SecretString) throw new Error(`The secret ${secretId} has no string value`);
    return SecretString;
  } finally {
    client.destroy();
  }
}
