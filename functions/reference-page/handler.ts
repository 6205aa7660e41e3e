import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCS_FILES, docsPages, docsPath, docsResponse, type DocsAssets } from './pages';

/**
 * The docs function: GET /openapi.json, /docs and /docs/<file> (any other method answers
 * method-not-allowed). Its bundle holds the document written at synth time and Swagger
 * UI's files (lib/feedback-api.ts copies them next to this handler).
 */
function bundledAssets(directory = __dirname): DocsAssets {
  const read = (file: string) => readFileSync(join(directory, file), 'utf8');
  return { openapi: read(DOCS_FILES.openapi), script: read(DOCS_FILES.script), style: read(DOCS_FILES.style) };
}

let pages: ReturnType<typeof docsPages> | undefined;

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  pages ??= docsPages(bundledAssets());
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) headers[name.toLowerCase()] = value ?? undefined;
  return docsResponse(pages, { method: event.httpMethod, path: docsPath(event.path), headers });
}
