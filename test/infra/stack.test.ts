/**
 * The CDK stack (lib/feedback-stack.ts), built ONCE here with cdk.json's context and a
 * sender (`-c mailFrom`, test/support/shared-assembly.ts), its bundling skipped; all tests below read that one construct tree and template. The bundles
 * are checked in the run's shared cloud assembly (test/support/shared-assembly.ts): the
 * same app with real esbuild bundling of every function, synthesized once for this file
 * and the deploy rehearsal, whose template is this one but for the code's object keys.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { runInNewContext } from 'node:vm';
import { HSTS_MAX_AGE_SECONDS } from '../../console/serving';
import { anonymousWriteOperations } from '../../functions/api/rate-limits';
import { isAudited, operationPath, RESOURCE_ALIASES, type OperationDeclaration } from '../../functions/api/operation';
import { operationList, operations } from '../../functions/api/registry';
import { createTableInput, TABLE_KEYS } from '../../functions/store/table';
import { openApiJson } from '../../functions/api/openapi';
import { localDocsAssets, swaggerUiDirectory } from '../../functions/reference-page/local';
import { DOCS_FILES, docsPages } from '../../functions/reference-page/pages';
import { ACCESS_LOG_FIELDS } from '../../lib/access-log';
import { createFeedbackApp } from '../../lib/app';
import { spaRewriteCode } from '../../lib/console';
import { API_PATH_PATTERN, FORWARDED_HEADERS, MANAGED_RULE_GROUPS, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER, VISITOR_KEY_HEADER } from '../../lib/edge';
import { DOCS_ROUTES } from '../../lib/feedback-api';
import { FeedbackStack } from '../../lib/feedback-stack';
import { NAG_REASONS } from '../../lib/nag';
import { REPO_ROOT } from '../../lib/paths';
import { KEY_USAGE, TABLE_ACTIONS } from '../../lib/table-access';
import { loadCloudAssembly, type LoadedAssembly } from '../support/cloud-assembly';
import { senderIdentities } from '../../lib/mail';
import { deployContext, sharedCloudAssembly, TEST_MAIL_FROM } from '../support/shared-assembly';

type Json = any;
type Resources = Record<string, Json>;

let app: App;
let stack: FeedbackStack;
let template: Template;
let resources: Resources;
let outdir: string;
/** The run's shared assembly, with the bundles. */
let bundled: LoadedAssembly;

beforeAll(async () => {
  fs.mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
  outdir = fs.mkdtempSync(path.join(REPO_ROOT, '.tmp', 'infra-test-'));
  const started = Date.now();
  ({ app, stack } = createFeedbackApp({ outdir, context: { ...deployContext(), 'aws:cdk:bundling-stacks': [] } }));
  const constructed = Date.now();
  // The whole stack: the parent template with its nested stacks' resources (test/support/cloud-assembly.ts).
  template = Template.fromJSON(wholeTemplate(app));
  resources = template.toJSON().Resources;
  const synthesized = Date.now();
  bundled = loadCloudAssembly(await sharedCloudAssembly());
  process.stdout.write(
    `synth: construct ${((constructed - started) / 1000).toFixed(1)} s, synth+nag ${((synthesized - constructed) / 1000).toFixed(1)} s, ` +
      `shared assembly (bundled) ready after ${((Date.now() - synthesized) / 1000).toFixed(1)} s more\n`,
  );
}, 300_000);

afterAll(() => {
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- template helpers

/** The app's stack as CloudFormation deploys it: the parent template with its nested stacks read in. */
function wholeTemplate(synthesized: App): Json {
  return loadCloudAssembly(synthesized.synth().directory).template;
}

/** The logical id of a construct's resource, in whichever template (parent or nested) holds it. */
function logicalId(construct: { node: { defaultChild?: unknown } }): string {
  const element = construct.node.defaultChild as CfnElement;
  return Stack.of(element).getLogicalId(element);
}

function ofType(type: string): [string, Json][] {
  return Object.entries(resources).filter(([, resource]) => resource.Type === type);
}

/**
 * The functions of the service, without the one aws-cdk-lib brings for the console's
 * BucketDeployment (a Python custom-resource provider that copies the console's files to S3
 * at deploy time; test/infra/console.test.ts covers it).
 */
function serviceFunctions(): [string, Json][] {
  const providers = new Set(ofType('Custom::CDKBucketDeployment').map(([, resource]) => refId(resource.Properties.ServiceToken)));
  return ofType('AWS::Lambda::Function').filter(([id]) => !providers.has(id));
}

/** Logical id referenced by `{Ref}` or `{Fn::GetAtt: [id, attr]}`. */
function refId(value: Json): string | undefined {
  if (value?.Ref) return value.Ref;
  if (value?.['Fn::GetAtt']) return value['Fn::GetAtt'][0];
  return undefined;
}

/** The directory of a function's bundle in the shared assembly (the same logical ids as this template). */
function bundleDir(functionId: string): string {
  const dir = bundled.assetDirs.get(String(bundled.resources[functionId]?.Properties.Code.S3Key));
  if (!dir) throw new Error(`no bundle for ${functionId} in ${bundled.dir}`);
  return dir;
}

/** Every logical id `{Fn::GetAtt: [id, 'Arn']}` found anywhere in a value. */
function arnRefs(value: Json): string[] {
  if (Array.isArray(value)) return value.flatMap(arnRefs);
  if (value && typeof value === 'object') {
    const getAtt = value['Fn::GetAtt'];
    if (Array.isArray(getAtt) && getAtt[1] === 'Arn') return [getAtt[0]];
    return Object.values(value).flatMap(arnRefs);
  }
  return [];
}

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** API Gateway resource logical id -> its path without leading slash ('' for the root). */
function resourcePath(resourceId: Json): string {
  const id = refId(resourceId);
  if (resourceId?.['Fn::GetAtt']?.[1] === 'RootResourceId') return '';
  const resource = resources[id!];
  const parent = resourcePath(resource.Properties.ParentId);
  return parent ? `${parent}/${resource.Properties.PathPart}` : resource.Properties.PathPart;
}

interface Route {
  method: string;
  path: string;
  functionId?: string;
  integration: Json;
}

function routes(): Route[] {
  return ofType('AWS::ApiGateway::Method').map(([, method]) => ({
    method: method.Properties.HttpMethod,
    path: resourcePath(method.Properties.ResourceId),
    functionId: arnRefs(method.Properties.Integration?.Uri)[0],
    integration: method.Properties.Integration,
  }));
}

function functionLogicalId(operation: OperationDeclaration): string {
  const fn = stack.api.functions.get(operationPath(operation));
  if (!fn) throw new Error(`no function for ${operationPath(operation)}`);
  return logicalId(fn.function);
}

/** Every statement of every identity policy attached to a role (inline or AWS::IAM::Policy). */
function roleStatements(roleId: string): Json[] {
  const inline = (resources[roleId].Properties.Policies ?? []).flatMap((policy: Json) => policy.PolicyDocument.Statement);
  const attached = ofType('AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: Json) => refId(role) === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
  return [...inline, ...attached];
}

function functionRoleId(functionId: string): string {
  return refId(resources[functionId].Properties.Role)!;
}

function dynamoActions(statements: Json[]): string[] {
  return statements.flatMap((statement) => asArray<string>(statement.Action)).filter((action) => action.startsWith('dynamodb:'));
}

// ---------------------------------------------------------------- routes

describe('API routes', () => {
  test('one ANY method per operation, at its own path (not its alias: the edge rewrites those), the docs routes and the unsubscribe link; no OPTIONS method', () => {
    expect(
      routes()
        .map((route) => `${route.method} ${route.path}`)
        .sort(),
    ).toEqual([...operationList.map(operationPath), ...DOCS_ROUTES, 'mail/unsubscribe'].map((routePath) => `ANY ${routePath}`).sort());
    // CORS preflights are answered by the distribution's viewer-request function (test/infra/edge.test.ts).
    expect(routes().filter((route) => route.method === 'OPTIONS')).toEqual([]);
  });

  test('/openapi.json, /docs and /docs/{file} are proxy integrations of the docs function (ANY: it answers other methods with method-not-allowed)', () => {
    const docsId = logicalId(stack.api.docsFunction.function);
    const served = routes().filter((route) => (DOCS_ROUTES as readonly string[]).includes(route.path));
    expect(served.map((route) => route.path).sort()).toEqual([...DOCS_ROUTES].sort());
    for (const route of served) {
      expect(route.functionId).toBe(docsId);
      expect(route.integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
    }
  });

  test('each operation has its own function; its route is a Lambda proxy integration of that function', () => {
    const seen = new Set<string>();
    for (const operation of operationList) {
      const functionId = functionLogicalId(operation);
      expect(seen.has(functionId)).toBe(false);
      seen.add(functionId);
      const served = routes().filter((route) => route.path === operationPath(operation));
      expect(served).toHaveLength(1);
      expect(served[0].functionId).toBe(functionId);
      expect(served[0].integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
    }
    // The widgets' alias paths reach the same functions through the edge's rewrite (test/infra/edge.test.ts), not routes of their own.
    expect(Object.keys(RESOURCE_ALIASES)).toContain('responses');
    expect(routes().some((route) => route.path.startsWith(`${RESOURCE_ALIASES.responses}/`))).toBe(false);
  });

  test('the functions are invoked through one API-scoped permission each', () => {
    const permissions = ofType('AWS::Lambda::Permission').filter(([, permission]) => permission.Properties.Principal === 'apigateway.amazonaws.com');
    // One per operation, one for the docs function, one for the unsubscribe link.
    expect(permissions).toHaveLength(operationList.length + 2);
    // The only other invokers: the schedules of the ranker, the webhook sweeper, the alerts, the digest and the themes job, and SES's events topic.
    expect(
      ofType('AWS::Lambda::Permission')
        .map(([, permission]) => permission.Properties.Principal)
        .filter((principal) => principal !== 'apigateway.amazonaws.com')
        .sort(),
    ).toEqual([...Array(5).fill('events.amazonaws.com'), 'sns.amazonaws.com']);
  });
});

// ---------------------------------------------------------------- stage and outputs

describe('stage', () => {
  test('is named v0, throttled, with metrics, execution and access logging', () => {
    template.resourceCountIs('AWS::ApiGateway::Stage', 1);
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'v0',
      MethodSettings: [
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: 100,
          ThrottlingBurstLimit: 200,
          MetricsEnabled: true,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        }),
      ],
      AccessLogSetting: { DestinationArn: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] }, Format: JSON.stringify(ACCESS_LOG_FIELDS) },
    });
    // No visitor address is stored: not even the caller's, which behind the distribution is CloudFront's.
    const [[, stage]] = ofType('AWS::ApiGateway::Stage');
    expect(JSON.stringify(stage)).not.toMatch(/sourceIp|userAgent|identity\./);
  });

  test('outputs ApiUrl ending in /v0, TableName and ConsoleUrl, the API and the console on one domain', () => {
    const outputs = template.toJSON().Outputs;
    const url = outputs.ApiUrl.Value['Fn::Join'][1];
    expect(url[0]).toBe('https://');
    expect(url[url.length - 1]).toMatch(/\/v0$/);
    expect(outputs.ConsoleUrl.Value['Fn::Join'][1]).toEqual(['https://', url[1], '/']);
    expect(refId(outputs.TableName.Value)).toBe(ofType('AWS::DynamoDB::Table')[0][0]);
  });
});

