/**
 * `npm start` (bin/serve.ts) as a child process with its own DynamoDB Local on a data
 * folder, as a developer runs it: for the tests that kill it (SIGKILL) and start it again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { freePort } from '../../local/dynamodb-local';
import { anonymousVisitor } from './visitors';

const REPO = resolve(__dirname, '../..');

export interface NpmStart {
  child: ChildProcess;
  baseUrl: string;
  adminKey: string;
  dynamoPort: number;
  output: string[];
}

/** Starts `npm start` on `dataDir` with `env` added and `unset` removed from this process's environment; resolves once it printed its banner. */
export async function startNpmStart(dataDir: string, env: Record<string, string> = {}, unset: string[] = []): Promise<NpmStart> {
  const [port, dynamoPort] = [await freePort(), await freePort()];
  // OIDC_PORT 0: the local provider on a port of its own, so that two of these can run at once.
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    DYNAMODB_LOCAL_PORT: String(dynamoPort),
    OIDC_PORT: '0',
    // Each anonymous call's own address (test/support/visitors.ts), from the one trusted proxy it plays.
    TRUST_PROXY: 'true',
    ...env,
  };
  // Its own DynamoDB Local and table, as a developer's `npm start` has.
  for (const name of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', ...unset]) delete childEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/serve.ts'], { cwd: REPO, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  return new Promise<NpmStart>((started, failed) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      output.push(chunk.toString('utf8'));
      const baseUrl = /Feedback API\s+(\S+)/.exec(text)?.[1];
      const adminKey = /Admin key\s+(\S+)/.exec(text)?.[1];
      if (baseUrl && adminKey && text.includes('Ctrl-C')) started({ child, baseUrl, adminKey, dynamoPort, output });
    });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    child.once('exit', (code) => failed(new Error(`npm start exited with ${code}: ${output.join('')}`)));
  });
}

/** POST /v0/<path> with the arguments, with an API key (the server's admin key by default); the parsed answer, or an error for a non-2xx status. */
export async function callApi(server: NpmStart, path: string, args: unknown[], key: string | undefined = server.adminKey) {
  const response = await fetch(`${server.baseUrl}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...anonymousVisitor({ key }), ...(key ? { authorization: `API-KEY ${key}` } : {}) },
    body: JSON.stringify(args),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export const portOpen = (port: number) =>
  new Promise<boolean>((answer) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => answer(socket.destroy() === socket));
    socket.once('error', () => answer(false));
  });

export async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((exited) => child.once('exit', exited));
}
