import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Creates `dir` (and its parents) if missing and makes it and everything in it readable by the
 * owner only: folders 0700, files without group and other bits (0600 for data files).
 *
 * For DATA_DIR, which holds DynamoDB Local's files (every account's data, and DynamoDB Local
 * checks no credentials), the dev keys and the secrets. Existing folders are tightened too, so
 * data left by older versions with 0755/0644 is covered; symbolic links are not followed.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  restrict(dir);
}

function restrict(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
    for (const name of readdirSync(path)) restrict(join(path, name));
  } else if (stat.mode & 0o077) {
    chmodSync(path, stat.mode & 0o700);
  }
}

/**
 * A 32-byte key kept in a file (base64), created with 32 random bytes if absent, owner-only
 * (the webhook secrets key in DATA_DIR).
 */
export function keyFromFile(path: string): Buffer {
  if (!existsSync(path)) {
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  chmodSync(path, 0o600);
  const value = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (value.length !== 32) throw new Error(`${path} must hold the base64 of 32 bytes`);
  return value;
}
