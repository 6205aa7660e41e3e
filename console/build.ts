/**
 * Builds the console (console/src) into static files: `index.html`, hashed `assets/*`
 * (entry, lazily loaded chunks, one CSS file) and the files of console/public.
 *
 *   npx tsx console/build.ts [outdir]       (default console/dist)
 *
 * Used by `npm start` (bin/serve.ts), the browser tests (each builds into a folder of its own)
 * and the CDK stack (lib/console.ts, at synth time, offline: esbuild only).
 */
import { build, buildSync, type BuildOptions, type Metafile } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const CONSOLE_ROOT = __dirname;
export const DEFAULT_CONSOLE_DIR = join(CONSOLE_ROOT, 'dist');

export interface ConsoleBuild {
  outdir: string;
  /** Paths (from outdir, with a leading /) of the JavaScript loaded before the app renders: the entry and its static imports. */
  initialScripts: string[];
  /** Sum of their gzip sizes, in bytes. */
  initialScriptGzipBytes: number;
  /** Every emitted JavaScript file with its raw and gzip size. */
  scripts: { path: string; bytes: number; gzipBytes: number }[];
}

export interface ConsoleBuildOptions {
  outdir?: string;
  /** Default true. */
  minify?: boolean;
}

/** The entry's JavaScript and every chunk it imports statically (what loads before first render). */
function initialOutputs(metafile: Metafile, entryOutput: string): string[] {
  const seen = new Set<string>();
  const visit = (output: string) => {
    if (seen.has(output)) return;
    seen.add(output);
    for (const imported of metafile.outputs[output]?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entryOutput);
  return [...seen];
}

function prepare(options: ConsoleBuildOptions): { outdir: string; esbuildOptions: BuildOptions & { metafile: true } } {
  const outdir = resolve(options.outdir ?? DEFAULT_CONSOLE_DIR);
  const assets = join(outdir, 'assets');
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(assets, { recursive: true });
  return {
    outdir,
    esbuildOptions: {
      absWorkingDir: CONSOLE_ROOT,
      entryPoints: { app: join(CONSOLE_ROOT, 'src/main.tsx'), styles: join(CONSOLE_ROOT, 'src/styles.css') },
      outdir: assets,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: ['es2022', 'chrome111', 'firefox111', 'safari16'],
      entryNames: '[name]-[hash]',
      chunkNames: '[name]-[hash]',
      assetNames: '[name]-[hash]',
      jsx: 'automatic',
      // The typed client (@feedback-service/client, linked from clients/typescript by the root
      // package.json) is bundled from its TypeScript source, the export condition tsc reads too:
      // the console then always matches this checkout's registry, and building it (npm start,
      // the tests, cdk synth) needs no earlier `npm run client:build`.
      conditions: ['@feedback-service/source'],
      minify: options.minify ?? true,
      sourcemap: false,
      legalComments: 'none',
      metafile: true,
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    },
  };
}

/** index.html (with the hashed names), the public files, and the sizes. */
function finish(outdir: string, metafile: Metafile): ConsoleBuild {
  const outputs = Object.keys(metafile.outputs);
  // esbuild names outputs relative to the working directory.
  const absolute = (output: string) => resolve(CONSOLE_ROOT, output);
  const publicPath = (output: string) => `/${relative(outdir, absolute(output)).split('\\').join('/')}`;
  const entryScript = outputs.find((output) => metafile.outputs[output].entryPoint?.endsWith('src/main.tsx'));
  const stylesheet = outputs.find((output) => output.endsWith('.css') && basename(output).startsWith('styles-'));
  if (!entryScript || !stylesheet) throw new Error('console build: entry script or stylesheet missing from the output');
  const initial = initialOutputs(metafile, entryScript);

  const template = readFileSync(join(CONSOLE_ROOT, 'index.html'), 'utf8');
  const preloads = initial
    .filter((output) => output !== entryScript)
    .map((output) => `<link rel="modulepreload" href="${publicPath(output)}">`)
    .join('\n    ');
  const html = template
    .replace('<!-- styles -->', `<link rel="stylesheet" href="${publicPath(stylesheet)}">`)
    .replace('<!-- scripts -->', `<script type="module" src="${publicPath(entryScript)}"></script>${preloads ? `\n    ${preloads}` : ''}`);
  writeFileSync(join(outdir, 'index.html'), html);
  const publicDir = join(CONSOLE_ROOT, 'public');
  if (existsSync(publicDir)) cpSync(publicDir, outdir, { recursive: true });

  const scripts = outputs
    .filter((output) => output.endsWith('.js'))
    .map((output) => {
      const content = readFileSync(absolute(output));
      return { path: publicPath(output), bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
    });
  const initialScripts = initial.map(publicPath);
  const initialScriptGzipBytes = scripts.filter((script) => initialScripts.includes(script.path)).reduce((sum, script) => sum + script.gzipBytes, 0);
  return { outdir, initialScripts, initialScriptGzipBytes, scripts };
}

export async function buildConsole(options: ConsoleBuildOptions = {}): Promise<ConsoleBuild> {
  const { outdir, esbuildOptions } = prepare(options);
  const result = await build(esbuildOptions);
  return finish(outdir, result.metafile);
}

/** The same build, synchronously: for the CDK app, whose constructs cannot wait (esbuild only, offline). */
export function buildConsoleSync(options: ConsoleBuildOptions = {}): ConsoleBuild {
  const { outdir, esbuildOptions } = prepare(options);
  const result = buildSync(esbuildOptions);
  return finish(outdir, result.metafile);
}

if (require.main === module) {
  const outdir = process.argv[2];
  buildConsole({ outdir })
    .then((built) => {
      console.log(`console built in ${relative(process.cwd(), built.outdir) || '.'}`);
      for (const script of built.scripts) {
        const initial = built.initialScripts.includes(script.path) ? ' (initial)' : '';
        console.log(`  ${script.path.padEnd(40)} ${String(script.bytes).padStart(8)} B  ${String(script.gzipBytes).padStart(7)} B gzip${initial}`);
      }
      console.log(`initial JavaScript: ${built.initialScriptGzipBytes} B gzip (budget 250000)`);
    })
    .catch((error) => {
      console.error(`console build failed: ${(error as Error).message}`);
      process.exit(1);
    });
}
