import * as z from 'zod';
import { configParsers, SCHEMAS } from '../domain/schemas';
import { ERROR_STATUS, type ErrorCode } from './errors';
import { MAX_BODY_BYTES } from './limits';
import { answersNoContent, RESOURCE_ALIASES, RESOURCES, type OperationDeclaration, type Resource } from './operation';
import { isAnonymousWrite } from './rate-limits';
import { operationList } from './registry';
import { ApiErrorModel } from './result-models';
import { operationRoutes } from './routes';

/**
 * The OpenAPI 3.1 document of the API, generated from the operation registry: one path
 * per operation path (aliases included), its arguments as the JSON Schema of the argument
 * array (zod's `z.toJSONSchema`, io `input`), its result model (io `output`), its errors
 * and its permission level. Pure: no runtime code, no I/O. The stack writes `openApiJson()`
 * into the docs function's bundle at synth time; the local server serves the same text.
 */

export type JsonSchema = { [keyword: string]: unknown };
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
};

/** The base path: the document's relative server URL, valid locally and on AWS alike. */
export const API_BASE_PATH = '/v0';
export const SECURITY_SCHEME = 'apiKey';
/** A signed-in person's OpenID Connect token (docs/api.md, "People: Bearer tokens"). */
export const BEARER_SCHEME = 'bearer';
/** Extension of each operation naming its permission level. */
export const PERMISSION_EXTENSION = 'x-permission-level';

/** Errors every operation can answer, whatever it does. */
export const COMMON_ERRORS: readonly ErrorCode[] = ['bad-request', 'payload-too-large', 'internal-error'];

/**
 * The errors an operation answers besides the common ones: `unauthorized` everywhere (a
 * wrong key is refused even on anonymous operations), `forbidden` for admin operations,
 * `too-many-requests` where the per-visitor limit applies (rate-limits.ts), then the
 * declaration's own.
 */
export function operationErrors(operation: Pick<OperationDeclaration, 'level' | 'readOnly' | 'errors'>): ErrorCode[] {
  const codes: ErrorCode[] = [
    'unauthorized',
    ...(operation.level === 'admin' || operation.level === 'person' ? (['forbidden'] as const) : []),
    ...(isAnonymousWrite(operation) ? (['too-many-requests'] as const) : []),
    ...operation.errors,
  ];
  return [...new Set(codes)];
}

const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  'bad-request': 'The arguments are invalid; `data.fields` lists each offending argument as `{ path, message }` (`args.0.name`).',
  unauthorized:
    'No API key or token where the operation needs one, an `Authorization` header that is not a live `API-KEY <key>` or a valid `Bearer <token>`, or the token of a person who is no member (`data.reason: not-a-member`).',
  forbidden:
    "The key's or member's level is too low for the operation (or the member is no owner where one is needed), an API key on an operation for people, or a revoke token is wrong or its window closed.",
  'not-found': 'An id that does not exist or belongs to another account.',
  'method-not-allowed': 'A method the path does not serve.',
  conflict: 'A duplicate key, a target that is not active, a response that was already removed, or a webhook limit or state (see the operation).',
  'payload-too-large': `The request body is over ${MAX_BODY_BYTES / 1024} KiB.`,
  'too-many-requests': 'More anonymous writes from one visitor address than the per-visitor limit allows; `Retry-After` says how many seconds to wait.',
  'internal-error': 'A fault of the service; `data.requestId` matches its log line.',
  'not-implemented': 'An operation that is registered but not built.',
  unavailable: 'The store cannot be reached.',
};

const LEVEL_DESCRIPTIONS: Record<OperationDeclaration['level'], string> = {
  anonymous: 'Permission level: **anonymous** (no API key needed; a key or token that is sent must be valid).',
  viewer: 'Permission level: **viewer** (an API key of level viewer or admin, or a member of the account).',
  admin: 'Permission level: **admin** (an API key of level admin, or a member with the role admin or owner).',
  person: "Permission level: **person** (a signed-in person's `Bearer` token, member of an account or not yet; API keys are refused).",
};