// ---------------------------------------------------------------- functions

describe('functions', () => {
  test('one per operation plus the docs function, the two stream consumers, the ranker, the alerts, digest and themes jobs, the webhook sweeper, the unsubscribe link and the bounces, and no other but the console deployment provider', () => {
    expect(serviceFunctions()).toHaveLength(operationList.length + 10);
    // The console's two BucketDeployments share aws-cdk-lib's one singleton provider.
    template.resourceCountIs('Custom::CDKBucketDeployment', 2);
    template.resourceCountIs('AWS::Lambda::Function', operationList.length + 11);
  });

  test('all are Node 22 on arm64 with source maps, a log group with retention and the common environment', () => {
    const tableId = ofType('AWS::DynamoDB::Table')[0][0];
    const docsId = logicalId(stack.api.docsFunction.function);
    for (const [functionId, fn] of serviceFunctions()) {
      const props = fn.Properties;
      expect(props.Runtime).toBe('nodejs22.x');
      expect(props.Architectures).toEqual(['arm64']);
      expect(props.Handler).toBe('index.handler');
      // The themes job's discovery needs a full vCPU (lib/themes-job.ts).
      expect(props.MemorySize).toBe(functionId === logicalId(stack.themesJob.themes.function) ? 1769 : 256);
      // The docs function reads no table.
      if (functionId === docsId) expect(props.Environment.Variables.TABLE_NAME).toBeUndefined();
      // People's sign-in (cdk.json sets no provider: the stack's user pool, test/infra/cognito.test.ts) on the API's operations only.
      const operationFunction = [...stack.api.functions.values()].some((operation) => logicalId(operation.function) === functionId);
      if (operationFunction) expect(JSON.stringify(props.Environment.Variables.OIDC_ISSUER)).toContain('cognito-idp.');
      else expect(props.Environment.Variables.OIDC_ISSUER).toBeUndefined();
      expect(props.Environment.Variables).toMatchObject({
        ...(functionId === docsId ? {} : { TABLE_NAME: { Ref: tableId } }),
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'feedback',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      });
      const logGroup = resources[refId(props.LoggingConfig.LogGroup)!];
      expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
      expect(logGroup.Properties.RetentionInDays).toBe(30);
    }
  });

  test('operation functions: 10 s timeout (or their declared one), CORS origins in the environment, entry = handlerModule(operation)', () => {
    expect(operationList.find((operation) => operationPath(operation) === 'webhooks/test')?.timeoutSeconds).toBe(20);
    for (const operation of operationList) {
      const props = resources[functionLogicalId(operation)].Properties;
      expect(props.Timeout).toBe(operation.timeoutSeconds ?? 10);
      expect(props.Environment.Variables.CORS_ALLOWED_ORIGINS).toBe('*');
      // Invitation links point at the console on the distribution (never at a request's Origin).
      expect(props.Environment.Variables.CONSOLE_URL).toEqual({
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [ofType('AWS::CloudFront::Distribution')[0][0], 'DomainName'] }]],
      });
      expect(props.Description).toContain(operationPath(operation));
    }
  });

  test('the bundled assembly has this template, but for the code of the functions', () => {
    const withoutCode = (all: Resources) =>
      JSON.parse(JSON.stringify(all), (key, value) => (key === 'Code' && value?.S3Key !== undefined ? { ...value, S3Key: '(bundle)' } : value));
    expect(withoutCode(bundled.resources)).toEqual(withoutCode(resources));
  });

  test('every function has a bundle with a source map; one bundle per resource (and the consumer) loads and exports handler()', () => {
    const bundleOf = (functionId: string) => path.join(bundleDir(functionId), 'index.js');
    for (const [functionId] of serviceFunctions()) {
      expect(fs.existsSync(bundleOf(functionId))).toBe(true);
      expect(fs.existsSync(`${bundleOf(functionId)}.map`)).toBe(true);
    }
    // Loading every bundle (~0.4 MB each) would cost ~10 s; they differ only by entry module.
    const sample = [
      ...new Map(operationList.map((operation) => [operation.resource, functionLogicalId(operation)])).values(),
      logicalId(stack.streamConsumers.get('counting')!.consumer.function),
      logicalId(stack.streamConsumers.get('webhooks')!.consumer.function),
      logicalId(stack.webhookDelivery.sweeper.function),
    ].map(bundleOf);
    const script = `for (const f of JSON.parse(process.argv[1])) { if (typeof require(f).handler !== 'function') throw new Error('no handler in ' + f); }`;
    const result = spawnSync(process.execPath, ['-e', script, JSON.stringify(sample)], {
      encoding: 'utf8',
      env: { ...process.env, TABLE_NAME: 'bundle-check', AWS_REGION: 'us-east-1', POWERTOOLS_LOG_LEVEL: 'SILENT' },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe("the widgets' hot path", () => {
  test('responses/create and responses/getAggregates: bundles of at most 250 KB without ElectroDB (raw table client)', () => {
    for (const name of ['responses/create', 'responses/getAggregates', 'responses/edit', 'responses/remove']) {
      const operation = operationList.find((candidate) => operationPath(candidate) === name)!;
      const dir = bundleDir(functionLogicalId(operation));
      const bytes = fs.statSync(path.join(dir, 'index.js')).size;
      const sources: string[] = JSON.parse(fs.readFileSync(path.join(dir, 'index.js.map'), 'utf8')).sources;
      expect({ name, underBudget: bytes <= 250 * 1024, electrodb: sources.filter((source) => /node_modules\/(electrodb|jsonschema)\//.test(source)) }).toEqual({
        name,
        underBudget: true,
        electrodb: [],
      });
    }
  });
});

describe('docs function', () => {
  test('its bundle holds the OpenAPI document generated at synth and Swagger UI, and serves them like the local server', () => {
    const docsId = logicalId(stack.api.docsFunction.function);
    const bundle = bundleDir(docsId);
    const swaggerUi = swaggerUiDirectory();
    expect(fs.readFileSync(path.join(bundle, DOCS_FILES.openapi), 'utf8')).toBe(openApiJson());
    for (const file of [DOCS_FILES.script, DOCS_FILES.style]) {
      expect(fs.readFileSync(path.join(bundle, file)).equals(fs.readFileSync(path.join(swaggerUi, file)))).toBe(true);
    }
    // The bundled handler answers exactly what the local server answers.
    const script = `
      const { handler } = require(process.argv[1]);
      const call = (httpMethod, path) => handler({ httpMethod, path, headers: {} });
      Promise.all([call('GET', '/openapi.json'), call('GET', '/docs'), call('POST', '/docs'), call('GET', '/docs/swagger-ui.css')]).then((answers) =>
        console.log(JSON.stringify(answers.map((answer) => ({ status: answer.statusCode, type: answer.headers['Content-Type'], length: answer.body.length, body: answer.statusCode === 405 ? JSON.parse(answer.body) : undefined })))));`;
    const run = spawnSync(process.execPath, ['-e', script, path.join(bundle, 'index.js')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const local = docsPages(localDocsAssets());
    expect(JSON.parse(run.stdout)).toEqual([
      { status: 200, type: 'application/json; charset=utf-8', length: local.get('/openapi.json')!.body.length },
      { status: 200, type: 'text/html; charset=utf-8', length: local.get('/docs')!.body.length },
      { status: 405, type: 'application/json', length: expect.any(Number), body: expect.objectContaining({ error: 'method-not-allowed' }) },
      { status: 200, type: 'text/css; charset=utf-8', length: local.get('/docs/swagger-ui.css')!.body.length },
    ]);
  });
});

// ---------------------------------------------------------------- table

describe('table', () => {
  test('is built from TABLE_KEYS: same keys, GSIs and stream as the local table', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    const local = createTableInput('local');
    const props = ofType('AWS::DynamoDB::Table')[0][1].Properties;
    expect(props.KeySchema).toEqual(local.KeySchema);
    expect(props.AttributeDefinitions).toEqual(expect.arrayContaining(local.AttributeDefinitions!));
    expect(props.AttributeDefinitions).toHaveLength(local.AttributeDefinitions!.length);
    expect(props.GlobalSecondaryIndexes).toEqual(local.GlobalSecondaryIndexes);
    expect(props.GlobalSecondaryIndexes.map((index: Json) => index.IndexName)).toEqual(TABLE_KEYS.globalIndexes.map((index) => index.indexName));
    expect(props.StreamSpecification).toEqual({ StreamViewType: local.StreamSpecification!.StreamViewType });
  });

  test('stream NEW_AND_OLD_IMAGES, PITR, on-demand, TTL, AWS-managed encryption, retained', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TABLE_KEYS.timeToLiveAttribute, Enabled: true },
        SSESpecification: { SSEEnabled: true },
      }),
    });
  });
});

