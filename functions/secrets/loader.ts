/**
 * The one way a service key is loaded, once per process (per Lambda container):
 *
 * - `valueVariable` set: the secret itself (local runs, tests; `npm start` sets some from
 *   files it keeps in its data folder);
 * - else `secretIdVariable` set: a Secrets Manager secret holding it (the CDK stack generates
 *   one and gives its ARN and read access to the functions that need it);
 * - neither, outside Lambda: a key for this process only (tests, `--in-memory` runs: nothing
 *   sealed then outlives the process); on Lambda that would give each container a key of its
 *   own, so it is an error there.
 *
 * Why not Powertools Parameters (`@aws-lambda-powertools/parameters`, `getSecret`)? It is not
 * a dependency, and all it would add here is its cache: a key is read once and kept for the
 * container's life, which is one module-level promise. The Secrets Manager client it would
 * wrap is already a dependency (secrets-manager.ts).
 */
import { readSecretString } from './secrets-manager';

export interface ServiceKeySpec<Key> {
  /** The variable holding the secret itself. */
  valueVariable: string;
  /** The variable holding the id (ARN) of the Secrets Manager secret holding it. */
  secretIdVariable: string;
  /** The key of the value variable's text; throws when the text is no valid secret. */
  fromValue(text: string): Key;
  /** The key of the Secrets Manager secret's string; throws when it is no valid secret. */
  fromSecretString(text: string): Key;
  /** A random key for this process, when neither variable is set outside Lambda. */
  forThisProcess(): Key;
  /** The error when neither variable is set on Lambda. */
  missingOnLambda: string;
}

export interface ServiceKey<Key> {
  /** The key of this process, loaded on the first call (from `env`); a failed load is retried on the next call. */
  get(env?: NodeJS.ProcessEnv): Promise<Key>;
  /** Sets the key of this process, whatever the variables say (the local runtime's key file, tests). */
  use(key: Key): void;
}

async function load<Key>(spec: ServiceKeySpec<Key>, env: NodeJS.ProcessEnv): Promise<Key> {
  const value = env[spec.valueVariable];
  if (value) return spec.fromValue(value);
  const secretId = env[spec.secretIdVariable];
  if (secretId) return spec.fromSecretString(await readSecretString(secretId));
  if (env.AWS_LAMBDA_FUNCTION_NAME) throw new Error(spec.missingOnLambda);
  return spec.forThisProcess();
}

export function serviceKey<Key>(spec: ServiceKeySpec<Key>): ServiceKey<Key> {
  let cached: Promise<Key> | undefined;
  return {
    get(env = process.env) {
      if (!cached) {
        const loading = load(spec, env);
        loading.catch(() => {
          if (cached === loading) cached = undefined;
        });
        cached = loading;
      }
      return cached;
    },
    use(key) {
      cached = Promise.resolve(key);
    },
  };
}
