import Ajv2020 from 'ajv/dist/2020';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { ERROR_STATUS } from '../../functions/api/errors';
import { argumentsComponent, openApiDocument, openApiJson, operationErrors, PERMISSION_EXTENSION } from '../../functions/api/openapi';
import { answersNoContent } from '../../functions/api/operation';
import { operationList } from '../../functions/api/registry';
import { operationRoutes } from '../../functions/api/routes';

const document = openApiDocument();

/** Runs @seriousme/openapi-schema-validator (an ES module) in a child process on a document. */
function validateWithSchemaValidator(spec: unknown): { valid: boolean; errors?: unknown; version?: string } {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    import { readFileSync } from 'node:fs';
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(readFileSync(0, 'utf8')));
    console.log(JSON.stringify({ ...result, version: validator.version }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: resolve(__dirname, '../..'),
    input: JSON.stringify(spec),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
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
      expect(post.security).toEqual(operation.level === 'anonymous' ? [{}, { apiKey: [] }] : [{ apiKey: [] }]);
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
    expect(document.components.securitySchemes).toEqual({ apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }) });
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
    expect(schemas.ProjectsGetStatsArguments).toMatchObject({ type: 'array', minItems: 1, maxItems: 2, items: false });
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
