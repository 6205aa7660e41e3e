/**
 * The app synthesized once per test run, as `cdk deploy` synthesizes it (cdk.json's
 * context, real esbuild bundling of every function), for every test file that needs a
 * cloud assembly with bundles (infra/deploy-rehearsal.test.ts runs them, infra/stack.test.ts
 * checks them). Bundling the ~28 functions is most of a synthesis (each is an esbuild run
 * through npx), so two files synthesizing the same app each paid it for nothing.
 *
 * The first file to ask synthesizes it into the run's folder (TEST_RUN_DIR, made by
 * global-setup.ts and removed by global-teardown.ts); a file asking meanwhile waits for it
 * (test/support/sequencer.js orders the files so that none has to). Inside the repository:
 * the bundles leave @aws-sdk/* to the Lambda runtime and resolve it here from node_modules.
 *
 * CDK runs this repository's esbuild as `npx --no-install esbuild ...`, once per function:
 * npx's own start-up (~0.8 s of CPU) cost more than most bundles. During the synthesis a
 * stand-in `npx` first on PATH runs that very esbuild binary with the same arguments (the
 * bundles are byte for byte those of `cdk deploy`) and hands anything else to the real npx.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createFeedbackApp } from '../../lib/app';
import { REPO_ROOT } from '../../lib/paths';

/** How long a file waits for another file's synthesis before giving up. */
const WAIT_LIMIT_MS = 15 * 60_000;

/** cdk.json's context (feature flags), which the CDK CLI gives the app. */
export function cdkJsonContext(): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')).context ?? {};
}

function runDir(): string {
  const dir = process.env.TEST_RUN_DIR;
  if (dir) return dir;
  // Outside jest's global setup (a file run on its own with another config): a folder of this process.
  fs.mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
  const own = fs.mkdtempSync(path.join(REPO_ROOT, '.tmp', 'test-run-'));
  process.env.TEST_RUN_DIR = own;
  process.once('exit', () => fs.rmSync(own, { recursive: true, force: true }));
  return own;
}

/** Runs `synthesize` with the stand-in npx (see above) first on PATH. */
function withDirectEsbuild<T>(base: string, synthesize: () => T): T {
  const realNpx = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'npx'))
    .find((file) => fs.existsSync(file));
  const esbuild = path.join(REPO_ROOT, 'node_modules', '.bin', 'esbuild');
  if (!realNpx || !fs.existsSync(esbuild) || process.platform === 'win32') return synthesize();
  const bin = path.join(base, 'npx-stand-in');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(
    path.join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = "--no-install" ] && [ "$2" = "esbuild" ]; then shift 2; exec ${JSON.stringify(esbuild)} "$@"; fi\nexec ${JSON.stringify(realNpx)} "$@"\n`,
    { mode: 0o755 },
  );
  const previous = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${previous ?? ''}`;
  try {
    return synthesize();
  } finally {
    process.env.PATH = previous;
  }
}

async function waitForOther(dir: string, failed: string): Promise<string> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (Date.now() < deadline) {
    if (fs.existsSync(dir)) return dir;
    if (fs.existsSync(failed)) throw new Error(`the shared synthesis failed in another test file:\n${fs.readFileSync(failed, 'utf8')}`);
    await new Promise((wait) => setTimeout(wait, 250));
  }
  throw new Error(`no shared cloud assembly in ${dir} after ${WAIT_LIMIT_MS / 60_000} minutes`);
}

let assembly: Promise<string> | undefined;

/** The directory of this run's cloud assembly (cdk.out layout); synthesized on the first call of the run. */
export function sharedCloudAssembly(): Promise<string> {
  assembly ??= (async () => {
    const base = runDir();
    fs.mkdirSync(base, { recursive: true });
    const dir = path.join(base, 'assembly');
    const failed = path.join(base, 'assembly.failed');
    if (fs.existsSync(dir)) return dir;
    try {
      fs.mkdirSync(path.join(base, 'assembly.lock'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return waitForOther(dir, failed);
    }
    const partial = path.join(base, 'assembly.partial');
    try {
      withDirectEsbuild(base, () => createFeedbackApp({ outdir: partial, context: cdkJsonContext() }).app.synth());
      // Complete or absent: a file that waits never reads half an assembly.
      fs.renameSync(partial, dir);
    } catch (error) {
      fs.writeFileSync(failed, String((error as Error)?.stack ?? error));
      throw error;
    }
    return dir;
  })();
  return assembly;
}