// ---------------------------------------------------------------- IAM

describe('IAM', () => {
  const tableArn = () => ({ 'Fn::GetAtt': [ofType('AWS::DynamoDB::Table')[0][0], 'Arn'] });

  test('no statement anywhere grants dynamodb:*, dynamodb:Scan or *', () => {
    const documents = [
      ...ofType('AWS::IAM::Policy').map(([, policy]) => policy.Properties.PolicyDocument),
      ...ofType('AWS::IAM::ManagedPolicy').map(([, policy]) => policy.Properties.PolicyDocument),
      ...ofType('AWS::IAM::Role').flatMap(([, role]) => (role.Properties.Policies ?? []).map((policy: Json) => policy.PolicyDocument)),
    ];
    const actions = documents.flatMap((document) => document.Statement.flatMap((statement: Json) => asArray<string>(statement.Action)));
    expect(actions.length).toBeGreaterThan(0);
    for (const action of actions) {
      expect(action).not.toMatch(/^dynamodb:\*$|^dynamodb:Scan$|^\*$/i);
      expect(action.toLowerCase()).not.toBe('dynamodb:scan');
    }
  });

  test.each(operationList.filter(isAudited).map((operation) => [operationPath(operation), operation] as const))(
    '%s: may Put its audit entries on the table (functions/api/audit.ts)',
    (_path, operation) => {
      const statements = roleStatements(functionRoleId(functionLogicalId(operation))).filter((statement) => statement.Sid !== 'KeyUsage');
      const puts = statements.filter((statement) => dynamoActions([statement]).includes('dynamodb:PutItem'));
      expect(puts).toHaveLength(1);
      expect(puts[0].Resource).toContainEqual(tableArn());
      expect(puts[0].Condition).toBeUndefined();
    },
  );

  test.each(['audit/list', 'audit/export'] as const)('%s: reads the audit log with Query and writes nothing but lastUsedAt', (name) => {
    const operation = operations[name];
    const statements = roleStatements(functionRoleId(functionLogicalId(operation))).filter((statement) => statement.Sid !== 'KeyUsage');
    expect(dynamoActions(statements)).toContain('dynamodb:Query');
    expect(dynamoActions(statements)).not.toContain('dynamodb:PutItem');
  });

  test.each(operationList.map((operation) => [operationPath(operation), operation] as const))(
    '%s: exactly the table actions of its access level, on the table and its indexes',
    (_path, operation) => {
      const all = roleStatements(functionRoleId(functionLogicalId(operation)));
      const statements = all.filter((statement) => statement.Sid !== 'KeyUsage');
      const expected = operation.readOnly ? TABLE_ACTIONS.readOnly : TABLE_ACTIONS.write;
      expect(dynamoActions(statements).sort()).toEqual([...expected].sort());
      const tableStatements = statements.filter((statement) => dynamoActions([statement]).length > 0);
      expect(tableStatements).toHaveLength(1);
      expect(tableStatements[0].Resource).toEqual([tableArn(), { 'Fn::Join': ['', [tableArn(), '/index/*']] }]);
      if (operation.readOnly) {
        expect(dynamoActions(statements)).not.toContain('dynamodb:PutItem');
        expect(dynamoActions(statements)).not.toContain('dynamodb:UpdateItem');
        expect(dynamoActions(statements)).not.toContain('dynamodb:DeleteItem');
      }
      // Read-only functions may refresh an API key's lastUsedAt, and write nothing else.
      const keyUsage = all.filter((statement) => statement.Sid === 'KeyUsage');
      expect(keyUsage).toHaveLength(operation.readOnly ? 1 : 0);
      if (operation.readOnly) {
        expect(keyUsage[0]).toEqual({
          Sid: 'KeyUsage',
          Effect: 'Allow',
          Action: 'dynamodb:UpdateItem',
          Resource: tableArn(),
          Condition: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...KEY_USAGE.leadingKeys] },
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...KEY_USAGE.attributes] },
            StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
          },
        });
      }
    },
  );

  test('the lists that page by cursor, and only they, read the cursor secret (by ARN in their environment)', () => {
    // The stack's other secrets: the webhook secrets key (see 'webhooks' below) and the public door's origin secret (lib/edge.ts).
    const secretId = logicalId(stack.api.cursorSecret);
    expect(ofType('AWS::SecretsManager::Secret')).toHaveLength(4);
    expect(resources[secretId].Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    const paged = operationList.filter((operation) => operation.pagesByCursor);
    expect(paged.length).toBeGreaterThan(0);
    for (const operation of operationList) {
      const functionId = functionLogicalId(operation);
      const environment = resources[functionId].Properties.Environment.Variables;
      const reads = roleStatements(functionRoleId(functionId)).filter(
        (statement) =>
          asArray<string>(statement.Action).some((action) => action.startsWith('secretsmanager:')) &&
          JSON.stringify(statement.Resource) === JSON.stringify({ Ref: secretId }),
      );
      if (operation.pagesByCursor) {
        expect(environment.CURSOR_SECRET_ARN).toEqual({ Ref: secretId });
        expect(reads).toHaveLength(1);
        expect(asArray<string>(reads[0].Action).sort()).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
        expect(reads[0].Resource).toEqual({ Ref: secretId });
      } else {
        expect(environment.CURSOR_SECRET_ARN).toBeUndefined();
        expect(reads).toEqual([]);
      }
    }
  });

  test('function roles carry no managed policy and may only write to the log groups of their own functions', () => {
    const functions = serviceFunctions();
    for (const [, fn] of functions) {
      const roleId = refId(fn.Properties.Role)!;
      expect(resources[roleId].Properties.ManagedPolicyArns).toBeUndefined();
      const logs = roleStatements(roleId).filter((statement) => asArray<string>(statement.Action).some((a) => a.startsWith('logs:')));
      for (const statement of logs) expect(asArray(statement.Action).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      const writable = logs.flatMap((statement) => asArray<Json>(statement.Resource)).map((resource) => resource['Fn::GetAtt']?.[0]);
      const sharing = functions
        .filter(([, other]) => refId(other.Properties.Role) === roleId)
        .map(([, other]) => refId(other.Properties.LoggingConfig.LogGroup));
      expect([...writable].sort()).toEqual([...sharing].sort());
    }
  });

  test("the API's operations of one resource (one nested stack) share one role per access profile, each with that profile's permissions", () => {
    const roleOf = (operation: OperationDeclaration) => functionRoleId(functionLogicalId(operation));
    const profiles = new Map<string, string>();
    for (const operation of operationList) {
      const profile = `${operation.resource}|${operation.readOnly}|${Boolean(operation.pagesByCursor)}|${Boolean(operation.opensWebhookSecrets)}|${Boolean(operation.sendsMail)}`;
      const known = profiles.get(profile);
      if (known) expect(roleOf(operation)).toBe(known);
      else profiles.set(profile, roleOf(operation));
    }
    // Different profiles never share a role.
    expect(new Set(profiles.values()).size).toBe(profiles.size);
  });

  test('the stream consumer: its table actions plus stream read and the DLQ', () => {
    const consumerId = logicalId(stack.streamConsumers.get('counting')!.consumer.function);
    const statements = roleStatements(functionRoleId(consumerId));
    expect(dynamoActions(statements).sort()).toEqual(
      [...TABLE_ACTIONS.counting, 'dynamodb:ListStreams', 'dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'].sort(),
    );
    expect(dynamoActions(statements)).not.toContain('dynamodb:DeleteItem');
    const streamRead = statements.find((statement) => asArray(statement.Action).includes('dynamodb:GetRecords'));
    expect(streamRead.Resource).toEqual({ 'Fn::GetAtt': [ofType('AWS::DynamoDB::Table')[0][0], 'StreamArn'] });
  });
});

