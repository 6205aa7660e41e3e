/**
 * The console on the public door's distribution (lib/console.ts as the default behaviour of
 * lib/edge.ts's PublicEdge), synthesized in a small stack of its own (a stand-in RestApi with
 * stage v0 and a prebuilt console folder), so these checks do not pay for the whole app's
 * bundling: ONE distribution, the private S3 origin with origin access control and the
 * console's security headers by default, the API under /v0/* with the edge's cache policy,
 * viewer-address function and origin-verify header, the SPA rewrite, the two deployments'
 * cache headers, and cdk-nag. A second stack without the console keeps the 404 fallback.
 * test/infra/stack.test.ts checks the same wiring in the real stack, with its web ACL rules.
 */
import { App, Stack } from 'aws-cdk-lib';
import { MockIntegration, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runInNewContext } from 'node:vm';
import { CONTENT_SECURITY_POLICY, HSTS_MAX_AGE_SECONDS, IMMUTABLE_CACHE, NO_CACHE } from '../../console/serving';
import { operationList } from '../../functions/api/registry';
import { FeedbackConsole, spaRewriteCode } from '../../lib/console';
import { API_PATH_PATTERN, ORIGIN_VERIFY_HEADER, PublicEdge, VIEWER_ADDRESS_HEADER } from '../../lib/edge';
import { REPO_ROOT } from '../../lib/paths';

type Json = any;

const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';

let outdir: string;
let app: App;
let template: Template;
let resources: Record<string, Json>;
let withoutConsole: Record<string, Json>;

/** A stack of the stand-in API behind PublicEdge, with `defaultBehavior` from the console when given. */
function edgeStack(id: string, withConsole?: (stack: Stack) => FeedbackConsole): Stack {
  const stack = new Stack(app, id, { env: { region: 'eu-west-1' } });
  const restApi = new RestApi(stack, 'Api', { deployOptions: { stageName: 'v0' } });
  restApi.root.addResource('health').addMethod('GET', new MockIntegration());
  const consoleFiles = withConsole?.(stack);
  const edge = new PublicEdge(stack, 'Edge', {
    restApi,
    stageName: 'v0',
    operations: operationList,
    corsAllowedOrigins: ['*'],
    anonymousRateLimit: { limit: 300, windowSeconds: 300 },
    managedRules: 'block',
    defaultBehavior: consoleFiles?.behavior,
  });
  consoleFiles?.deployTo(edge.distribution);
  return stack;
}

