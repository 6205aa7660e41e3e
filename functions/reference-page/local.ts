import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openApiJson } from '../api/openapi';
import { DOCS_FILES, docsPages, type DocsAssets } from './pages';

/** Where Swagger UI's files are: the swagger-ui-dist package. The stack copies them from here too. */
export function swaggerUiDirectory(): string {
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** The assets as the local server serves them: the document generated now, Swagger UI from node_modules. */
export function localDocsAssets(): DocsAssets {
  const read = (file: string) => readFileSync(join(swaggerUiDirectory(), file), 'utf8');
  return { openapi: openApiJson(), script: read(DOCS_FILES.script), style: read(DOCS_FILES.style) };
}

let pages: ReturnType<typeof docsPages> | undefined;

/** Built on the first docs request (generating the document takes a few hundred milliseconds). */
export function localDocsPages(): ReturnType<typeof docsPages> {
  pages ??= docsPages(localDocsAssets());
  return pages;
}
