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
 * CDK runs this repository's esbuild as `npx --no-install esbuild --bundle <entry>
 * --outfile=<dir>/index.js <flags>`, once per function: npx's own start-up (~0.8 s of CPU) cost
 * more than most bundles, and so does the start of node for esbuild's own launcher
 * (node_modules/.bin/esbuild, a script that runs the native binary: ~0.2 s a function). And
 * each of the ~76 runs parses the same modules again (~0.6 s of CPU each, ~45 s in all). So
 * the synthesis has three steps, each with a stand-in `npx` first on PATH (anything but an
 * esbuild call goes to the real npx):
 *  1. the app is constructed once with a stand-in that records each `--bundle` call and
 *     leaves a placeholder file where CDK expects the bundle (~3 s of CPU);
 *  2. one esbuild run per set of flags bundles every recorded entry with those same flags
 *     (a build with many entry points parses each module once: ~17 s of CPU for all), each
 *     into a folder of its own beside where CDK bundles, so that the source maps' relative
 *     paths are the same;
 *  3. the app is constructed and synthesized with a stand-in that hands CDK the prebuilt files
 *     of a call it recorded (same entry, same flags) and runs the native esbuild for anything else.
 * The bundles are byte for byte those of `cdk deploy` (checked for all 76 when this was made:
 * esbuild bundles each entry point of a build without code splitting on its own).
 */
import { spawnSync } from 'node:child_process';
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

/** The real npx: the first on PATH. */
function realNpx(): string | undefined {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'npx'))
    .find((file) => fs.existsSync(file));
}

const shellQuoted = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * A stand-in `npx` (a shell script in `bin`, first on PATH while `work` runs): `bundleCall`
 * (shell code, the arguments after `--no-install esbuild` in "$@") handles a `--bundle` call,
 * and falls through to the native esbuild when it does not take it; any other esbuild call
 * runs the native esbuild, anything else the real npx.
 */
function withStandInNpx<T>(bin: string, npx: string, esbuild: string, bundleCall: string, work: () => T): T {
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(
    path.join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = "--no-install" ] && [ "$2" = "esbuild" ]; then\n  shift 2\n  if [ "$1" = "--bundle" ]; then\n${bundleCall}\n  fi\n  exec ${shellQuoted(esbuild)} "$@"\nfi\nexec ${shellQuoted(npx)} "$@"\n`,
    { mode: 0o755 },
  );
  const previous = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${previous ?? ''}`;
  try {
    return work();
  } finally {
    process.env.PATH = previous;
  }
}

/** Sets `outfile` of the call's arguments ("$@") and `others`: the rest, each preceded by a newline (the key of a call). */
const READ_CALL = `    outfile=; others=\n    for arg in "$@"; do\n      case "$arg" in\n        --outfile=*) outfile="\${arg#--outfile=}" ;;\n        *) others="$others\n$arg" ;;\n      esac\n    done`;

/**
 * Synthesizes the app into `outdir` with every function's bundle made by one esbuild run per
 * set of flags (the three steps above). Without the native esbuild (or on Windows), CDK's
 * own way.
 */
function synthesizeWithSharedBundling(outdir: string, base: string, synthesize: () => void): void {
  const npx = realNpx();
  const esbuild = nativeEsbuild();
  if (!npx || !esbuild || process.platform === 'win32') {
    synthesize();
    return;
  }
  // 1. What CDK asks esbuild for, one call a line per argument, a blank line after each call.
  const discovery = path.join(base, 'bundles-discovery');
  const calls = path.join(discovery, 'calls');
  fs.mkdirSync(discovery, { recursive: true });
  const record = `${READ_CALL}\n    if [ -n "$outfile" ]; then\n      printf '%s\\n\\n' "$others" >> ${shellQuoted(calls)}\n      printf 'placeholder' > "$outfile"\n      exit 0\n    fi`;
  withStandInNpx(path.join(discovery, 'bin'), npx, esbuild, record, () => {
    createFeedbackApp({ outdir: path.join(discovery, 'assembly'), context: deployContext(), builtinCloudFormationValidation: false });
  });
  // 2. One build per set of flags (the arguments but the entry, after `--bundle`), into outdir/prebuilt-<n>-<hash>/.
  const recorded = fs.existsSync(calls)
    ? fs
        .readFileSync(calls, 'utf8')
        .split('\n\n')
        .map((call) => call.split('\n').filter((arg) => arg !== ''))
        .filter((args) => args.length > 1)
    : [];
  const byFlags = new Map<string, string[]>();
  for (const [bundle, entry, ...flags] of recorded) {
    const key = JSON.stringify([bundle, ...flags]);
    byFlags.set(key, [...(byFlags.get(key) ?? []), entry]);
  }
  const prebuilt = new Map<string, string>();
  [...byFlags].forEach(([key, entries], index) => {
    const [bundle, ...flags] = JSON.parse(key) as string[];
    const metafile = path.join(discovery, `meta-${index}.json`);
    const args = [bundle, ...new Set(entries), ...flags, `--outdir=${outdir}`, `--entry-names=prebuilt-${index}-[hash]/index`, `--metafile=${metafile}`];
    // Should it fail, CDK's calls are not served and bundle one by one, failing as they would.
    if (spawnSync(esbuild, args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'ignore'] }).status !== 0) return;
    const { outputs } = JSON.parse(fs.readFileSync(metafile, 'utf8')) as { outputs: Record<string, { entryPoint?: string }> };
    for (const [output, { entryPoint }] of Object.entries(outputs)) {
      if (entryPoint) prebuilt.set(JSON.stringify([bundle, path.resolve(REPO_ROOT, entryPoint), ...flags]), path.dirname(path.resolve(REPO_ROOT, output)));
    }
  });
  fs.rmSync(discovery, { recursive: true, force: true });
  // 3. A recorded call gets its prebuilt files; a call not recorded is bundled as CDK would.
  const cases = [...prebuilt].map(([key, dir]) => {
    const pattern = shellQuoted((JSON.parse(key) as string[]).map((arg) => `\n${arg}`).join(''));
    return `      ${pattern.replace(/\n/g, '\'"$nl"\'')}) cp ${shellQuoted(dir)}/* "$(dirname "$outfile")/" && exit 0 ;;`;
  });
  const serve = `${READ_CALL}\n    nl='\n'\n    [ -n "$outfile" ] && case "$others" in\n${cases.join('\n')}\n    esac`;
  try {
    withStandInNpx(path.join(base, 'npx-stand-in'), npx, esbuild, serve, synthesize);
  } finally {
    for (const dir of new Set(prebuilt.values())) fs.rmSync(dir, { recursive: true, force: true });
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
    synthesizeWithSharedBundling(partial, base, () => {
      createFeedbackApp({ outdir: partial, context: deployContext(), builtinCloudFormationValidation: false }).app.synth();
    });
  });
  return assembly;
}
