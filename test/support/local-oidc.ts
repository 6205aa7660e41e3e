/** The local development provider in a child process (see local-oidc-process.ts), for browser tests. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../lib/paths';

export interface LocalOidcProcess {
  issuer: string;
  clientId: string;
  stop(): Promise<void>;
}

/** `tokenTtlSeconds`: the lifetime of the ID and access tokens it issues (default an hour). */
export async function startLocalOidcProcess(consoleOrigins: string[], options: { tokenTtlSeconds?: number } = {}): Promise<LocalOidcProcess> {
  const child = spawn(join(REPO_ROOT, 'node_modules/.bin/tsx'), [join(__dirname, 'local-oidc-process.ts')], {
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
