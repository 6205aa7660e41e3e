import { writeFileSync } from 'node:fs';
import { openApiJson } from '../functions/api/openapi';

/**
 * `npm run openapi [-- <file>]`: the OpenAPI document of the registry, to a file or stdout
 * (the same text as GET /v0/openapi.json), for code generators and API tools.
 */
const [file] = process.argv.slice(2);
if (file) {
  writeFileSync(file, openApiJson());
  console.error(`Wrote ${file}`);
} else {
  process.stdout.write(openApiJson());
}
