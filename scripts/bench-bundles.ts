/**
 * `npm run bench:bundles`: the size of every Lambda bundle, built with the stack's esbuild
 * settings (lib/bundling.ts). Bundle size is a cold-start cost paid on every scale-out, and
 * it shows that each function carries only its own operation's code. Sizes are exact for a
 * given lockfile; nothing is timed.
 */
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUNDLE_BUILD_OPTIONS, BUNDLE_EXTERNALS, BUNDLE_TARGET } from '../lib/bundling';
import { RANKER_ENTRY } from '../lib/paths';
import { STREAM_CONSUMERS } from '../functions/stream/consumers';
import { handlerModule, operationList } from '../functions/api/registry';

async function bundleSize(entry: string) {
  const result = await build({
    ...BUNDLE_BUILD_OPTIONS,
    entryPoints: [entry],
    write: false,
  });
  const code = result.outputFiles[0].contents;
  const inputs = Object.keys(result.metafile.inputs);
  return {
    bytes: code.byteLength,
    gzip: gzipSync(code).byteLength,
    handlerModules: inputs.filter((input) => input.startsWith('functions/handlers/')).length,
  };
}

/** The widgets' functions, started on every traffic peak: their bundles must stay small (docs/scaling.md). */
const HOT_PATH = ['responses/create', 'responses/getAggregates'];
const HOT_PATH_BUDGET_BYTES = 250 * 1024;

async function main() {
  const root = resolve(__dirname, '..');
  const entries = [
    ...operationList.map((operation) => ({ name: `${operation.resource}/${operation.name}`, entry: resolve(root, handlerModule(operation)) })),
    ...STREAM_CONSUMERS.map((consumer) => ({ name: `${consumer.name} consumer`, entry: consumer.entry })),
    { name: 'ranker job', entry: RANKER_ENTRY },
  ];
  const rows: string[] = [];
  const overBudget: string[] = [];
  let total = 0;
  for (const { name, entry } of entries) {
    const size = await bundleSize(entry);
    total += size.bytes;
    if (HOT_PATH.includes(name) && size.bytes > HOT_PATH_BUDGET_BYTES) overBudget.push(name);
    rows.push(`| ${name} | ${(size.bytes / 1024).toFixed(1)} | ${(size.gzip / 1024).toFixed(1)} | ${size.handlerModules} |`);
  }
  console.log(
    [
      `# Lambda bundle sizes (esbuild, ${BUNDLE_TARGET}, minified, externals ${BUNDLE_EXTERNALS.join(', ')})`,
      '',
      '| function | KiB | KiB gzip | handler modules inside |',
      '|---|---:|---:|---:|',
      ...rows,
      '',
      `${entries.length} bundles, ${(total / 1024).toFixed(0)} KiB in all. "handler modules inside" is 1 when a bundle carries only its own operation.`,
      `Hot path (${HOT_PATH.join(', ')}): budget ${HOT_PATH_BUDGET_BYTES / 1024} KiB each; ${overBudget.length === 0 ? 'within it' : `OVER: ${overBudget.join(', ')}`}.`,
    ].join('\n'),
  );
  if (overBudget.length > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`bench:bundles failed: ${(error as Error).message}`);
  process.exitCode = 1;
});
