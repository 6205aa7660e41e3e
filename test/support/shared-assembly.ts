/**
 * The app synthesized once per test run, as `cdk deploy -c mailFrom=...` synthesizes it
 * (cdk.json's context and a sender, real esbuild bundling of every function), for every test file that needs a
 * cloud assembly with bundles (infra/deploy-rehearsal.test.ts runs them, infra/stack.test.ts
 * checks them). Bundling the ~50 functions is most of a synthesis (an esbuild run each), so
 * two files synthesizing the same app each paid it for nothing.
 *
 * The first file to ask synthesizes it into the run's folder (run-shared.ts); a file asking
 * meanwhile waits for it (test/support/sequencer.js orders the files so that none has to).
 * Inside the repository: the bundles leave @aws-sdk/* to the Lambda runtime and resolve it
 * here from node_modules.
 *
 * CDK runs this repository's esbuild as `npx --no-install esbuild ...`, once per function:
 * npx's own start-up (~0.8 s of CPU) cost more than most bundles, and so does the start of
 * node for esbuild's own launcher (node_modules/.bin/esbuild, a script that runs the native
 * binary: ~0.2 s a function). During the synthesis a stand-in `npx` first on PATH runs that
 * very native binary with the same arguments (the bundles are byte for byte those of
 * `cdk deploy`) and hands anything else to the real npx.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createFeedbackApp } from '../../lib/app';
import { REPO_ROOT } from '../../lib/paths';
import { sharedInRun } from './run-shared';

/** cdk.json's context (feature flags), which the CDK CLI gives the app. */
export function cdkJsonContext(): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')).context ?? {};
}

/** The native esbuild binary of the installed esbuild (its platform package, as esbuild's launcher finds it). */
function nativeEsbuild(): string | undefined {
  try {
    return require.resolve(`@esbuild/${process.platform}-${process.arch}/bin/esbuild`, { paths: [REPO_ROOT] });
  } catch {
    return undefined;
  }
}

/** Runs `synthesize` with the stand-in npx (see above) first on PATH. */
function withDirectEsbuild<T>(base: string, synthesize: () => T): T {
  const realNpx = (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'npx'))
    .find((file) => fs.existsSync(file));
  const esbuild = nativeEsbuild() ?? path.join(REPO_ROOT, 'node_modules', '.bin', 'esbuild');
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

/**
 * The sender the tests deploy with (`cdk deploy -c mailFrom=...`): mail is on, as in a
 * deployment that mails its members (test/infra/stack.test.ts checks the stack without one too).
 */
export const TEST_MAIL_FROM = 'Feedback <feedback@mail.example.com>';

/** The context `cdk deploy -c mailFrom=<TEST_MAIL_FROM>` gives the app: cdk.json's, and the sender. */
export function deployContext(): Record<string, unknown> {
  return { ...cdkJsonContext(), mailFrom: TEST_MAIL_FROM };
}

let assembly: Promise<string> | undefined;

/** The directory of this run's cloud assembly (cdk.out layout); synthesized on the first call of the run. */
export function sharedCloudAssembly(): Promise<string> {
  assembly ??= sharedInRun('assembly', (partial, base) => {
    // Without CDK's built-in CloudFormation validation (10 CPU s for this app): stack.test.ts
    // synthesizes the same app, unbundled, with it and checks its report.
    withDirectEsbuild(base, () => createFeedbackApp({ outdir: partial, context: deployContext(), builtinCloudFormationValidation: false }).app.synth());
  });
  return assembly;
}
