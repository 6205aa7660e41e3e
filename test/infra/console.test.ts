/**
 * The console's CloudFront distribution (lib/console.ts), synthesized in a small stack of its
 * own (a stand-in RestApi with stage v0 and a prebuilt console folder), so these checks do
 * not pay for the whole app's bundling: private S3 origin with origin access control, the
 * API under /v0/* uncached with every viewer header but Host and every query string, the
 * security headers, the SPA rewrite, the two deployments' cache headers, and cdk-nag.
 */
import { App, Stack } from 'aws-cdk-lib';
import { MockIntegration, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runInNewContext } from 'node:vm';
import { CONTENT_SECURITY_POLICY, IMMUTABLE_CACHE, NO_CACHE } from '../../console/serving';
import { FeedbackConsole, spaRewriteCode } from '../../lib/console';
import { REPO_ROOT } from '../../lib/paths';

type Json = any;

const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let outdir: string;
let app: App;
let template: Template;
let resources: Record<string, Json>;

beforeAll(() => {
  fs.mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
  outdir = fs.mkdtempSync(path.join(REPO_ROOT, '.tmp', 'console-infra-'));
  const consoleDir = path.join(outdir, 'console');
  fs.mkdirSync(path.join(consoleDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html>');
  fs.writeFileSync(path.join(consoleDir, 'assets/app-ABC.js'), '');
  app = new App({ outdir: path.join(outdir, 'assembly') });
  const stack = new Stack(app, 'ConsoleOnly', { env: { region: 'eu-west-1' } });
  const api = new RestApi(stack, 'Api', { deployOptions: { stageName: 'v0' } });
  api.root.addResource('health').addMethod('GET', new MockIntegration());
  new FeedbackConsole(stack, 'Console', { api, consoleDir });
  app.synth();
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
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

test('default behaviour: the bucket, HTTPS, cached, security headers, client routes rewritten to index.html', () => {
  const config = only('AWS::CloudFront::Distribution').DistributionConfig;
  expect(config.DefaultRootObject).toBe('index.html');
  expect(config.CustomErrorResponses).toBeUndefined();
  const behavior = config.DefaultCacheBehavior;
  expect(behavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https', CachePolicyId: CACHING_OPTIMIZED, Compress: true });
  expect(behavior.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
  expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: expect.stringMatching(/SecurityHeaders/) });
  const s3Origin = config.Origins.find((origin: Json) => origin.Id === behavior.TargetOriginId);
  expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
  expect(s3Origin.OriginAccessControlId).toBeDefined();
});

test('/v0/* goes to the API stage: all methods, not cached, every viewer header but Host and every query string forwarded', () => {
  const config = only('AWS::CloudFront::Distribution').DistributionConfig;
  expect(config.CacheBehaviors).toHaveLength(1);
  const api = config.CacheBehaviors[0];
  expect(api).toMatchObject({
    PathPattern: '/v0/*',
    ViewerProtocolPolicy: 'https-only',
    CachePolicyId: CACHING_DISABLED,
    OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
    AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
  });
  expect(api.ResponseHeadersPolicyId).toEqual(config.DefaultCacheBehavior.ResponseHeadersPolicyId);
  const origin = config.Origins.find((candidate: Json) => candidate.Id === api.TargetOriginId);
  expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
  // The stage's host, no origin path: the viewer's /v0 is the stage.
  expect(JSON.stringify(origin.DomainName)).toContain('Fn::Split');
  expect(origin.OriginPath).toBeUndefined();
});

test('security headers: the console CSP (no inline scripts or styles, no framing), HSTS, DENY, nosniff', () => {
  const headers = only('AWS::CloudFront::ResponseHeadersPolicy').ResponseHeadersPolicyConfig.SecurityHeadersConfig;
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
  const code = only('AWS::CloudFront::Function').FunctionCode;
  expect(code).toBe(spaRewriteCode());
  const rewrite = (uri: string) => runInNewContext(`${code}\nhandler({ request: { uri: ${JSON.stringify(uri)} } }).uri`);
  for (const route of ['/', '/projects', '/sets/abc/embed', '/people/ann@example.com', '/items/x.y'])
    expect([route, rewrite(route)]).toEqual([route, '/index.html']);
  for (const file of ['/index.html', '/assets/app-ABC.js', '/assets/styles-X.css', '/favicon.svg', '/assets/missing']) expect(rewrite(file)).toBe(file);
});

test('two deployments: hashed assets immutable, the rest revalidated and invalidated; nothing pruned', () => {
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
  expect(pages.DistributionPaths).toEqual(['/index.html']);
  for (const deployment of deployments) expect(deployment.Prune).toBe(false);
});

test('cdk-nag AwsSolutions: no finding of the console (its bucket, distribution, deployments) left unacknowledged', () => {
  // The stand-in API has findings of its own (the real one acknowledges them in lib/feedback-api.ts).
  const report = new AwsSolutionsChecks().validateScope(app);
  const findings = report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => `${violation.severity} ${violation.ruleName} ${resource.constructPath}`),
  );
  expect(findings.filter((finding) => !/ ConsoleOnly\/Api\//.test(finding))).toEqual([]);
});
