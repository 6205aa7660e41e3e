import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT } from 'jose';

type Algorithm = 'RS256' | 'PS256' | 'ES256';
type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

interface SigningKey {
  kid: string;
  alg: Algorithm;
  pair: KeyPair;
  jwk: JWK;
}

export interface SignOptions {
  /** Claims to add or override (`undefined` removes a standard one, e.g. `{ aud: undefined }`). */
  claims?: Record<string, unknown>;
  /** The key to sign with (default: the current one). */
  kid?: string;
  /** Seconds from now (default 600); negative for an expired token. */
  expiresIn?: number;
  /** A protected header kid other than the key's (an unknown key id). */
  headerKid?: string;
}

/**
 * A loopback OpenID Connect issuer for tests: serves its discovery document and its JWKS
 * over http on 127.0.0.1 (the only place the service takes an http issuer), and signs
 * tokens with its keys. `rotate()` publishes a new key and withdraws the old one.
 */
export interface TestIssuer {
  issuer: string;
  clientId: string;
  /** The current signing key's id. */
  kid: string;
  /** How often the JWKS was fetched. */
  jwksFetches(): number;
  /** A token of the person `subject` (with email and name), signed by the issuer. */
  token(subject: string, options?: SignOptions): Promise<string>;
  /** A new key of the algorithm: published, and used from now on. `withdraw` removes the previous keys from the JWKS. */
  rotate(alg?: Algorithm, withdraw?: boolean): Promise<string>;
  /** The SPKI PEM of a published key (for the HMAC-confusion attack). */
  publicKeyPem(kid?: string): Promise<string>;
  close(): Promise<void>;
}

async function newKey(alg: Algorithm): Promise<SigningKey> {
  const pair = await generateKeyPair(alg, { extractable: true });
  const kid = `${alg.toLowerCase()}-${randomUUID().slice(0, 8)}`;
  return { kid, alg, pair, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' } };
}

export async function startTestIssuer(clientId = 'feedback-console'): Promise<TestIssuer> {
  let published: SigningKey[] = [await newKey('RS256')];
  const all = new Map(published.map((key) => [key.kid, key]));
  let current = published[0];
  let fetches = 0;
  let issuer = '';
  const server: Server = createServer((request, response) => {
    const send = (body: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.url === '/.well-known/openid-configuration')
      return send({ issuer, jwks_uri: `${issuer}/jwks`, id_token_signing_alg_values_supported: ['RS256'] });
    if (request.url === '/jwks') {
      fetches++;
      return send({ keys: published.map((key) => key.jwk) });
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const result: TestIssuer = {
    issuer,
    clientId,
    get kid() {
      return current.kid;
    },
    jwksFetches: () => fetches,
    async token(subject, options = {}) {
      const key = options.kid ? all.get(options.kid)! : current;
      const now = Math.floor(Date.now() / 1000);
      const claims: Record<string, unknown> = {
        iss: issuer,
        aud: clientId,
        sub: subject,
        iat: now,
        exp: now + (options.expiresIn ?? 600),
        email: `${subject}@example.com`,
        email_verified: true,
        name: `Person ${subject}`,
        ...options.claims,
      };
      for (const name of Object.keys(claims)) if (claims[name] === undefined) delete claims[name];
      return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: options.headerKid ?? key.kid, typ: 'JWT' }).sign(key.pair.privateKey);
    },
    async rotate(alg = 'RS256', withdraw = true) {
      const key = await newKey(alg);
      all.set(key.kid, key);
      published = withdraw ? [key] : [...published, key];
      current = key;
      return key.kid;
    },
    async publicKeyPem(kid) {
      return exportSPKI((kid ? all.get(kid)! : current).pair.publicKey);
    },
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
  return result;
}

/** `alg: none`: a token with no signature at all. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

/** The payload of a token, decoded (no verification). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}
