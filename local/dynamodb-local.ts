import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { ensurePrivateDir } from './private-dir';

/** Where scripts/install-dynamodb-local.mjs (npm postinstall) puts DynamoDB Local. */
export const DYNAMODB_LOCAL_HOME = resolve(__dirname, '../.dynamodb-local');

/**
 * Runs DynamoDB Local bound to 127.0.0.1 (the jar itself has no such option and listens on every
 * interface, checking no credentials), answering only requests whose `Host` is a loopback name or
 * address (a DNS-rebinding page in the developer's browser sends its own); see that file's comment.
 */
export const LOOPBACK_LAUNCHER = join(__dirname, 'LoopbackDynamoDbLocal.java');

export interface DynamoDbLocalOptions {
  /** Keep tables in this folder; omitted means in memory. */
  dbPath?: string;
  port?: number;
  /**
   * Which JIT compilers Java uses: `quick` (the default: C1 alone, for short runs such as a
   * test's own instance) or `full` (C1 then C2: more CPU in its first seconds, about half the
   * CPU per request after them, measured; for long runs such as a bench of 100,000 rows or
   * the instance a whole `npm test` shares).
   */
  jit?: 'quick' | 'full';
}

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * How long a start may take before it counts as failed. Java needs a few CPU seconds to come up;
 * on a machine shared by several test runs it got too little CPU for 30 s to be enough, and a
 * jest run failed in its global setup. The wait ends as soon as it answers.
 */
const START_TIMEOUT_MS = 120_000;

async function waitUntilAnswering(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
    try {
      // Any HTTP answer (even an auth error) means the server is up.
      await fetch(endpoint, { method: 'POST', signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }
  throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms`);
}

/**
 * The class path and main class that start the launcher: its classes compiled once per version
 * of its source into DYNAMODB_LOCAL_HOME, because Java compiles a source program afresh at each
 * start (about 2 s of CPU, paid by every `npm start` and by each test that restarts one). Where
 * that compilation fails, the source program itself, as before.
 */
async function launcher(classPath: string): Promise<string[]> {
  const version = createHash('sha256').update(readFileSync(LOOPBACK_LAUNCHER)).digest('hex').slice(0, 16);
  const classes = join(DYNAMODB_LOCAL_HOME, `launcher-${version}`);
  if (!existsSync(classes)) {
    // Compiled under another name and renamed: a process starting meanwhile never sees half of it.
    const partial = `${classes}.${process.pid}`;
    try {
      await new Promise<void>((compiled, failed) =>
        execFile('javac', ['-cp', classPath, '-d', partial, LOOPBACK_LAUNCHER], (error) => (error ? failed(error) : compiled())),
      );
      renameSync(partial, classes);
    } catch {
      // Another process renamed its copy first, or there is no javac.
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return existsSync(classes) ? ['-cp', `${classes}${delimiter}${classPath}`, 'LoopbackDynamoDbLocal'] : ['-cp', classPath, LOOPBACK_LAUNCHER];
}

/**
 * Starts DynamoDB Local as a child of this process, listening on 127.0.0.1 only.
 *
 * The jar's main class listens on every interface and has no option to change that, so Java runs
 * LoopbackDynamoDbLocal.java (next to this file; compiled once, see `launcher`) instead: it builds
 * the same server from the same arguments, binds its Jetty connector to 127.0.0.1, answers 403
 * to a request whose `Host` is not loopback, and exits rather than serve if the socket is
 * anything but loopback.
 *
 * Java runs under a small shell that holds our end of a pipe on its stdin: when this
 * process ends in any way (Ctrl-C, crash, SIGKILL) the pipe closes and the shell kills
 * Java, so no orphan keeps the port or the data folder.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const jar = join(DYNAMODB_LOCAL_HOME, 'DynamoDBLocal.jar');
  if (!existsSync(jar)) {
    throw new Error(`DynamoDB Local is not installed at ${DYNAMODB_LOCAL_HOME}; run "npm install" (its postinstall step installs it)`);
  }
  const port = options.port ?? (await freePort());
  const javaTmp = join(tmpdir(), 'feedback-dynamodb-local');
  mkdirSync(javaTmp, { recursive: true });
  const storage = options.dbPath ? ['-dbPath', resolve(options.dbPath)] : ['-inMemory'];
  if (options.dbPath) ensurePrivateDir(options.dbPath);
  const lib = join(DYNAMODB_LOCAL_HOME, 'DynamoDBLocal_lib');
  const main = await launcher(`${jar}${delimiter}${join(lib, '*')}`);
  const java = [
    'java',
    `-Djava.io.tmpdir=${javaTmp}`,
    `-Djava.library.path=${lib}`,
    // A plain IPv4 socket (127.0.0.1:port) rather than an IPv6 one bound to ::ffff:127.0.0.1.
    '-Djava.net.preferIPv4Stack=true',
    // The quick JIT only (unless asked for the full one), and one GC thread: a local
    // emulator's start and its short runs of requests never repay the optimizing compiler's
    // threads (measured on 2 cores: a test file against it took 30% less CPU, and it answered
    // no slower).
    ...(options.jit === 'full' ? [] : ['-XX:TieredStopAtLevel=1']),
    '-XX:+UseSerialGC',
    ...main,
    '-port',
    String(port),
    ...storage,
    '-disableTelemetry',
  ]
    .map((word) => `'${word.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  // umask 077: the database files DynamoDB Local creates (and re-creates) under dbPath are
  // readable by the owner only, whatever the caller's umask; the 0700 folder alone would not
  // protect them if it were ever moved or its mode loosened.
  const script = `umask 077; ${java} >/dev/null & java=$!; trap 'kill $java 2>/dev/null; exit 0' TERM INT; cat >/dev/null; kill $java 2>/dev/null; wait $java`;
  // Telemetry off twice (flag and environment variable), and run from the temp folder so the
  // metadata file DynamoDB Local writes to its working directory never lands in the repository.
  const child = spawn('sh', ['-c', script], { stdio: ['pipe', 'ignore', 'inherit'], cwd: javaTmp, env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' } });
  const endpoint = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
  };
  try {
    await waitUntilAnswering(endpoint, child, START_TIMEOUT_MS);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, port, pid: child.pid!, stop };
}