// ---------------------------------------------------------------- stream consumer

describe('stream consumer', () => {
  test('event source mapping: trim horizon, bisect, 5 retries, partial failures, DLQ', () => {
    // Two readers per shard is what a DynamoDB stream serves: counting and webhooks.
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 2);
    const queueId = ofType('AWS::SQS::Queue')[0][0];
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [ofType('AWS::DynamoDB::Table')[0][0], 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 5,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
  });

  test('the counting mapping: batches of up to 1,000 within 3 s, one batch per shard at a time, a tumbling window for the shard id; webhooks: 1,000 within 1 s, a tumbling window too', () => {
    const mappingOf = (name: 'counting' | 'webhooks') => {
      const functionId = logicalId(stack.streamConsumers.get(name)!.consumer.function);
      return ofType('AWS::Lambda::EventSourceMapping').find(([, candidate]) => refId(candidate.Properties.FunctionName) === functionId)![1].Properties;
    };
    expect(mappingOf('counting')).toMatchObject({
      BatchSize: 10000,
      MaximumBatchingWindowInSeconds: 3,
      ParallelizationFactor: 1,
      TumblingWindowInSeconds: 900,
    });
    // The webhooks consumer reads the screening's verdicts from the shard's watermarks (functions/stream/screening.ts).
    expect(mappingOf('webhooks')).toMatchObject({ BatchSize: 1000, MaximumBatchingWindowInSeconds: 1, ParallelizationFactor: 1, TumblingWindowInSeconds: 900 });
  });

  test('the DLQ is encrypted and refuses non-TLS requests', () => {
    template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  test('the ranker runs every minute, one run at a time, without retries, and may only get, query and put items', () => {
    const rankerId = logicalId(stack.rankerJob.ranker.function);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [rankerId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    expect(resources[rankerId].Properties.ReservedConcurrentExecutions).toBe(1);
    const roleId = refId(resources[rankerId].Properties.Role);
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => (policy.Properties.Roles ?? []).some((role: unknown) => refId(role) === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
    const actions = statements
      .flatMap((statement: { Action: string | string[] }) => [statement.Action].flat())
      .filter((action: string) => action.startsWith('dynamodb:'));
    expect(actions.sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query']);
  });

  test('the alerts job runs hourly and the digest on Monday 08:00 UTC; both link the console; their table actions', () => {
    const alertsId = logicalId(stack.alertsJob.alerts.function);
    const digestId = logicalId(stack.alertsJob.digest.function);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 hour)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [alertsId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(0 8 ? * MON *)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [digestId, 'Arn'] } })],
    });
    expect(resources[alertsId].Properties.Environment.Variables.CONSOLE_URL).toBeDefined();
    expect(resources[digestId].Properties.Environment.Variables.CONSOLE_URL).toEqual(resources[alertsId].Properties.Environment.Variables.CONSOLE_URL);
    for (const id of [alertsId, digestId]) {
      const roleId = refId(resources[id].Properties.Role);
      const actions = ofType('AWS::IAM::Policy')
        .filter(([, policy]) => (policy.Properties.Roles ?? []).some((role: unknown) => refId(role) === roleId))
        .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement)
        .flatMap((statement: { Action: string | string[] }) => [statement.Action].flat())
        .filter((action: string) => action.startsWith('dynamodb:'));
      expect(actions.sort()).toEqual([...TABLE_ACTIONS.alerts].sort());
    }
  });

  test('the themes job runs every minute, one run at a time, without retries, with its own table actions', () => {
    const themesId = logicalId(stack.themesJob.themes.function);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [themesId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    expect(resources[themesId].Properties).toMatchObject({ ReservedConcurrentExecutions: 1, MemorySize: 1769, Timeout: 300 });
    const roleId = refId(resources[themesId].Properties.Role);
    const actions = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => (policy.Properties.Roles ?? []).some((role: unknown) => refId(role) === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement)
      .flatMap((statement: { Action: string | string[] }) => [statement.Action].flat())
      .filter((action: string) => action.startsWith('dynamodb:'));
    expect(actions.sort()).toEqual([...TABLE_ACTIONS.themes].sort());
  });

  test('alarms on DLQ messages, iterator age > 60 s, consumer, ranker, sweeper, alerts, digest, themes and bounce errors notify the SNS topic', () => {
    // Per consumer (counting, webhooks): DLQ, iterator age, errors; ranker errors; sweeper errors; failed deliveries; alerts, digest
    // and themes errors; the themes job's duration; the bounce function's DLQ and errors.
    template.resourceCountIs('AWS::CloudWatch::Alarm', 15);
    const topicId = ofType('AWS::SNS::Topic')[0][0];
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
    const byMetric = Object.fromEntries(alarms.map((alarm) => [alarm.MetricName, alarm]));
    expect(byMetric.ApproximateNumberOfMessagesVisible).toMatchObject({
      Namespace: 'AWS/SQS',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(byMetric.IteratorAge).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Maximum',
      Threshold: 60_000,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    const errorAlarms = alarms.filter((alarm) => alarm.MetricName === 'Errors');
    expect(errorAlarms).toHaveLength(8);
    // The ranker and the themes job run every minute and the next run retries: they alarm on 5 failures in 5 minutes.
    for (const alarm of errorAlarms) expect(alarm).toMatchObject({ Namespace: 'AWS/Lambda', Threshold: alarm.Period === 300 && alarm.Threshold === 5 ? 5 : 1 });
    expect(errorAlarms.filter((alarm) => alarm.Threshold === 5)).toHaveLength(2);
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
    // No e-mail unless configured (context alarmEmail); the one subscription is the bounce function's.
    expect(ofType('AWS::SNS::Subscription').map(([, subscription]) => subscription.Properties.Protocol)).toEqual(['lambda']);
  });
});

// ---------------------------------------------------------------- the public door

describe('public door: CloudFront in front of the API, web ACL on the stage', () => {
  const only = (type: string) => {
    const found = ofType(type);
    expect(found).toHaveLength(1);
    return found[0];
  };
  const distributionConfig = () => only('AWS::CloudFront::Distribution')[1].Properties.DistributionConfig;
  const apiBehavior = () => distributionConfig().CacheBehaviors.find((behavior: Json) => behavior.PathPattern === API_PATH_PATTERN);
  /** The origin secret (the cursor secret is the other secret of the stack). */
  const originSecret = () => {
    const found = ofType('AWS::SecretsManager::Secret').filter(([id]) => id.startsWith('EdgeOriginVerifySecret'));
    expect(found).toHaveLength(1);
    return found[0];
  };
  const secretRef = () => ({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: originSecret()[0] }, ':SecretString:::}}']] });
  const rules = () => only('AWS::WAFv2::WebACL')[1].Properties.Rules as Json[];
  const functionCode = (behavior: Json) => resources[refId(behavior.FunctionAssociations[0].FunctionARN)!].Properties.FunctionCode as string;

  test("the API is served under /v0/* from the stage's execute-api domain (no origin path), every method, HTTPS only", () => {
    const behavior = apiBehavior();
    const origin = distributionConfig().Origins.find((candidate: Json) => candidate.Id === behavior.TargetOriginId);
    expect(origin.DomainName).toEqual({
      'Fn::Join': ['.', [{ Ref: ofType('AWS::ApiGateway::RestApi')[0][0] }, 'execute-api', { Ref: 'AWS::Region' }, { Ref: 'AWS::URLSuffix' }]],
    });
    expect(origin.OriginPath ?? '').toBe('');
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(behavior.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'POST', 'OPTIONS']));
    expect(behavior.CachedMethods.sort()).toEqual(['GET', 'HEAD']);
    expect(behavior.ViewerProtocolPolicy).toBe('https-only');
    // The published base URL is the distribution's.
    const url = template.toJSON().Outputs.ApiUrl.Value['Fn::Join'][1];
    expect(url).toEqual(['https://', { 'Fn::GetAtt': [ofType('AWS::CloudFront::Distribution')[0][0], 'DomainName'] }, '/v0']);
  });

  test("cache: honours the API's Cache-Control (default TTL 0), keyed by the full query string, Authorization and Origin", () => {
    const policy = resources[refId(apiBehavior().CachePolicyId)!].Properties.CachePolicyConfig;
    expect(policy).toMatchObject({ DefaultTTL: 0, MinTTL: 0 });
    expect(policy.MaxTTL).toBeGreaterThanOrEqual(10);
    const key = policy.ParametersInCacheKeyAndForwardedToOrigin;
    expect(key.QueryStringsConfig).toEqual({ QueryStringBehavior: 'all' });
    expect(key.CookiesConfig).toEqual({ CookieBehavior: 'none' });
    expect(key.HeadersConfig).toEqual({ HeaderBehavior: 'whitelist', Headers: ['Authorization', 'Origin'] });
    const forwarded = resources[refId(apiBehavior().OriginRequestPolicyId)!].Properties.OriginRequestPolicyConfig;
    expect(forwarded.QueryStringsConfig).toEqual({ QueryStringBehavior: 'all' });
    expect(forwarded.HeadersConfig).toEqual({ HeaderBehavior: 'whitelist', Headers: FORWARDED_HEADERS });
    // The getAggregates function says for how long (10 s by default).
    const getAggregates = operationList.find((operation) => operationPath(operation) === 'responses/getAggregates')!;
    expect(resources[functionLogicalId(getAggregates)].Properties.Environment.Variables.AGGREGATES_MAX_AGE_SECONDS).toBe('10');
  });

  test("the visitor's address and key: a viewer-request function replaces whatever the client sent with the connection's address and its key", () => {
    const behavior = apiBehavior();
    expect(behavior.FunctionAssociations).toHaveLength(1);
    expect(behavior.FunctionAssociations[0].EventType).toBe('viewer-request');
    const handle = runInNewContext(`${functionCode(behavior)}; handler`);
    const forged = {
      viewer: { ip: '198.51.100.7' },
      request: {
        uri: '/v0/responses/create',
        headers: {
          [VIEWER_ADDRESS_HEADER]: { value: '203.0.113.1' },
          [VISITOR_KEY_HEADER]: { value: '203.0.113.1' },
          [ORIGIN_VERIFY_HEADER]: { value: 'guess' },
          'x-forwarded-for': { value: '203.0.113.2' },
        },
      },
    };
    const request = handle(forged);
    expect(request.headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '198.51.100.7' });
    expect(request.headers[VISITOR_KEY_HEADER]).toEqual({ value: '198.51.100.7' });
    // IPv6 visitors by their /64 (test/infra/edge.test.ts has the details).
    const v6 = handle({ ...forged, viewer: { ip: '2001:db8:1:2:3:4:5:6' } });
    expect(v6.headers[VISITOR_KEY_HEADER]).toEqual({ value: '2001:db8:1:2::/64' });
    expect(request.headers[ORIGIN_VERIFY_HEADER]).toBeUndefined();
  });

  test('no way around CloudFront: it adds the secret origin header, the web ACL blocks requests without it (403, first rule)', () => {
    const origin = distributionConfig().Origins.find((candidate: Json) => candidate.Id === apiBehavior().TargetOriginId);
    expect(origin.OriginCustomHeaders).toEqual([{ HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: secretRef() }]);
    const [first] = rules();
    expect(first).toMatchObject({ Name: 'RefuseDirectCalls', Priority: 0, Action: { Block: { CustomResponse: { ResponseCode: 403 } } } });
    expect(first.Statement.NotStatement.Statement.ByteMatchStatement).toEqual({
      FieldToMatch: { SingleHeader: { Name: ORIGIN_VERIFY_HEADER } },
      PositionalConstraint: 'EXACTLY',
      SearchString: secretRef(),
      TextTransformations: [{ Priority: 0, Type: 'NONE' }],
    });
    // The secret never appears in the template itself, only its dynamic reference.
    expect(originSecret()[1].Properties.GenerateSecretString).toMatchObject({ PasswordLength: 48, ExcludePunctuation: true });
    // Neither header is forwarded from the viewer: the function deletes one, sets the other.
    const forwarded = resources[refId(apiBehavior().OriginRequestPolicyId)!].Properties.OriginRequestPolicyConfig.HeadersConfig.Headers;
    expect(forwarded).not.toContain(ORIGIN_VERIFY_HEADER);
  });

  test('the web ACL is REGIONAL and associated with the v0 stage', () => {
    const [aclId, acl] = only('AWS::WAFv2::WebACL');
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    const association = only('AWS::WAFv2::WebACLAssociation')[1].Properties;
    expect(association.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    const stageId = ofType('AWS::ApiGateway::Stage')[0][0];
    expect(JSON.stringify(association.ResourceArn)).toContain(`"Ref":"${stageId}"`);
    expect(JSON.stringify(association.ResourceArn)).toContain('/restapis/');
  });

  test('rate-based rule: 300 per 5 minutes per visitor key on the anonymous writes (not their CORS preflights) without a key, answered 429 too-many-requests', () => {
    const rule = rules().find((candidate) => candidate.Name === 'AnonymousWritesPerVisitor');
    const statement = rule.Statement.RateBasedStatement;
    expect(statement).toMatchObject({
      Limit: 300,
      EvaluationWindowSec: 300,
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: [{ Header: { Name: VISITOR_KEY_HEADER, TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }],
    });
    const [paths, notPreflight, withoutKey] = statement.ScopeDownStatement.AndStatement.Statements;
    expect(notPreflight.NotStatement.Statement.ByteMatchStatement).toMatchObject({
      FieldToMatch: { Method: {} },
      PositionalConstraint: 'EXACTLY',
      SearchString: 'OPTIONS',
    });
    const pattern = new RegExp(paths.RegexMatchStatement.RegexString);
    // The operations' own paths: the web ACL sees the widgets' alias paths after the edge rewrote them.
    const limited = anonymousWriteOperations(operationList).map(operationPath);
    expect(limited.sort()).toEqual(['responses/create', 'responses/edit', 'responses/remove']);
    for (const path of limited) expect(pattern.test(`/v0/${path}`)).toBe(true);
    for (const operation of operationList.filter((candidate) => !limited.includes(operationPath(candidate)))) {
      expect(pattern.test(`/v0/${operationPath(operation)}`)).toBe(false);
    }
    expect(paths.RegexMatchStatement.TextTransformations).toEqual([{ Priority: 0, Type: 'URL_DECODE' }]);
    expect(withoutKey.NotStatement.Statement.SizeConstraintStatement).toMatchObject({
      FieldToMatch: { SingleHeader: { Name: 'authorization' } },
      ComparisonOperator: 'GT',
      Size: 0,
    });
    const response = rule.Action.Block.CustomResponse;
    expect(response.ResponseCode).toBe(429);
    expect(response.ResponseHeaders).toEqual(
      expect.arrayContaining([
        { Name: 'Retry-After', Value: '60' },
        { Name: 'Access-Control-Allow-Origin', Value: '*' },
      ]),
    );
    const body = only('AWS::WAFv2::WebACL')[1].Properties.CustomResponseBodies[response.CustomResponseBodyKey];
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({ error: 'too-many-requests', message: expect.any(String) });
  });

  test('the AWS managed groups (known bad inputs, IP reputation) block by default', () => {
    const managed = rules().filter((rule) => rule.Statement.ManagedRuleGroupStatement);
    expect(managed.map((rule) => rule.Statement.ManagedRuleGroupStatement)).toEqual(MANAGED_RULE_GROUPS.map((name) => ({ VendorName: 'AWS', Name: name })));
    for (const rule of managed) expect(rule.OverrideAction).toEqual({ None: {} });
    expect(rules().map((rule) => rule.Priority)).toEqual([0, 1, 2, 3]);
  });

  test("the default behaviour is the console's: its bucket through origin access control, its security headers, the SPA rewrite", () => {
    const consoleFiles = stack.console!;
    const behavior = distributionConfig().DefaultCacheBehavior;
    const origin = distributionConfig().Origins.find((candidate: Json) => candidate.Id === behavior.TargetOriginId);
    expect(origin.DomainName).toEqual({ 'Fn::GetAtt': [logicalId(consoleFiles.bucket), 'RegionalDomainName'] });
    expect(refId(origin.OriginAccessControlId)).toBe(only('AWS::CloudFront::OriginAccessControl')[0]);
    expect(origin.OriginCustomHeaders).toBeUndefined();
    expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(refId(behavior.ResponseHeadersPolicyId)).toBe(logicalId(consoleFiles.responseHeadersPolicy));
    const headers = resources[refId(behavior.ResponseHeadersPolicyId)!].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    // A Fn::Join: connect-src names the user pool's endpoints (test/infra/cognito.test.ts).
    const csp = JSON.stringify(headers.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline/);
    expect(headers).toMatchObject({
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY' },
      StrictTransportSecurity: { IncludeSubdomains: true },
    });
    expect(functionCode(behavior)).toBe(spaRewriteCode());
    // The API gets HSTS and nosniff only: its answers keep their own headers (the reference page has its own CSP).
    const api = resources[refId(apiBehavior().ResponseHeadersPolicyId)!].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(api).toEqual({
      StrictTransportSecurity: { AccessControlMaxAgeSec: HSTS_MAX_AGE_SECONDS, IncludeSubdomains: true, Override: true },
      ContentTypeOptions: { Override: true },
    });
    // The deployment invalidates index.html on this same distribution.
    const pages = ofType('Custom::CDKBucketDeployment').find(([, resource]) => resource.Properties.DistributionId);
    expect(pages?.[1].Properties.DistributionId).toEqual({ Ref: only('AWS::CloudFront::Distribution')[0] });
  });
});

