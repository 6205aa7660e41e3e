/**
 * Runs the local development provider (local/oidc-provider.ts) in a process of its own for
 * the tests: oidc-provider is an ES module only, which jest's module system cannot load.
 * Prints `{"issuer":...,"clientId":...}` on one line once listening; stops on SIGTERM.
 * TOKEN_TTL_SECONDS shortens the tokens' lifetime (the console's silent renewal is tested so).
 *
 *   CONSOLE_ORIGINS=http://127.0.0.1:1234 tsx test/support/local-oidc-process.ts
 *
 * The tests run it bundled by esbuild, with plain node (see local-oidc.ts).
 */
import { startLocalOidcProvider } from '../../local/oidc-provider';

async function main() {
  const ttl = process.env.TOKEN_TTL_SECONDS;
  const provider = await startLocalOidcProvider({
    port: 0,
    consoleOrigins: (process.env.CONSOLE_ORIGINS ?? '').split(',').filter(Boolean),
    tokenTtlSeconds: ttl ? Number(ttl) : undefined,
  });
  process.stdout.write(`${JSON.stringify({ issuer: provider.issuer, clientId: provider.clientId })}\n`);
  process.on('SIGTERM', () => void provider.stop().then(() => process.exit(0)));
}

main().catch((error) => {
  process.stderr.write(`local provider failed: ${(error as Error).message}\n`);
  process.exit(1);
});