beforeAll(() => {
  fs.mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
  outdir = fs.mkdtempSync(path.join(REPO_ROOT, '.tmp', 'console-infra-'));
  const consoleDir = path.join(outdir, 'console');
  fs.mkdirSync(path.join(consoleDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html>');
  fs.writeFileSync(path.join(consoleDir, 'assets/app-ABC.js'), '');
  // CDK's built-in CloudFormation validation checks these constructs in the whole app (stack.test.ts).
  app = new App({ outdir: path.join(outdir, 'assembly'), builtinCloudFormationValidation: false });
  const stack = edgeStack('ConsoleOnEdge', (scope) => new FeedbackConsole(scope, 'Console', { consoleDir }));
  const bare = edgeStack('EdgeWithoutConsole');
  app.synth();
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
  withoutConsole = Template.fromStack(bare).toJSON().Resources;
}, 120_000);

afterAll(() => {
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

function only(type: string): Json {
  const found = Object.values(resources).filter((resource) => resource.Type === type);
  expect(found).toHaveLength(1);
  return found[0].Properties;
}

test('a private, encrypted bucket that refuses plain HTTP and lets only this distribution read (origin access control)', () => {
  const bucket = only('AWS::S3::Bucket');
  expect(bucket.PublicAccessBlockConfiguration).toEqual({
    BlockPublicAcls: true,
    BlockPublicPolicy: true,
    IgnorePublicAcls: true,
    RestrictPublicBuckets: true,
  });
  expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
  expect(bucket.WebsiteConfiguration).toBeUndefined();
  const statements: Json[] = only('AWS::S3::BucketPolicy').PolicyDocument.Statement;
  expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
  const read = statements.find((statement) => statement.Principal?.Service === 'cloudfront.amazonaws.com');
  expect(read.Action).toBe('s3:GetObject');
  expect(JSON.stringify(read.Condition)).toContain('AWS:SourceArn');
  expect(only('AWS::CloudFront::OriginAccessControl').OriginAccessControlConfig).toMatchObject({
    OriginAccessControlOriginType: 's3',
    SigningBehavior: 'always',
  });
});

/** The CloudFront function associated with a behaviour, as deployed. */
function functionCode(behavior: Json, from: Record<string, Json> = resources): string {
  return from[behavior.FunctionAssociations[0].FunctionARN['Fn::GetAtt'][0]].Properties.FunctionCode;
}

test('one distribution: the console by default, the API under /v0/*', () => {
  const config = only('AWS::CloudFront::Distribution').DistributionConfig;
  expect(config.CacheBehaviors.map((behavior: Json) => behavior.PathPattern)).toEqual([API_PATH_PATTERN]);
  expect(config.Origins).toHaveLength(2);
  expect(new Set(config.Origins.map((origin: Json) => origin.Id)).size).toBe(2);
});

test('default behaviour: the bucket, HTTPS, cached, security headers, client routes rewritten to index.html', () => {
  const config = only('AWS::CloudFront::Distribution').DistributionConfig;
  expect(config.CustomErrorResponses).toBeUndefined();
  const behavior = config.DefaultCacheBehavior;
  expect(behavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https', CachePolicyId: CACHING_OPTIMIZED, Compress: true });
  expect(behavior.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
  expect(functionCode(behavior)).toBe(spaRewriteCode());
  expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: expect.stringMatching(/SecurityHeaders/) });
  const s3Origin = config.Origins.find((origin: Json) => origin.Id === behavior.TargetOriginId);
  expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
  expect(s3Origin.OriginAccessControlId).toBeDefined();
  expect(s3Origin.OriginCustomHeaders).toBeUndefined();
});

test("/v0/* stays the edge's API behaviour: its cache policy, the viewer-address function, the origin-verify header, the API's own headers", () => {
  const config = only('AWS::CloudFront::Distribution').DistributionConfig;
  const api = config.CacheBehaviors[0];
  expect(api).toMatchObject({
    PathPattern: '/v0/*',
    ViewerProtocolPolicy: 'https-only',
    AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
  });
  expect(resources[api.CachePolicyId.Ref].Properties.CachePolicyConfig).toMatchObject({ DefaultTTL: 0, MinTTL: 0 });
  expect(functionCode(api)).toContain(VIEWER_ADDRESS_HEADER);
  // HSTS and nosniff only: the console's CSP would replace the API reference page's own (functions/reference-page/pages.ts).
  expect(resources[api.ResponseHeadersPolicyId.Ref].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig).toEqual({
    StrictTransportSecurity: { AccessControlMaxAgeSec: HSTS_MAX_AGE_SECONDS, IncludeSubdomains: true, Override: true },
    ContentTypeOptions: { Override: true },
  });
  const origin = config.Origins.find((candidate: Json) => candidate.Id === api.TargetOriginId);
  expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
  expect(origin.OriginCustomHeaders.map((header: Json) => header.HeaderName)).toEqual([ORIGIN_VERIFY_HEADER]);
  expect(origin.OriginPath ?? '').toBe('');
  // The web ACL that refuses calls without that header is still on the stage.
  const [association] = Object.values(resources).filter((resource) => resource.Type === 'AWS::WAFv2::WebACLAssociation');
  expect(JSON.stringify(association.Properties.ResourceArn)).toContain('/restapis/');
  const acl = only('AWS::WAFv2::WebACL');
  expect(acl.Rules[0].Statement.NotStatement.Statement.ByteMatchStatement.FieldToMatch).toEqual({ SingleHeader: { Name: ORIGIN_VERIFY_HEADER } });
});

test('without the console, the default behaviour answers 404 at the edge and there is no bucket', () => {
  const [distribution] = Object.values(withoutConsole).filter((resource) => resource.Type === 'AWS::CloudFront::Distribution');
  const fallback = distribution.Properties.DistributionConfig.DefaultCacheBehavior;
  const answer = runInNewContext(`${functionCode(fallback, withoutConsole)}; handler`)({ request: { uri: '/index.html', headers: {} } });
  expect(answer.statusCode).toBe(404);
  expect(JSON.parse(answer.body)).toMatchObject({ error: 'not-found' });
  expect(Object.values(withoutConsole).filter((resource) => resource.Type === 'AWS::S3::Bucket')).toEqual([]);
  // And the console stack has no such function.
  const functions = Object.values(resources).filter((resource) => resource.Type === 'AWS::CloudFront::Function');
  expect(functions).toHaveLength(2);
});

test('security headers: the console CSP (no inline scripts or styles, no framing), HSTS, DENY, nosniff', () => {
  const consolePolicy = only('AWS::CloudFront::Distribution').DistributionConfig.DefaultCacheBehavior.ResponseHeadersPolicyId.Ref;
  const headers = resources[consolePolicy].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
  expect(headers.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: CONTENT_SECURITY_POLICY, Override: true });
  expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self'(;|$)/);
  expect(CONTENT_SECURITY_POLICY).toMatch(/frame-ancestors 'none'/);
  expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)/);
  expect(headers.StrictTransportSecurity).toMatchObject({ IncludeSubdomains: true, Override: true });
  expect(headers.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31_536_000);
  expect(headers.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
  expect(headers.ContentTypeOptions).toEqual({ Override: true });
});

test('the SPA rewrite: client routes get /index.html, static files keep their path', () => {
  template.hasResourceProperties('AWS::CloudFront::Function', { FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }) });
  const code = spaRewriteCode();
  const rewrite = (uri: string) => runInNewContext(`${code}\nhandler({ request: { uri: ${JSON.stringify(uri)} } }).uri`);
  for (const route of ['/', '/projects', '/sets/abc/embed', '/respondents/ann@example.com', '/items/x.y'])
    expect([route, rewrite(route)]).toEqual([route, '/index.html']);
  for (const file of ['/index.html', '/assets/app-ABC.js', '/assets/styles-X.css', '/favicon.svg', '/assets/missing']) expect(rewrite(file)).toBe(file);
});