// ---------------------------------------------------------------- webhooks

describe('webhooks', () => {
  const secretId = () => logicalId(stack.webhookDelivery.secretsKey);

  test('the consumer: its own mapping filtered to response records and content item inserts, table actions, stream read, the key', () => {
    const consumerId = logicalId(stack.streamConsumers.get('webhooks')!.consumer.function);
    const mapping = ofType('AWS::Lambda::EventSourceMapping').find(([, resource]) => refId(resource.Properties.FunctionName) === consumerId)![1];
    expect(mapping.Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(mapping.Properties.FilterCriteria.Filters.map((filter: Json) => JSON.parse(filter.Pattern))).toEqual([
      { dynamodb: { Keys: { pk: { S: [{ prefix: 'response#' }] } } } },
      { dynamodb: { Keys: { pk: { S: [{ prefix: 'content#' }] } } }, eventName: ['INSERT'] },
      { dynamodb: { Keys: { pk: { S: [{ prefix: 'alerts#' }] } } }, eventName: ['INSERT'] },
      { dynamodb: { Keys: { pk: { S: [{ prefix: 'digests#' }] } } }, eventName: ['INSERT'] },
    ]);
    const statements = roleStatements(functionRoleId(consumerId));
    expect(dynamoActions(statements).sort()).toEqual(
      [...TABLE_ACTIONS.webhooks, 'dynamodb:ListStreams', 'dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'].sort(),
    );
    expect(resources[consumerId].Properties.Environment.Variables.WEBHOOK_SECRETS_KEY_ARN).toEqual({ Ref: secretId() });
  });

  test('the sweeper: every minute, its table actions only, 90 s', () => {
    const sweeperId = logicalId(stack.webhookDelivery.sweeper.function);
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [sweeperId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    expect(resources[sweeperId].Properties.Timeout).toBe(90);
    expect(dynamoActions(roleStatements(functionRoleId(sweeperId))).sort()).toEqual([...TABLE_ACTIONS.webhookSweeper].sort());
  });

  test('the key that seals signing secrets: generated, retained, readable by exactly the functions that seal or open secrets', () => {
    expect(resources[secretId()]).toMatchObject({
      DeletionPolicy: 'Retain',
      Properties: { GenerateSecretString: expect.objectContaining({ PasswordLength: 64 }) },
    });
    const readsKey = (statement: Json) =>
      asArray(statement.Action).includes('secretsmanager:GetSecretValue') && JSON.stringify(statement.Resource) === JSON.stringify({ Ref: secretId() });
    const readers = ofType('AWS::Lambda::Function')
      .filter(([id]) => roleStatements(functionRoleId(id)).some(readsKey))
      .map(([id]) => id)
      .sort();
    const expected = [
      logicalId(stack.streamConsumers.get('webhooks')!.consumer.function),
      logicalId(stack.webhookDelivery.sweeper.function),
      ...operationList
        .filter((operation) => operation.opensWebhookSecrets)
        .map((operation) => logicalId(stack.api.functions.get(operationPath(operation))!.function)),
    ].sort();
    expect(readers).toEqual(expected);
    for (const id of readers) {
      expect(resources[id].Properties.Environment.Variables.WEBHOOK_SECRETS_KEY_ARN).toEqual({ Ref: secretId() });
    }
  });

  test("failed deliveries are counted from the sweeper's and the consumer's logs and alarmed on", () => {
    const filters = ofType('AWS::Logs::MetricFilter').map(([, filter]) => filter.Properties);
    expect(filters).toHaveLength(2);
    for (const filter of filters) {
      expect(filter.FilterPattern).toBe('{ $.message = "webhook delivery failed" }');
      expect(filter.MetricTransformations).toEqual([{ MetricNamespace: 'FeedbackService', MetricName: 'WebhookDeliveriesFailed', MetricValue: '1' }]);
    }
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'FeedbackService', MetricName: 'WebhookDeliveriesFailed', Threshold: 1 });
  });
});

