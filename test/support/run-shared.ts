/**
 * What test files make once per jest run and share: the synthesized app (shared-assembly.ts),
 * the console build (browser.ts). It lives in the run's folder (TEST_RUN_DIR, made by
 * global-setup.ts and removed by global-teardown.ts). The first file to ask makes it; a file
 * asking meanwhile, in another worker, waits for it. A directory is complete or absent: it is
 * made under another name and renamed, so a waiting file never reads half of it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../lib/paths';

/** How long a file waits for another file to make what it needs. */
const WAIT_LIMIT_MS = 15 * 60_000;

/** The run's folder (TEST_RUN_DIR); outside jest's global setup (a file run with another config), a folder of this process. */
export function runDir(): string {
  const dir = process.env.TEST_RUN_DIR;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }
  fs.mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
  const own = fs.mkdtempSync(path.join(REPO_ROOT, '.tmp', 'test-run-'));
  process.env.TEST_RUN_DIR = own;
  process.once('exit', () => fs.rmSync(own, { recursive: true, force: true }));
  return own;
}

async function waitForOther(dir: string, failed: string): Promise<void> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (Date.now() < deadline) {
    if (fs.existsSync(dir)) return;
    if (fs.existsSync(failed))
      throw new Error(`making the run's shared ${path.basename(dir)} failed in another test file:\n${fs.readFileSync(failed, 'utf8')}`);
    await new Promise((wait) => setTimeout(wait, 250));
  }
  throw new Error(`no shared ${path.basename(dir)} in ${path.dirname(dir)} after ${WAIT_LIMIT_MS / 60_000} minutes`);
}

/**
 * The directory `name` of this run's folder, made by `make` (given the directory to fill) in
 * the first test file that asks for it in this run.
 */
export async function sharedInRun(name: string, make: (partialDir: string, base: string) => void | Promise<void>): Promise<string> {
  const base = runDir();
  const dir = path.join(base, name);
  const failed = `${dir}.failed`;
  if (fs.existsSync(dir)) return dir;
  try {
    fs.mkdirSync(`${dir}.lock`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    await waitForOther(dir, failed);
    return dir;
  }
  const partial = `${dir}.partial`;
  try {
    await make(partial, base);
    fs.renameSync(partial, dir);
  } catch (error) {
    fs.writeFileSync(failed, String((error as Error)?.stack ?? error));
    throw error;
  }
  return dir;
}