test('two deployments: hashed assets immutable, the rest (config.json too) revalidated and invalidated; nothing pruned', () => {
  const deployments = Object.values(resources)
    .filter((resource) => resource.Type === 'Custom::CDKBucketDeployment')
    .map((resource) => resource.Properties);
  expect(deployments).toHaveLength(2);
  const assets = deployments.find((deployment) => JSON.stringify(deployment.Include ?? []).includes('assets/*'));
  const pages = deployments.find((deployment) => deployment !== assets);
  expect(assets.SystemMetadata['cache-control']).toBe(IMMUTABLE_CACHE);
  expect(assets.Exclude).toEqual(['*']);
  expect(pages.SystemMetadata['cache-control']).toBe(NO_CACHE);
  expect(pages.Exclude).toEqual(['assets/*']);
  // And config.json, the sign-in settings (the last source; test/infra/cognito.test.ts checks its content).
  expect(pages.DistributionPaths).toEqual(['/index.html', '/config.json']);
  expect(pages.SourceObjectKeys).toHaveLength(2);
  for (const deployment of deployments) expect(deployment.Prune).toBe(false);
});

test('cdk-nag AwsSolutions: no finding of the console (its bucket, deployments) or of the distribution left unacknowledged', () => {
  // The stand-in APIs have findings of their own (the real one acknowledges them in lib/feedback-api.ts).
  const report = new AwsSolutionsChecks().validateScope(app);
  const findings = report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => `${violation.severity} ${violation.ruleName} ${resource.constructPath}`),
  );
  expect(findings.filter((finding) => !/ (ConsoleOnEdge|EdgeWithoutConsole)\/Api\//.test(finding))).toEqual([]);
});
