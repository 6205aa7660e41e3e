import Ajv2020 from 'ajv/dist/2020';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { ERROR_STATUS } from '../../functions/api/errors';
import { argumentsComponent, openApiDocument, openApiJson, operationErrors, PERMISSION_EXTENSION } from '../../functions/api/openapi';
import { answersNoContent } from '../../functions/api/operation';
import { operationList } from '../../functions/api/registry';
import { operationRoutes } from '../../functions/api/routes';

const document = openApiDocument();

/** Runs an ES module script in a child process with `input` as its stdin; returns what it prints, parsed. */
function runModule(script: string, input: string): any {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: resolve(__dirname, '../..'), input, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

/** Runs @seriousme/openapi-schema-validator (an ES module) on a document. */
function validateWithSchemaValidator(spec: unknown): { valid: boolean; errors?: unknown; version?: string } {
  return runModule(
    `
    import { Validator } from '@seriousme/openapi-schema-validator';
    import { readFileSync } from 'node:fs';
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(readFileSync(0, 'utf8')));
    console.log(JSON.stringify({ ...result, version: validator.version }));`,
    JSON.stringify(spec),
  );
}

/** Runs @readme/openapi-parser's `validate` (an ES module; it dereferences its input in place) on a document. */
function validateWithReadmeParser(spec: unknown): { valid: boolean; errors?: { message: string }[]; warnings: { message: string }[] } {
  return runModule(
    `
    import { validate } from '@readme/openapi-parser';
    import { readFileSync } from 'node:fs';
    console.log(JSON.stringify(await validate(JSON.parse(readFileSync(0, 'utf8')))));`,
    JSON.stringify(spec),
  );
}

type LintProblem = { ruleId: string; severity: 'error' | 'warn'; message: string; pointer: string };

/** Lints a document with Redocly's `recommended` ruleset (@redocly/openapi-core, an ES module). */
function lintWithRedocly(spec: unknown): LintProblem[] {
  return runModule(
    `
    import { createConfig, lintFromString } from '@redocly/openapi-core';
    import { readFileSync } from 'node:fs';
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: readFileSync(0, 'utf8'), absoluteRef: '/openapi.json', config });
    console.log(JSON.stringify(problems.map(({ ruleId, severity, message, location }) => ({ ruleId, severity, message, pointer: location[0]?.pointer }))));`,
    JSON.stringify(spec),
  );
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(validateWithSchemaValidator(document)).toEqual({ valid: true, version: '3.1' });
  });

  it('the validator does reject a broken document', () => {
    const broken = JSON.parse(openApiJson());
    delete broken.info;
    broken.paths['/projects/get'].post.responses = { '200': { content: {} } };
    expect(validateWithSchemaValidator(broken).valid).toBe(false);
  });

  it("passes @readme/openapi-parser's validate, with no warnings", () => {
    expect(validateWithReadmeParser(JSON.parse(openApiJson()))).toEqual({ valid: true, warnings: [], specification: 'OpenAPI' });
  });

  it('@readme/openapi-parser does reject an argument array without an items schema', () => {
    const broken = JSON.parse(openApiJson());
    delete broken.components.schemas.ProjectsGetArguments.items;
    const result = validateWithReadmeParser(broken);
    expect(result.valid).toBe(false);
    expect(result.errors?.map((error) => error.message)).toContain(
      '`/paths/projects/get/get/parameters/$p/content/application/json/schema` is an array, so it must include an `items` schema.',
    );
  });

  it("passes Redocly's lint with the recommended rules", () => {
    const problems = lintWithRedocly(document);
    // no-required-schema-properties-undefined reads a `required` list against its own schema and
    // the allOf/anyOf/oneOf around it, not through `not`: `not: { required: [a, b] }` ("not both a
    // and b", e.g. ResponseQueryModel's userId with projectId) names properties of the schema
    // that holds the `not`. Those are the only problems allowed; any other fails.
    const notBoth = (problem: LintProblem) => problem.ruleId === 'no-required-schema-properties-undefined' && /\/not\/required\/\d+$/.test(problem.pointer);
    expect(problems.filter((problem) => !notBoth(problem))).toEqual([]);
    expect(problems.filter(notBoth).every((problem) => problem.severity === 'warn')).toBe(true);
  });

  it('Redocly does report a broken document', () => {
    const broken = JSON.parse(openApiJson());
    delete broken.paths['/projects/get'].post.operationId;
    broken.components.schemas.Project.required.push('noSuchProperty');
    expect(lintWithRedocly(broken).map((problem) => problem.ruleId)).toEqual(
      expect.arrayContaining(['operation-operationId', 'no-required-schema-properties-undefined']),
    );
  });

  it('closes every argument tuple with an items schema that nothing matches: `{ not: {} }`, which every validator reads', () => {
    const tuples: { path: string; items: unknown }[] = [];
    const walk = (value: unknown, path: string): void => {
      if (value === null || typeof value !== 'object') return;
      if (!Array.isArray(value) && 'prefixItems' in value) tuples.push({ path, items: (value as { items?: unknown }).items });
      for (const [key, item] of Object.entries(value)) walk(item, `${path}/${key}`);
    };
    walk(document, '#');
    expect(tuples.length).toBeGreaterThan(operationList.length);
    // A tuple that a branch of anyOf narrows (ResponsesCreateArguments) is closed by the schema around it.
    const closing = tuples.filter((tuple) => !/\/anyOf\/\d+\/anyOf\/\d+$/.test(tuple.path));
    for (const tuple of closing) expect(tuple).toEqual({ path: tuple.path, items: { not: {} } });
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    expect(ajv.validate({ type: 'array', prefixItems: [{ type: 'string' }], items: { not: {} } }, ['a', 'b'])).toBe(false);
    expect(ajv.validate({ type: 'array', prefixItems: [{ type: 'string' }], items: { not: {} } }, ['a'])).toBe(true);
  });

  it('has one path per operation path, aliases included: post always, get for read-only operations', () => {
    const expected = operationList.flatMap((operation) => operationRoutes(operation).map((route) => `/${route}`));
    expect(Object.keys(document.paths).sort()).toEqual(expected.sort());
    expect(expected).toContain('/feelbacks/create');
    for (const operation of operationList) {
      for (const route of operationRoutes(operation)) {
        const item = document.paths[`/${route}`];
        expect(Object.keys(item).sort()).toEqual(operation.readOnly ? ['get', 'post'] : ['post']);
        if (operation.readOnly) {
          expect(item.get.parameters).toEqual([expect.objectContaining({ name: '$p', in: 'query' })]);
          expect((item.get.parameters as { content: unknown }[])[0].content).toEqual((item.post.requestBody as { content: unknown }).content);
        }
      }
    }
  });

  it.each(operationList.map((operation) => [`${operation.resource}/${operation.name}`, operation] as const))(
    '%s: arguments, result, errors, security and permission level',
    (_name, operation) => {
      const post = document.paths[`/${operation.resource}/${operation.name}`].post;
      expect(post.requestBody).toMatchObject({
        required: !operation.args.safeParse([]).success,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${argumentsComponent(operation)}` } } },
      });
      const responses = post.responses as Record<string, { content?: unknown; $ref?: string }>;
      const success = answersNoContent(operation) ? '204' : '200';
      expect(responses[success]).toBeDefined();
      expect(responses[success === '200' ? '204' : '200']).toBeUndefined();
      const errorCodes = [...new Set(['bad-request', 'payload-too-large', 'internal-error', ...operationErrors(operation)])] as (keyof typeof ERROR_STATUS)[];
      for (const code of errorCodes) expect(responses[String(ERROR_STATUS[code])]).toEqual({ $ref: `#/components/responses/${code}` });
      expect(Object.keys(responses)).toHaveLength(errorCodes.length + 1);
      expect(post[PERMISSION_EXTENSION]).toBe(operation.level);
      expect(post.description).toContain(`Permission level: **${operation.level}**`);
      const expected = {
        anonymous: [{}, { apiKey: [] }, { bearer: [] }],
        viewer: [{ apiKey: [] }, { bearer: [] }],
        admin: [{ apiKey: [] }, { bearer: [] }],
        // members/accept: a signed-in person's token only.
        person: [{ bearer: [] }],
      }[operation.level];
      expect(post.security).toEqual(expected);
    },
  );

  it('names the models as components and says how to authenticate', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'Project',
        'ContentSet',
        'ContentItem',
        'ContentItemLookupEntry',
        'Response',
        'ResponsePage',
        'ResponseWriteResult',
        'AggregatedData',
        'ResponseAggregation',
        'ContentSetTopEntry',
        'ContentItemTopEntry',
        'ApiError',
        'StatsFilter',
        'ContentSetTopQueryModel',
        'ContentTopQueryModel',
        'ResponseQueryModel',
        'ProjectFilters',
        'ContentSetFilters',
        'ContentFilters',
      ]),
    );
    expect(document.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }),
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    });
    expect(document.components.securitySchemes.apiKey.description).toContain('API-KEY <key>');
    expect(document.components.responses['not-found']).toMatchObject({
      content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/ApiError' }], properties: { error: { const: 'not-found' } } } } },
    });
  });

  it('carries the limits of the argument models', () => {
    const schemas = document.components.schemas as Record<string, any>;
    expect(schemas.ProjectCreateModel.properties.name).toMatchObject({ minLength: 1, maxLength: 50 });
    expect(schemas.ContentKey.properties.key).toMatchObject({ minLength: 1, maxLength: 1024, pattern: expect.any(String) });
    expect(schemas.ResponseQueryModel.properties.$size).toMatchObject({ minimum: 1, maximum: 100, default: 10 });
    expect(schemas.StatsFilter.properties.shift).toMatchObject({ minimum: -36600, maximum: 36600 });
    expect(schemas.ContentSetMetadataModel.properties.revokeWindow).toMatchObject({ minimum: 0, maximum: 30 * 24 * 3600 });
    expect(schemas.ProjectsGetStatsArguments).toMatchObject({ type: 'array', minItems: 1, maxItems: 2, items: { not: {} } });
  });

  it('every schema compiles with Ajv (draft 2020-12), and the text is stable', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'openapi', components: document.components });
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => ajv.getSchema(`openapi#/components/schemas/${name}`)).not.toThrow();
    }
    expect(openApiJson()).toBe(openApiJson());
    expect(JSON.parse(openApiJson())).toEqual(document);
  });
});