const RESOURCE_DESCRIPTIONS: Record<Resource, string> = {
  projects: 'Projects: the top of the hierarchy.',
  sets: 'Content sets: content items sharing one feedback schema.',
  contents: 'Content items: the pages, articles or products that receive responses.',
  keys: "API keys of the caller's account (admin).",
  members: "The people of the caller's account: members, their roles, invitations (admin; members/me for every member and key).",
  responses: `Responses, their revocation and their counts (also at /${RESOURCE_ALIASES.responses}/<operation> for the published widgets).`,
  webhooks: 'Webhooks: endpoints that receive signed events of the account, their secrets and delivery log (admin).',
  audit: "The account's audit log: every call by a key that changed or tried to change something (admin).",
  alerts: 'Alerts: items and sets whose last 7 days are significantly worse than the 28 days before them (viewer).',
};

const pascal = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `responses/getAggregates` -> `ResponsesGetAggregatesArguments`: the component of its argument array. */
export function argumentsComponent(operation: Pick<OperationDeclaration, 'resource' | 'name'>): string {
  return `${pascal(operation.resource)}${pascal(operation.name)}Arguments`;
}

const SCHEMA_REF = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${SCHEMA_REF}${name}` });

/**
 * The schema nothing matches, as an object: the same as `false`. zod closes a tuple with
 * `items: false`, which @readme/openapi-parser (and generators built the same way) read as
 * "no items schema" and reject; `{ not: {} }` says the same and every reader takes it.
 */
const NOTHING: JsonSchema = { not: {} };

/** Points zod's `#/$defs/` refs at the components, and closes tuples with `items: NOTHING`. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const closedTuple = 'prefixItems' in value && (value as JsonSchema).items === false;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) =>
      key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')
        ? [key, SCHEMA_REF + item.slice('#/$defs/'.length)]
        : key === 'items' && closedTuple
          ? [key, { ...NOTHING }]
          : [key, rewriteRefs(item)],
    ),
  );
}

/**
 * JSON Schema of each schema's schemaConfig, as sets/create takes it (null or omitted = the
 * defaults). Uniqueness of option values and the rating range's arithmetic cannot be said
 * in JSON Schema; the server checks them.
 */
function schemaConfigRules(): JsonSchema[] {
  return SCHEMAS.map((schema) => {
    const { $schema: _, ...config } = z.toJSONSchema(configParsers[schema], { io: 'input' }) as JsonSchema;
    if (schema === 'reaction') config.not = { required: ['preset', 'options'] };
    return {
      if: { properties: { schema: { const: schema } }, required: ['schema'] },
      // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword (if/then)
      then: { properties: { schemaConfig: { anyOf: [{ type: 'null' }, config] } } },
    };
  });
}

/** JSON Schema keywords added to a named model, for rules its zod schema checks in code. */
const COMPONENT_RULES: Record<string, () => JsonSchema> = {
  ContentSetCreateModel: () => ({ allOf: schemaConfigRules() }),
};

/** Converts zod schemas and gathers their named models (`.meta({ id })`) as components. */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const { $schema: _, $defs, ...json } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as JsonSchema;
    for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      this.add(name, { ...(rewriteRefs(definition) as JsonSchema), ...COMPONENT_RULES[name]?.() });
    }
    return rewriteRefs(json) as JsonSchema;
  }

  add(name: string, json: JsonSchema): void {
    const existing = this.schemas[name];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(json)) {
      throw new Error(`The model ${name} reads differently in two places (an argument and a result?); give each its own id`);
    }
    this.schemas[name] = json;
  }
}

function errorResponse(code: ErrorCode): JsonSchema {
  return {
    description: `\`${code}\`: ${ERROR_DESCRIPTIONS[code]}`,
    content: { 'application/json': { schema: { allOf: [ref('ApiError')], properties: { error: { const: code } } } } },
  };
}

