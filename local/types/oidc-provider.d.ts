/** oidc-provider 9 ships no type declarations: the part local/oidc-provider.ts uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface GrantClass {
    new (init: { clientId: string; accountId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }
  interface Client {
    clientId: string;
    grantTypeAllowed(type: string): boolean;
  }
  interface OidcContext {
    client?: Client;
    session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
    provider: { Grant: GrantClass };
  }
  interface KoaContext {
    oidc: OidcContext;
    type: string;
    body: unknown;
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients: Record<string, unknown>[];
    pkce?: { required(): boolean };
    jwks: { keys: unknown[] };
    cookies?: { keys: string[] };
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    findAccount(context: KoaContext, sub: string): Promise<Account | undefined>;
    loadExistingGrant?(context: KoaContext): Promise<Grant | undefined>;
    issueRefreshToken?(context: KoaContext, client: Client): Promise<boolean>;
    ttl?: Record<string, number>;
    interactions?: { url(context: KoaContext, interaction: { uid: string }): string };
    features?: {
      devInteractions?: { enabled: boolean };
      rpInitiatedLogout?: { enabled: boolean; logoutSource?(context: KoaContext, form: string): Promise<void> };
    };
    renderError?(context: KoaContext, out: Record<string, string>, error: Error): Promise<void>;
  }
  class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<{ uid: string }>;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
  export default Provider;
}
