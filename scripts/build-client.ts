import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { NATIVE_TSC } from './native-tsc';

/**
 * Builds clients/typescript: one ES module bundle (esbuild; no dependency, so nothing is
 * left external) and its declarations (TypeScript 7's tsc, with the DOM library and no Node types, so the
 * client compiles for browsers as well as Node 20+). `npm run client:build`; the client's
 * build test runs it too.
 */

export const CLIENT_ROOT = resolve(__dirname, '../clients/typescript');

export async function buildClient(outDir = resolve(CLIENT_ROOT, 'dist')): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: [resolve(CLIENT_ROOT, 'src/index.ts')],
    outfile: resolve(outDir, 'index.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'error',
  });
  const tsc = spawnSync(process.execPath, [...NATIVE_TSC, '-p', resolve(CLIENT_ROOT, 'tsconfig.json'), '--outDir', outDir], { encoding: 'utf8' });
  if (tsc.status !== 0) throw new Error(`tsc failed for the client:\n${tsc.stdout}${tsc.stderr}`);
}

if (require.main === module) {
  buildClient().then(
    () => console.log(`Built ${resolve(CLIENT_ROOT, 'dist')}`),
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
