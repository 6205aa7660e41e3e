/** The local development provider in a child process (see local-oidc-process.ts), for browser tests. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from '../../lib/paths';
import { sharedInRun } from './run-shared';

export interface LocalOidcProcess {
  issuer: string;
  clientId: string;
  stop(): Promise<void>;
}

/**
 * local-oidc-process.ts and the repository's modules it imports as one ES module, made once
 * per run (run-shared.ts) and run by plain node: tsx compiling them in every child took ~3 s
 * of CPU and ~10 s on a loaded machine per start, against under 1 s. The packages stay
 * outside the bundle; node finds them from the run's folder, which is inside the repository.
 */
async function providerBundle(): Promise<string> {
  const dir = await sharedInRun('local-oidc', async (partial) => {
    await build({
      entryPoints: [join(__dirname, 'local-oidc-process.ts')],
      outfile: join(partial, 'local-oidc-process.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
    });
  });
  return join(dir, 'local-oidc-process.mjs');
}

/** `tokenTtlSeconds`: the lifetime of the ID and access tokens it issues (default an hour). */
export async function startLocalOidcProcess(consoleOrigins: string[], options: { tokenTtlSeconds?: number } = {}): Promise<LocalOidcProcess> {
  const child = spawn(process.execPath, [await providerBundle()], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      CONSOLE_ORIGINS: consoleOrigins.join(','),
      ...(options.tokenTtlSeconds === undefined ? {} : { TOKEN_TTL_SECONDS: String(options.tokenTtlSeconds) }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  const settings = await new Promise<{ issuer: string; clientId: string }>((started, failed) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) started(JSON.parse(line));
    });
    child.once('exit', (code) => failed(new Error(`the local provider exited (${code}): ${errors}`)));
  });
  return {
    ...settings,
    stop: () =>
      new Promise<void>((stopped) => {
        if (child.exitCode !== null) return stopped();
        child.once('exit', () => stopped());
        child.kill('SIGTERM');
      }),
  };
}