function operationObject(
  operation: OperationDeclaration,
  route: string,
  method: 'post' | 'get',
  argumentsRequired: boolean,
  result: JsonSchema | undefined,
): JsonSchema {
  const canonical = route === `${operation.resource}/${operation.name}`;
  const errors = [...new Set([...COMMON_ERRORS, ...operationErrors(operation)])].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b]);
  const argumentsSchema = ref(argumentsComponent(operation));
  const description = [
    operation.summary,
    `Arguments: \`${operation.signature}\`.`,
    LEVEL_DESCRIPTIONS[operation.level],
    ...(canonical ? [] : [`Alias of \`/${operation.resource}/${operation.name}\`, kept for the published widgets.`]),
    ...(method === 'get' ? ['The same operation as POST, with the JSON array of arguments in the `$p` query parameter.'] : []),
  ].join('\n\n');
  const noContent = answersNoContent(operation);
  return {
    operationId: `${route.replace('/', '.')}${method === 'get' ? '.query' : ''}`,
    tags: [operation.resource],
    summary: operation.summary,
    description,
    [PERMISSION_EXTENSION]: operation.level,
    security:
      operation.level === 'person'
        ? [{ [BEARER_SCHEME]: [] }]
        : [...(operation.level === 'anonymous' ? [{}] : []), { [SECURITY_SCHEME]: [] }, { [BEARER_SCHEME]: [] }],
    ...(method === 'post'
      ? {
          requestBody: {
            description: 'The JSON array of arguments. No body means `[]`.',
            required: argumentsRequired,
            content: { 'application/json': { schema: argumentsSchema } },
          },
        }
      : {
          parameters: [
            {
              name: '$p',
              in: 'query',
              description: 'The JSON array of arguments. Absent means `[]`.',
              required: argumentsRequired,
              content: { 'application/json': { schema: argumentsSchema } },
            },
          ],
        }),
    responses: {
      ...(noContent
        ? { '204': { description: 'Done; no body.' } }
        : { '200': { description: 'The result.', content: { 'application/json': { schema: result } } } }),
      ...Object.fromEntries(errors.map((code) => [String(ERROR_STATUS[code]), { $ref: `#/components/responses/${code}` }])),
    },
  };
}

export function openApiDocument(operations: readonly OperationDeclaration[] = operationList): OpenApiDocument {
  const components = new Components();
  components.convert(ApiErrorModel, 'output');
  const paths: OpenApiDocument['paths'] = {};
  const usedErrors = new Set<ErrorCode>(COMMON_ERRORS);
  for (const operation of operations) {
    const argumentsSchema = operation.input ?? operation.args;
    components.add(argumentsComponent(operation), {
      description: `The arguments of ${operation.resource}/${operation.name}: ${operation.signature}`,
      ...components.convert(argumentsSchema, 'input'),
    });
    const argumentsRequired = !operation.args.safeParse([]).success;
    const result = answersNoContent(operation) ? undefined : components.convert(operation.result, 'output');
    for (const code of operationErrors(operation)) usedErrors.add(code);
    for (const route of operationRoutes(operation)) {
      paths[`/${route}`] = {
        post: operationObject(operation, route, 'post', argumentsRequired, result),
        ...(operation.readOnly ? { get: operationObject(operation, route, 'get', argumentsRequired, result) } : {}),
      };
    }
  }
  const sortedSchemas = Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Feedback API',
      version: 'v0',
      description: [
        'Every operation is `POST /v0/<resource>/<operation>` with a JSON **array** of arguments as the body; read-only operations',
        'also answer `GET /v0/<resource>/<operation>?$p=<JSON array>`. Failures answer an `ApiError` body; `void` operations answer 204.',
        `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB.`,
        "Authenticate with the header `Authorization: API-KEY <key>` (an API key) or `Authorization: Bearer <token>` (a signed-in person's OpenID Connect token);",
        'each operation names its permission level and the schemes it takes.',
      ].join(' '),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: API_BASE_PATH, description: 'This deployment (the document is served at /v0/openapi.json).' }],
    tags: RESOURCES.map((resource) => ({ name: resource, description: RESOURCE_DESCRIPTIONS[resource] })),
    paths,
    components: {
      schemas: sortedSchemas,
      responses: Object.fromEntries([...usedErrors].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b]).map((code) => [code, errorResponse(code)])),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The header value is `API-KEY <key>`. Keys have the level viewer (read) or admin (read, create, save).',
        },
        [BEARER_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "A signed-in person's ID or access token from the deployment's OpenID Connect issuer (`Authorization: Bearer <token>`); the person's membership gives the account and the level.",
        },
      },
    },
  };
}

/** The document as served at /v0/openapi.json: the same text locally and in the stack's bundle. */
export function openApiJson(operations: readonly OperationDeclaration[] = operationList): string {
  return `${JSON.stringify(openApiDocument(operations), null, 2)}\n`;
}
