/**
 * The command-line tools of bin/ as the CLI tests run them: each bundled once per jest run
 * (esbuild, into the run's folder: run-shared.ts) and started with plain node. Under tsx,
 * every start resolved and loaded a few hundred modules through its loader (about 1.5 s of
 * CPU per start); the bundle of the same code starts in about a quarter of that, and the
 * CLI tests start dozens.
 */
import { build } from 'esbuild';
import { basename, join } from 'node:path';
import { repoPath } from '../../lib/paths';
import { sharedInRun } from './run-shared';

export type CliEntry = 'bin/keys.ts' | 'bin/export.ts' | 'bin/import.ts' | 'bin/rebuild-aggregates.ts' | 'bin/index-users.ts' | 'bin/digest.ts';

/** The path of `entry` bundled for node (made by the first file of the run that asks). */
export async function cliBundle(entry: CliEntry): Promise<string> {
  const name = basename(entry, '.ts');
  const dir = await sharedInRun(`cli-${name}`, async (partial) => {
    await build({
      entryPoints: [repoPath(entry)],
      outfile: join(partial, `${name}.cjs`),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      logLevel: 'error',
    });
  });
  return join(dir, `${name}.cjs`);
}
