import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/dynamodb-local';
import { ensurePrivateDir } from '../../local/private-dir';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime';

/**
 * What `npm start` exposes on this machine: DynamoDB Local checks no credentials, so it must
 * listen on loopback only, and DATA_DIR (every account's data, the keys) must be the owner's only.
 */

/** One IPv4 or IPv6 address from /proc/net/tcp{,6}: 32-bit words, each in host (little-endian) byte order. */
function procAddress(hex: string): string {
  const bytes = hex.match(/.{8}/g)!.flatMap((word) =>
    word
      .match(/../g)!
      .reverse()
      .map((byte) => Number.parseInt(byte, 16)),
  );
  if (bytes.length === 4) return bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] << 8) | bytes[2 * i + 1]).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** The local addresses of the sockets listening (state 0A) on this TCP port, on every interface of the kernel's tables. */
function listeningAddresses(port: number): string[] {
  const addresses: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== '0A') continue;
      const [address, portHex] = local.split(':');
      if (Number.parseInt(portHex, 16) === port) addresses.push(procAddress(address));
    }
  }
  return addresses;
}

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

/** Every file and folder under dir (dir included) whose mode lets the group or others in. */
function looseEntries(dir: string): string[] {
  const loose = modeOf(dir) & 0o077 ? [dir] : [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) loose.push(...looseEntries(path));
    else if (modeOf(path) & 0o077) loose.push(`${path} (${modeOf(path).toString(8)})`);
  }
  return loose;
}

describe('procAddress', () => {
  it('reads the kernel notation', () => {
    expect(procAddress('0100007F')).toBe('127.0.0.1');
    expect(procAddress('00000000')).toBe('0.0.0.0');
    expect(procAddress('00000000000000000000000000000000')).toBe('::');
    expect(procAddress('00000000000000000000000001000000')).toBe('::1');
    expect(procAddress('0000000000000000FFFF00000100007F')).toBe('::ffff:7f00:1');
  });
});

const linuxOnly = existsSync('/proc/net/tcp') ? describe : describe.skip;

linuxOnly('npm start (startLocalRuntime with a DATA_DIR)', () => {
  let dataDir: string;
  let runtime: LocalRuntime | undefined;
  let dynamoPort: number;
  const sharedEndpoint = process.env.DYNAMODB_ENDPOINT;

  beforeAll(async () => {
    // A DATA_DIR left by an older version: world-readable folders and files.
    dataDir = join(mkdtempSync(join(tmpdir(), 'feedback-exposure-')), 'data');
    mkdirSync(join(dataDir, 'dynamodb'), { recursive: true, mode: 0o755 });
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'dynamodb'), 0o755);
    writeFileSync(join(dataDir, 'dev-keys.json'), '{}\n', { mode: 0o644 });
    chmodSync(join(dataDir, 'dev-keys.json'), 0o644);
    dynamoPort = await freePort();
    runtime = await startLocalRuntime({
      port: 0,
      dataDir,
      dynamoPort,
      tableName: process.env.TABLE_NAME!,
      devKeys: {},
      consumeStream: false,
    });
  }, 60000);

  afterAll(async () => {
    await runtime?.stop();
    // startLocalRuntime pointed this file at its own DynamoDB Local; cleanup.ts needs the shared one.
    process.env.DYNAMODB_ENDPOINT = sharedEndpoint;
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('runs DynamoDB Local listening on 127.0.0.1 only', () => {
    expect(runtime!.dynamoEndpoint).toBe(`http://127.0.0.1:${dynamoPort}`);
    // Bound to 0.0.0.0 or :: (the jar's own main class), anyone who can reach the machine could read every account's data.
    expect(listeningAddresses(dynamoPort)).toEqual(['127.0.0.1']);
  });

  it('keeps DATA_DIR and every file in it readable by the owner only, older ones included', () => {
    // By now DynamoDB Local has written its database (the table, the dev account and keys).
    const databases = readdirSync(join(dataDir, 'dynamodb'));
    expect(databases.length).toBeGreaterThan(0);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(join(dataDir, 'dynamodb'))).toBe(0o700);
    expect(modeOf(join(dataDir, 'dev-keys.json'))).toBe(0o600);
    for (const name of databases) expect([name, modeOf(join(dataDir, 'dynamodb', name))]).toEqual([name, 0o600]);
    expect(looseEntries(dataDir)).toEqual([]);
  });
});

/** One request to DynamoDB Local with this `Host` header: its status. */
function statusFor(endpoint: string, host: string): Promise<number> {
  const { hostname, port } = new URL(endpoint);
  return new Promise((answered, failed) => {
    const request = httpRequest({ hostname, port, method: 'POST', path: '/', setHost: false, headers: { host } }, (response) => {
      response.resume();
      answered(response.statusCode ?? 0);
    });
    request.once('error', failed);
    request.end('{}');
  });
}

describe('DynamoDB Local (the loopback launcher, as npm start and the tests run it)', () => {
  // Jest's global setup started it with local/dynamodb-local.ts, like npm start does.
  const endpoint = process.env.DYNAMODB_ENDPOINT!;
  const port = new URL(endpoint).port;

  it('refuses with 403 a request whose Host is not a loopback name or address (a DNS-rebinding page sends its own name)', async () => {
    const foreign = [
      'evil.example',
      `evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `10.0.0.1:${port}`,
      `0.0.0.0:${port}`,
      `[::2]:${port}`,
      '',
    ];
    for (const host of foreign) expect([host, await statusFor(endpoint, host)]).toEqual([host, 403]);
  });

  it('answers a loopback Host, with or without a port (an unsigned request: 400 from DynamoDB Local itself)', async () => {
    for (const host of ['localhost', `localhost:${port}`, `LocalHost:${port}`, `127.0.0.1:${port}`, '127.1.2.3', `[::1]:${port}`, '[::1]']) {
      expect([host, await statusFor(endpoint, host)]).toEqual([host, 400]);
    }
  });
});

describe('ensurePrivateDir', () => {
  it('creates a missing folder, with its parents, as 0700', () => {
    const root = mkdtempSync(join(tmpdir(), 'feedback-private-'));
    try {
      const dir = join(root, 'a', 'b');
      ensurePrivateDir(dir);
      expect(modeOf(dir)).toBe(0o700);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('tightens an existing folder, its subfolders and files, keeping the owner bits', () => {
    const root = mkdtempSync(join(tmpdir(), 'feedback-private-'));
    try {
      mkdirSync(join(root, 'sub'));
      writeFileSync(join(root, 'sub', 'data.db'), '');
      writeFileSync(join(root, 'run.sh'), '');
      chmodSync(root, 0o755);
      chmodSync(join(root, 'sub'), 0o777);
      chmodSync(join(root, 'sub', 'data.db'), 0o666);
      chmodSync(join(root, 'run.sh'), 0o755);
      ensurePrivateDir(root);
      expect(modeOf(root)).toBe(0o700);
      expect(modeOf(join(root, 'sub'))).toBe(0o700);
      expect(modeOf(join(root, 'sub', 'data.db'))).toBe(0o600);
      expect(modeOf(join(root, 'run.sh'))).toBe(0o700);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
