import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { argumentsComponent, openApiDocument, type JsonSchema, type OpenApiDocument } from '../functions/api/openapi';
import { answersNoContent, operationPath } from '../functions/api/operation';
import { operationList } from '../functions/api/registry';

/**
 * `npm run client:generate`: writes clients/typescript/src/generated.ts, the TypeScript
 * client's types and operation table, from the OpenAPI document (itself generated from the
 * registry's zod schemas). Arguments are the document's request schemas (zod io `input`),
 * results its result schemas (io `output`). test/client/types.test.ts checks that each
 * printed type is identical to the registry's `z.input` / `z.output`, and
 * test/client/generated.test.ts that the file is current.
 */

export const GENERATED_PATH = resolve(__dirname, '../clients/typescript/src/generated.ts');

/** Component names that would clash with the client's own exports. */
const RENAMED: Record<string, string> = { ApiError: 'ApiErrorBody' };
const typeName = (component: string) => RENAMED[component] ?? component;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const propertyKey = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

function comment(text: unknown, indent: string): string {
  return typeof text === 'string' && text !== '' ? `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\n+/g, ' ')} */\n` : '';
}

function union(members: string[]): string {
  const unique = [...new Set(members)];
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

/** Wraps a union or function type where it is followed by `[]` or `?`. */
const grouped = (type: string) => (/[|&]/.test(type) ? `(${type})` : type);

/** `{ not: {} }`: the schema nothing matches, which the document writes for `false` (closed tuples). */
const matchesNothing = (schema: JsonSchema) =>
  Object.keys(schema).length === 1 && typeof schema.not === 'object' && schema.not !== null && Object.keys(schema.not).length === 0;

/** A JSON Schema (as zod writes them) as a TypeScript type. */
export function printType(schema: JsonSchema | boolean, indent = ''): string {
  if (schema === true) return 'unknown';
  if (schema === false || matchesNothing(schema)) return 'never';
  if (typeof schema.$ref === 'string') return typeName(schema.$ref.replace('#/components/schemas/', ''));
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map((value) => JSON.stringify(value)));
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  // anyOf/oneOf next to a type only constrain it (e.g. "contentId, or contentSetId and key"); alone they are the union.
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (types.length === 0 && alternatives) return union(alternatives.map((member) => printType(member, indent)));
  if (types.length === 0) return 'unknown';
  return union(types.map((type) => printOfType(type, schema, indent)));
}

function printOfType(type: string, schema: JsonSchema, indent: string): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      if (Array.isArray(schema.prefixItems)) {
        const required = typeof schema.minItems === 'number' ? schema.minItems : 0;
        const items = (schema.prefixItems as JsonSchema[]).map((item, index) => {
          const printed = printType(item, indent);
          return index < required ? printed : `${grouped(`${printed} | undefined`)}?`;
        });
        const rest =
          schema.items === undefined || printType(schema.items as JsonSchema | boolean, indent) === 'never'
            ? []
            : [`...${grouped(printType(schema.items as JsonSchema, indent))}[]`];
        return `[${[...items, ...rest].join(', ')}]`;
      }
      return `${grouped(printType((schema.items as JsonSchema | undefined) ?? true, indent))}[]`;
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      const extra = schema.additionalProperties as JsonSchema | boolean | undefined;
      if (Object.keys(properties).length === 0) {
        if (extra === false) return 'Record<string, never>';
        return `Record<string, ${extra === undefined || extra === true ? 'unknown' : printType(extra, indent)}>`;
      }
      const inner = `${indent}  `;
      const lines = Object.entries(properties).map(
        ([name, property]) =>
          `${comment(property.description, inner)}${inner}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${printType(property, inner)};`,
      );
      if (extra !== undefined && extra !== false) lines.push(`${inner}[field: string]: ${extra === true ? 'unknown' : printType(extra, inner)};`);
      return `{\n${lines.join('\n')}\n${indent}}`;
    }
    default:
      throw new Error(`No TypeScript for JSON Schema type ${type}`);
  }
}

/** The generated module: a type per component, the Operations map and the runtime operation table. */
export function renderClientTypes(document: OpenApiDocument = openApiDocument()): string {
  const schemas = document.components.schemas;
  const types = Object.entries(schemas).map(([name, schema]) => `${comment(schema.description, '')}export type ${typeName(name)} = ${printType(schema)};`);
  const resultOf = (path: string) => {
    const post = document.paths[`/${path}`].post as { responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }> };
    const success = post.responses['200'];
    return success ? printType(success.content!['application/json'].schema, '  ') : 'void';
  };
  const operations = operationList.map((operation) => {
    const path = operationPath(operation);
    const result = answersNoContent(operation) ? 'void' : resultOf(path);
    return `${comment(operation.summary, '  ')}  ${JSON.stringify(path)}: { args: ${argumentsComponent(operation)}; result: ${result} };`;
  });
  const table = operationList.map(
    (operation) => `  ${JSON.stringify(operationPath(operation))}: { readOnly: ${operation.readOnly}, level: ${JSON.stringify(operation.level)} },`,
  );
  return [
    '// Generated by `npm run client:generate` from the OpenAPI document of the registry',
    '// (functions/api/openapi.ts). Do not edit: change the registry and generate again.',
    '/* eslint-disable */',
    '',
    ...types.flatMap((type) => [type, '']),
    '/** Every operation: its argument array and its result. */',
    'export interface Operations {',
    ...operations,
    '}',
    '',
    'export type OperationName = keyof Operations;',
    '',
    '/** Which operations only read (the client may send them as GET) and the permission level each needs. */',
    'export const OPERATIONS = {',
    ...table,
    '} as const satisfies Record<OperationName, { readOnly: boolean; level: "anonymous" | "viewer" | "admin" | "person" }>;',
    '',
  ].join('\n');
}

if (require.main === module) {
  const current = readFileSync(GENERATED_PATH, { encoding: 'utf8', flag: 'a+' });
  const next = renderClientTypes();
  if (current !== next) writeFileSync(GENERATED_PATH, next);
  console.log(`${current === next ? 'Unchanged' : 'Updated'} ${GENERATED_PATH}`);
}
