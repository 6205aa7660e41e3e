/**
 * The recipes of docs/architecture.md, proved by the compiler: a throwaway schema or period
 * is added to a copy of the code (the repository's files never change), and the type checker
 * must name exactly the places the recipe lists. A place that silently accepted the new
 * name (a `default:` branch, a `string`) would be missing from the errors.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { basename, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../lib/paths';
import { NATIVE_TSC } from '../../scripts/native-tsc';
import { runDir } from '../support/run-shared';

jest.setTimeout(120_000);

/** TypeScript 7's compiler, as `npm run typecheck` runs it, with diagnostics one per line. */
const TSC = [...NATIVE_TSC, '--pretty', 'false'];

const PROJECTS = ['tsconfig.json', 'console/tsconfig.json'];

/** The folders the server's project compiles (its `include`, which holds the console's too), but the tests: the recipes name places in the product. */
function productFolders(): string[] {
  const { include } = JSON.parse(fs.readFileSync(join(REPO_ROOT, 'tsconfig.json'), 'utf8')) as { include: string[] };
  return [...new Set(include.map((pattern) => pattern.split('/')[0]))].filter((folder) => folder !== 'test');
}

/**
 * A copy of the product's code with `edits` applied, in the run's folder: the compiler reads
 * files, so the edits go to a copy and the repository never changes. Its node_modules links to
 * the installed packages, but a package that is a link into the repository (the typed client)
 * is linked to the copy's folder: the edits reach the files it resolves to.
 */
function editedCopy(edits: Record<string, (text: string) => string>): string {
  const root = fs.mkdtempSync(join(runDir(), 'recipe-'));
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.base.json']) fs.copyFileSync(join(REPO_ROOT, file), join(root, file));
  // Without installed packages and build output.
  const copied = (source: string) => !['node_modules', 'dist'].includes(basename(source));
  for (const folder of productFolders()) fs.cpSync(join(REPO_ROOT, folder), join(root, folder), { recursive: true, filter: copied });
  const linkPackages = (folder: string) => {
    fs.mkdirSync(join(root, folder));
    for (const entry of fs.readdirSync(join(REPO_ROOT, folder), { withFileTypes: true })) {
      const name = join(folder, entry.name);
      if (entry.name === '.bin') continue;
      if (entry.isDirectory() && entry.name.startsWith('@')) linkPackages(name);
      else if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(join(REPO_ROOT, name)), join(root, name));
      else fs.symlinkSync(join(REPO_ROOT, name), join(root, name));
    }
  };
  linkPackages('node_modules');
  for (const [file, edit] of Object.entries(edits)) {
    const path = join(root, file);
    if (!fs.existsSync(path)) throw new Error(`the recipe test edits ${file}, which is not in the product's folders`);
    fs.writeFileSync(path, edit(fs.readFileSync(path, 'utf8')));
  }
  return root;
}

/** The files the compiler names in `project` of the copy at `root`. A message without a file (a broken configuration) is thrown. */
async function filesNamed(root: string, project: string): Promise<string[]> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [...TSC, '-p', project], { cwd: root, maxBuffer: 64 << 20 }).catch(
    (failure: { stdout?: string; stderr?: string; code?: unknown }) => {
      if (typeof failure.code !== 'number') throw failure;
      return { stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
    },
  );
  const files = new Set<string>();
  for (const line of stdout.split('\n')) {
    // A diagnostic's first line: `path(line,column): error TS1234: ...`; its details are indented.
    const diagnostic = /^(.+)\(\d+,\d+\): error TS\d+: /.exec(line);
    if (diagnostic) files.add(relative(root, join(root, diagnostic[1])));
    else if (/^\S/.test(line)) throw new Error(`tsc -p ${project}: ${line}`);
  }
  if (stderr.trim()) throw new Error(`tsc -p ${project}: ${stderr}`);
  return [...files];
}

/** The files with type errors when `edits` replace the texts of some files, across the server's and the console's projects. */
async function filesWithErrors(edits: Record<string, (text: string) => string>): Promise<string[]> {
  const root = editedCopy(edits);
  try {
    const named = await Promise.all(PROJECTS.map((project) => filesNamed(root, project)));
    return [...new Set(named.flat())].sort();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the recipe test no longer finds ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

test('a new schema: its name in SCHEMAS and its config type, then the compiler names its server record, its option labels and its console view', async () => {
  const errors = await filesWithErrors({
    'shared/schema-options.ts': (text) =>
      replaced(
        replaced(text, "'message', 'tagged-message'] as const;", "'message', 'tagged-message', 'survey'] as const;"),
        "  'tagged-message': { tags: TagOption[] };",
        "  'tagged-message': { tags: TagOption[] };\n  survey: Record<string, never>;",
      ),
    'clients/typescript/src/generated.ts': (text) => regeneratedClient(text, 'tagged-message', 'survey'),
  });
  expect(errors).toEqual([
    'console/src/components/widget-preview.tsx',
    'console/src/schemas/index.ts',
    'functions/api/result-models.ts',
    'functions/domain/schemas.ts',
    'shared/schema-options.ts',
  ]);
});

test('a new period: its entry in PERIODS, then only the console names what it needs (its label and how to say its span)', async () => {
  const errors = await filesWithErrors({
    'shared/periods.ts': (text) =>
      replaced(
        text,
        "  rolling12m: { kind: 'rolling', unit: 'month', length: 12, pointGranularity: 'month', ranked: true },",
        "  rolling12m: { kind: 'rolling', unit: 'month', length: 12, pointGranularity: 'month', ranked: true },\n  rolling90d: { kind: 'rolling', unit: 'day', length: 90, pointGranularity: 'day', ranked: true },",
      ),
    'clients/typescript/src/generated.ts': (text) => regeneratedClient(text, 'rolling12m', 'rolling90d'),
  });
  expect(errors).toEqual(['console/src/lib/periods.ts']);
});

/** What `npm run client:generate` writes for the new name (test/client/generated.test.ts checks the real file is current). */
function regeneratedClient(text: string, last: string, added: string): string {
  return replaced(text, `| "${last}"`, `| "${last}"`).replaceAll(`| "${last}"`, `| "${last}" | "${added}"`);
}