// ---------------------------------------------------------------- mail

describe('mail (-c mailFrom)', () => {
  const sendingIds = () =>
    [
      logicalId(stack.alertsJob.alerts.function),
      logicalId(stack.alertsJob.digest.function),
      ...operationList.filter((operation) => operation.sendsMail).map((operation) => logicalId(stack.api.functions.get(operationPath(operation))!.function)),
    ].sort();
  const configurationSetId = () => ofType('AWS::SES::ConfigurationSet')[0][0];
  const sesStatements = (functionId: string) =>
    roleStatements(functionRoleId(functionId)).filter((statement) => asArray<string>(statement.Action).some((action) => /^ses:/i.test(action)));

  test("a configuration set without SES's own suppression list, whose bounces and complaints go to an SSL-only topic", () => {
    template.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    // The service's own list per account is the one a member lifts (functions/mail/bounces.ts).
    template.hasResourceProperties('AWS::SES::ConfigurationSet', { SuppressionOptions: { SuppressedReasons: [] } });
    template.resourceCountIs('AWS::SES::ConfigurationSetEventDestination', 1);
    const [[, destination]] = ofType('AWS::SES::ConfigurationSetEventDestination');
    expect(destination.Properties.ConfigurationSetName).toEqual({ Ref: configurationSetId() });
    expect(destination.Properties.EventDestination).toMatchObject({ Enabled: true });
    expect([...destination.Properties.EventDestination.MatchingEventTypes].sort()).toEqual(['bounce', 'complaint']);
    const topicId = refId(destination.Properties.EventDestination.SnsDestination.TopicARN)!;
    const [, policy] = ofType('AWS::SNS::TopicPolicy').find(([, candidate]) => candidate.Properties.Topics.some((topic: Json) => refId(topic) === topicId))!;
    expect(policy.Properties.PolicyDocument.Statement).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Deny', Action: 'sns:Publish', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        // SES may publish, for this configuration set only.
        expect.objectContaining({
          Effect: 'Allow',
          Action: 'sns:Publish',
          Principal: { Service: 'ses.amazonaws.com' },
          Condition: { StringEquals: expect.objectContaining({ 'AWS:SourceArn': expect.anything() }) },
        }),
      ]),
    );
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain(`configuration-set/",{"Ref":"${configurationSetId()}"}`);
  });

  test('the bounce function: subscribed to that topic, a dead-letter queue for what fails, may only put suppressions', () => {
    const bouncesId = logicalId(stack.mail.sending!.bounces.function);
    const queueId = logicalId(stack.mail.sending!.deadLetterQueue);
    const [[, subscription]] = ofType('AWS::SNS::Subscription');
    expect(subscription.Properties).toMatchObject({
      Protocol: 'lambda',
      Endpoint: { 'Fn::GetAtt': [bouncesId, 'Arn'] },
      TopicArn: { Ref: logicalId(stack.mail.sending!.topic) },
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [queueId, 'Arn'] } },
    });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: bouncesId },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    expect(resources[queueId].Properties.SqsManagedSseEnabled).toBe(true);
    const tableStatements = roleStatements(functionRoleId(bouncesId)).filter((statement) => dynamoActions([statement]).length > 0);
    expect(tableStatements).toEqual([
      {
        Sid: 'SuppressionWrites',
        Effect: 'Allow',
        Action: 'dynamodb:PutItem',
        Resource: { 'Fn::GetAtt': [ofType('AWS::DynamoDB::Table')[0][0], 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['mailsuppress#*'] }, StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' } },
      },
    ]);
    expect(sesStatements(bouncesId)).toEqual([]);
  });

  test("ses:SendEmail: exactly the jobs and the operations declared sendsMail, on the sender's identities and the configuration set only", () => {
    expect(operationList.filter((operation) => operation.sendsMail).map(operationPath)).toEqual(['members/sendDigest']);
    const senders = ofType('AWS::Lambda::Function')
      .filter(([id]) => sesStatements(id).length > 0)
      .map(([id]) => id)
      .sort();
    expect(senders).toEqual(sendingIds());
    const arn = (resource: string) => ({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:${resource}`]],
    });
    for (const id of senders) {
      expect(sesStatements(id)).toEqual([
        {
          Sid: 'SendMail',
          Effect: 'Allow',
          Action: 'ses:SendEmail',
          Resource: [
            ...senderIdentities(TEST_MAIL_FROM).map((identity) => arn(`identity/${identity}`)),
            {
              'Fn::Join': [
                '',
                [
                  'arn:',
                  { Ref: 'AWS::Partition' },
                  ':ses:',
                  { Ref: 'AWS::Region' },
                  ':',
                  { Ref: 'AWS::AccountId' },
                  ':configuration-set/',
                  { Ref: configurationSetId() },
                ],
              ],
            },
          ],
        },
      ]);
      expect(resources[id].Properties.Environment.Variables).toMatchObject({
        MAIL_FROM: TEST_MAIL_FROM,
        MAIL_TRANSPORT: 'ses',
        MAIL_CONFIGURATION_SET: { Ref: configurationSetId() },
        MAIL_TOKEN_KEY_ARN: { Ref: logicalId(stack.mailTokenKey) },
      });
    }
    expect(senderIdentities(TEST_MAIL_FROM)).toEqual(['feedback@mail.example.com', 'mail.example.com', 'example.com']);
  });

  test('every operation knows whether the deployment mails (members/notifications says so); only the senders get the rest', () => {
    for (const operation of operationList) {
      const variables = resources[functionLogicalId(operation)].Properties.Environment.Variables;
      expect(variables).toMatchObject({ MAIL_FROM: TEST_MAIL_FROM, MAIL_TRANSPORT: 'ses' });
      expect(variables.MAIL_CONFIGURATION_SET !== undefined).toBe(Boolean(operation.sendsMail));
    }
  });

  test("the unsubscribe link: its own function behind ANY /v0/mail/unsubscribe, the links' key, its table actions, under the per-visitor limit", () => {
    const unsubscribeId = logicalId(stack.mail.unsubscribe.function);
    const [route] = routes().filter((candidate) => candidate.path === 'mail/unsubscribe');
    expect(route).toMatchObject({ method: 'ANY', functionId: unsubscribeId, integration: { Type: 'AWS_PROXY' } });
    const variables = resources[unsubscribeId].Properties.Environment.Variables;
    expect(variables.MAIL_TOKEN_KEY_ARN).toEqual({ Ref: logicalId(stack.mailTokenKey) });
    expect(variables.CONSOLE_URL).toBeDefined();
    expect(dynamoActions(roleStatements(functionRoleId(unsubscribeId))).sort()).toEqual([...TABLE_ACTIONS.unsubscribe].sort());
    expect(sesStatements(unsubscribeId)).toEqual([]);
    const rule = stack.edge.webAcl.rules as Json[];
    const pattern = rule.find((candidate) => candidate.name === 'AnonymousWritesPerVisitor').statement.rateBasedStatement.scopeDownStatement.andStatement
      .statements[0].regexMatchStatement.regexString;
    expect(new RegExp(pattern).test('/v0/mail/unsubscribe')).toBe(true);
  });

  test("the links' key: generated, readable by exactly the unsubscribe function and the senders", () => {
    const keyId = logicalId(stack.mailTokenKey);
    expect(resources[keyId].Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64 });
    const readsKey = (statement: Json) =>
      asArray(statement.Action).includes('secretsmanager:GetSecretValue') && JSON.stringify(statement.Resource) === JSON.stringify({ Ref: keyId });
    const readers = ofType('AWS::Lambda::Function')
      .filter(([id]) => roleStatements(functionRoleId(id)).some(readsKey))
      .map(([id]) => id)
      .sort();
    expect(readers).toEqual([...sendingIds(), logicalId(stack.mail.unsubscribe.function)].sort());
  });
});

// ---------------------------------------------------------------- cdk-nag

describe('cdk-nag AwsSolutions', () => {
  test('the app synthesized with the AwsSolutions pack registered, and no finding is left unacknowledged', () => {
    // cdk-nag 3 is a CDK policy-validation plugin: an unacknowledged error already failed
    // the synthesis in beforeAll. Warnings do not fail it, so check both levels directly.
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((violation) => `${violation.severity} ${violation.ruleName}`)).toEqual([]);
    // The report CDK wrote at synthesis (cdk-nag and the built-in CloudFormation checks).
    const written = JSON.parse(fs.readFileSync(path.join(app.outdir, 'validation-report.json'), 'utf8'));
    expect(written.pluginReports).toEqual([]);
  });

  test('no AwsSolutions error or warning annotations (nor any other warning or error)', () => {
    // What Annotations.fromStack(stack) reads, taken from the assembly synthesized in
    // beforeAll instead of forcing a second full synthesis (Annotations.fromStack does).
    const messages = app.synth().getStackArtifact(stack.artifactId).messages;
    const levels = (level: string) => messages.filter((message) => message.level === level);
    const text = (message: { id: string; entry: { data?: unknown } }) => `${message.id}: ${String(message.entry.data)}`;
    expect(levels('error').filter((message) => /AwsSolutions-/.test(text(message)))).toEqual([]);
    expect(levels('warning').filter((message) => /AwsSolutions-/.test(text(message)))).toEqual([]);
    expect([...levels('error'), ...levels('warning')].map(text)).toEqual([]);
  });

  test('every acknowledgement has a specific reason and matches a real finding (none is stale)', () => {
    const acknowledged = new Map<string, string>();
    for (const construct of app.node.findAll()) {
      for (const entry of construct.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          acknowledged.set(`${construct.node.path} ${id.replace(/^annotation::/i, '')}`, reason);
        }
      }
    }
    expect(acknowledged.size).toBeGreaterThan(0);
    const reasons = new Set<string>(Object.values(NAG_REASONS));
    for (const reason of acknowledged.values()) {
      expect(reasons.has(reason)).toBe(true);
      expect(reason.length).toBeGreaterThan(80);
    }

    // The same pack with acknowledgements ignored: every acknowledged id must be reported
    // on the acknowledging construct or below it.
    const unfiltered = new AwsSolutionsChecks();
    (unfiltered as unknown as { isAcknowledged: () => boolean }).isAcknowledged = () => false;
    const findings = unfiltered
      .validateScope(app)
      .violations.flatMap((violation) => violation.violatingResources.map((resource) => `${resource.constructPath} ${violation.ruleName}`));
    for (const key of acknowledged.keys()) {
      const [scopePath, id] = key.split(' ');
      expect({ key, used: findings.some((finding) => finding.startsWith(`${scopePath}/`) && finding.endsWith(` ${id}`)) }).toEqual({
        key,
        used: true,
      });
    }
  });
});

// ---------------------------------------------------------------- configuration

describe('configuration (second app: bundling, cdk-nag and template validation skipped)', () => {
  test('context corsAllowedOrigins, apiRateLimit/apiBurstLimit and alarmEmail', () => {
    const configuredApp = new App({
      outdir: path.join(outdir, 'configured'),
      builtinCloudFormationValidation: false,
      treeMetadata: false,
      context: {
        'aws:cdk:bundling-stacks': [],
        corsAllowedOrigins: 'https://a.example, https://b.example',
        apiRateLimit: '5',
        apiBurstLimit: '10',
        alarmEmail: 'ops@example.com',
      },
    });
    new FeedbackStack(configuredApp, 'Configured');
    const configuredTemplate = Template.fromJSON(wholeTemplate(configuredApp));
    configuredTemplate.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ CORS_ALLOWED_ORIGINS: 'https://a.example,https://b.example' }) },
    });
    // The preflight answer of the distribution's viewer-request function names only the allowed origins.
    const viewerCode = Object.values<Json>(configuredTemplate.toJSON().Resources).find(
      (resource) => resource.Type === 'AWS::CloudFront::Function' && String(resource.Properties.FunctionCode).includes('function preflight'),
    ).Properties.FunctionCode;
    const preflight = runInNewContext(`${viewerCode}; handler`);
    const answer = (origin: string) =>
      preflight({ viewer: { ip: '192.0.2.1' }, request: { method: 'OPTIONS', uri: '/v0/projects/get', headers: { origin: { value: origin } } } }).headers;
    expect(answer('https://b.example')['access-control-allow-origin']).toEqual({ value: 'https://b.example' });
    expect(answer('https://c.example')['access-control-allow-origin']).toBeUndefined();
    configuredTemplate.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 })],
    });
    configuredTemplate.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  test('context oidcIssuer and oidcClientId: in every operation function, both or neither, https only (test/infra/cognito.test.ts: the default pool)', () => {
    const stackWith = (context: Record<string, string>) =>
      new FeedbackStack(
        new App({ builtinCloudFormationValidation: false, treeMetadata: false, context: { 'aws:cdk:bundling-stacks': [], ...context } }),
        'People',
      );
    const variables = (stack: FeedbackStack) => {
      const whole = wholeTemplate(stack.node.root as App);
      return [...stack.api.functions.values()].map((fn) => whole.Resources[logicalId(fn.function)].Properties.Environment.Variables);
    };
    const configured = variables(stackWith({ oidcIssuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc', oidcClientId: 'client-1' }));
    expect(configured.length).toBe(operationList.length);
    for (const environment of configured) {
      expect(environment).toMatchObject({ OIDC_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc', OIDC_CLIENT_ID: 'client-1' });
    }
    expect(() => stackWith({ oidcIssuer: 'https://id.example' })).toThrow(/together/);
    expect(() => stackWith({ oidcIssuer: 'http://id.example', oidcClientId: 'c' })).toThrow(/https/);
  });

  test('context anonymousRateLimit, anonymousRateWindowSeconds, wafManagedRules and aggregatesMaxAge', () => {
    const configured = (context: Record<string, string>) =>
      wholeTemplate(
        new FeedbackStack(
          new App({ builtinCloudFormationValidation: false, treeMetadata: false, context: { 'aws:cdk:bundling-stacks': [], ...context } }),
          'Edge',
        ).node.root as App,
      ).Resources as Resources;
    const ruleOf = (template: Resources) => Object.values(template).find((resource: Json) => resource.Type === 'AWS::WAFv2::WebACL').Properties.Rules as Json[];

    const tuned = configured({ anonymousRateLimit: '50', anonymousRateWindowSeconds: '60', wafManagedRules: 'count', aggregatesMaxAge: '30' });
    const rate = ruleOf(tuned).find((rule) => rule.Name === 'AnonymousWritesPerVisitor').Statement.RateBasedStatement;
    expect([rate.Limit, rate.EvaluationWindowSec]).toEqual([50, 60]);
    for (const rule of ruleOf(tuned).filter((candidate) => candidate.Statement.ManagedRuleGroupStatement)) expect(rule.OverrideAction).toEqual({ Count: {} });
    const maxAges = Object.values(tuned)
      .filter((resource: Json) => resource.Type === 'AWS::Lambda::Function')
      .map((resource: Json) => resource.Properties.Environment?.Variables?.AGGREGATES_MAX_AGE_SECONDS)
      .filter(Boolean);
    expect(maxAges).toEqual(['30']);

    // 0 turns the limit off; off removes the managed groups; the origin check always stays.
    expect(ruleOf(configured({ anonymousRateLimit: '0', wafManagedRules: 'off' })).map((rule) => rule.Name)).toEqual(['RefuseDirectCalls']);
    expect(() => configured({ anonymousRateLimit: '5' })).toThrow(/anonymousRateLimit/);
    expect(() => configured({ anonymousRateWindowSeconds: '30' })).toThrow(/anonymousRateWindowSeconds/);
    expect(() => configured({ wafManagedRules: 'maybe' })).toThrow(/wafManagedRules/);
  });

  test('without mailFrom mail is off: no configuration set, no bounce handling, nothing may send; the unsubscribe link stays', () => {
    const mailStack = (context: Record<string, unknown>, props: { console?: boolean } = {}) =>
      new FeedbackStack(
        new App({ builtinCloudFormationValidation: false, treeMetadata: false, context: { 'aws:cdk:bundling-stacks': [], ...context } }),
        'Mail',
        props,
      );
    const off = mailStack({});
    const whole = wholeTemplate(off.node.root as App).Resources as Resources;
    const ofKind = (type: string) => Object.values(whole).filter((resource: Json) => resource.Type === type);
    for (const type of ['AWS::SES::ConfigurationSet', 'AWS::SES::ConfigurationSetEventDestination', 'AWS::SNS::Subscription']) expect(ofKind(type)).toEqual([]);
    expect(JSON.stringify(whole)).not.toMatch(/"ses:|MAIL_FROM|MAIL_TRANSPORT|MAIL_CONFIGURATION_SET/);
    // Links mailed while mail was on keep working, with the same key.
    expect(off.mail.unsubscribe).toBeDefined();
    expect(whole[logicalId(off.mail.unsubscribe.function)].Properties.Environment.Variables.MAIL_TOKEN_KEY_ARN).toEqual({ Ref: logicalId(off.mailTokenKey) });
    expect(logicalId(off.mailTokenKey)).toBe(logicalId(stack.mailTokenKey));

    // A rate above the sandbox's reaches every sender; a sender needs the console its mails link to.
    const fast = mailStack({ mailFrom: 'feedback@example.com', mailRatePerSecond: '14' });
    const fastWhole = wholeTemplate(fast.node.root as App).Resources as Resources;
    expect(fastWhole[logicalId(fast.alertsJob.digest.function)].Properties.Environment.Variables.MAIL_RATE_PER_SECOND).toBe('14');
    expect(() => mailStack({ mailFrom: 'not an address' })).toThrow(/mailFrom must be a sender address/);
    expect(() => mailStack({ mailFrom: 'Feedback <feedback@example.com>\r\nBcc: x@example.com' })).toThrow(/mailFrom/);
    expect(() => mailStack({ mailFrom: 'feedback@example.com', mailRatePerSecond: '0.5' })).toThrow(/mailRatePerSecond/);
    expect(() => mailStack({ mailRatePerSecond: '5' })).toThrow(/needs mailFrom/);
    expect(() => mailStack({ mailFrom: 'feedback@example.com' }, { console: false })).toThrow(/needs the console/);
  });
});
