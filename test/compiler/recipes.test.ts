/**
 * The recipes of docs/architecture.md, proved by the compiler: a throwaway schema or period
 * is added to a copy of the catalogue (in memory; no file changes), and the type checker
 * must name exactly the places the recipe lists. A place that silently accepted the new
 * name (a `default:` branch, a `string`) would be missing from the errors.
 */
import { join, relative } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../../lib/paths';

jest.setTimeout(240_000);

const PROJECTS = ['tsconfig.json', 'console/tsconfig.json'];

/**
 * The project's files that import one of `edited` (directly or through other files, type-only
 * imports included), and the edited files themselves: only their types can change, so no other
 * file can gain an error from the edit, and only these are type checked (a fraction of the
 * project for a catalogue the console alone reads). An edited file that is not a module, or
 * declares globals, could reach any file: then every file is checked.
 */
function affectedFiles(program: ts.Program, edited: Set<string>, options: ts.CompilerOptions): readonly ts.SourceFile[] {
  const files = program.getSourceFiles().filter((file) => !program.isSourceFileFromExternalLibrary(file) && !program.isSourceFileDefaultLibrary(file));
  const editedFiles = files.filter((file) => edited.has(relative(REPO_ROOT, file.fileName)));
  if (editedFiles.some((file) => !ts.isExternalModule(file) || /\bdeclare\s+global\b/.test(file.text))) return files;
  const cache = ts.createModuleResolutionCache(REPO_ROOT, (name) => name, options);
  const importers = new Map<string, ts.SourceFile[]>();
  for (const file of files) {
    const { importedFiles, referencedFiles } = ts.preProcessFile(file.text, true, true);
    const targets = [
      ...importedFiles.map(({ fileName }) => ts.resolveModuleName(fileName, file.fileName, options, ts.sys, cache).resolvedModule?.resolvedFileName),
      ...referencedFiles.map(({ fileName }) => join(file.fileName, '..', fileName)),
    ];
    for (const target of targets) {
      if (!target) continue;
      const key = program.getSourceFile(target)?.fileName;
      if (key) importers.set(key, [...(importers.get(key) ?? []), file]);
    }
  }
  const affected = new Set(editedFiles);
  for (const file of affected) for (const importer of importers.get(file.fileName) ?? []) affected.add(importer);
  return [...affected];
}

/**
 * Per project, the last program and the source files parsed for it: the next recipe's program
 * reuses every file its edits leave alone (parsed and bound once per run, the libraries' large
 * declaration files included), so each recipe pays for type checking only.
 */
const previous = new Map<string, { program: ts.Program; files: Map<string, ts.SourceFile> }>();

/** The files with type errors when `edits` replace the texts of some files, across the server's and the console's projects. */
function filesWithErrors(edits: Partial<Record<string, (text: string) => string>>): string[] {
  const found = new Set<string>();
  for (const project of PROJECTS) {
    const configPath = join(REPO_ROOT, project);
    const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
    if (!config) throw new Error(`cannot read ${project}`);
    const last = previous.get(project);
    const files = last?.files ?? new Map<string, ts.SourceFile>();
    const host = ts.createCompilerHost(config.options);
    const readFile = host.readFile.bind(host);
    host.readFile = (fileName) => {
      const text = readFile(fileName);
      const edit = edits[relative(REPO_ROOT, fileName)];
      return edit && text !== undefined ? edit(text) : text;
    };
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, language, onError, shouldCreate) => {
      const edit = edits[relative(REPO_ROOT, fileName)];
      if (edit) return ts.createSourceFile(fileName, edit(ts.sys.readFile(fileName) ?? ''), language);
      let file = files.get(fileName);
      if (!file) {
        file = getSourceFile(fileName, language, onError, shouldCreate);
        if (file) files.set(fileName, file);
      }
      return file;
    };
    // The product's code only: the recipes name places in it, and leaving the tests out halves the time.
    const rootNames = config.fileNames.filter((file) => !relative(REPO_ROOT, file).startsWith('test/'));
    const program = ts.createProgram({ rootNames, options: { ...config.options, noEmit: true }, host, oldProgram: last?.program });
    previous.set(project, { program, files });
    // What ts.getPreEmitDiagnostics(program) gathers (no declaration diagnostics: nothing is emitted), the semantic check narrowed.
    const diagnostics = [
      ...program.getConfigFileParsingDiagnostics(),
      ...program.getOptionsDiagnostics(),
      ...program.getSyntacticDiagnostics(),
      ...affectedFiles(program, new Set(Object.keys(edits)), config.options).flatMap((file) => program.getSemanticDiagnostics(file)),
      ...program.getGlobalDiagnostics(),
    ];
    for (const diagnostic of diagnostics) {
      if (diagnostic.file) found.add(relative(REPO_ROOT, diagnostic.file.fileName));
      else throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    }
  }
  return [...found].sort();
}

function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the recipe test no longer finds ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

test('a new schema: its name in SCHEMAS and its config type, then the compiler names its server record, its option labels and its console view', () => {
  const errors = filesWithErrors({
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

test('a new period: its entry in PERIODS, then only the console names what it needs (its label and how to say its span)', () => {
  const errors = filesWithErrors({
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
