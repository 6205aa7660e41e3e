/**
 * People's sign-in on AWS (lib/sign-in.ts, lib/feedback-stack.ts): the Cognito user pool and
 * the console's app client the stack creates by default, the issuer and client id every API
 * function is given, the console's /config.json, and the context variants (the operator's own
 * provider: no pool; `cognito=false`: no sign-in). The apps here skip bundling and take a
 * stand-in console build; the default variant is checked by cdk-nag like the real app.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runInNewContext } from 'node:vm';
import { Stack, type CfnElement } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { CONTENT_SECURITY_POLICY } from '../../console/serving';
import { INVITATION_PATH } from '../../functions/operations/members';
import { operationList } from '../../functions/api/registry';
import { createFeedbackApp } from '../../lib/app';
import { CONSOLE_CONFIG_FILE, spaRewriteCode } from '../../lib/console';
import type { FeedbackStack } from '../../lib/feedback-stack';
import { REPO_ROOT } from '../../lib/paths';
import { CONSOLE_CALLBACK_PATHS, CONSOLE_SIGNED_OUT_PATH, domainPrefixName } from '../../lib/sign-in';
import { loadCloudAssembly } from '../support/cloud-assembly';
import { cdkJsonContext } from '../support/shared-assembly';

type Json = any;

let outdir: string;
let consoleDir: string;
let apps = 0;

beforeAll(() => {
  fs.mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
  outdir = fs.mkdtempSync(path.join(REPO_ROOT, '.tmp', 'cognito-infra-'));
  consoleDir = path.join(outdir, 'console');
  fs.mkdirSync(path.join(consoleDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html>');
});

afterAll(() => {
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

interface Synthesized {
  stack: FeedbackStack;
  resources: Record<string, Json>;
  outputs: Record<string, Json>;
  /** The assembly's directory (the config.json asset is in it). */
  dir: string;
  app: ReturnType<typeof createFeedbackApp>['app'];
}

/** The app as bin/app.ts makes it (cdk-nag registered), with `context`, bundling skipped and the stand-in console. */
function synth(context: Record<string, string> = {}): Synthesized {
  const dir = path.join(outdir, `assembly-${apps++}`);
  const { app, stack } = createFeedbackApp({
    outdir: dir,
    context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...context },
    // Without CDK's built-in CloudFormation validation (about 10 CPU s a synthesis): it only
    // writes warnings to the report, which stack.test.ts checks for the default app.
    builtinCloudFormationValidation: false,
    stackProps: { console: context.console === 'false' ? false : consoleDir },
  });
  // The whole stack: the operations' functions are in nested stacks (test/support/cloud-assembly.ts reads them in).
  const { template } = loadCloudAssembly(app.synth().directory);
  return { stack, resources: template.Resources, outputs: template.Outputs ?? {}, dir, app };
}

function ofType(resources: Record<string, Json>, type: string): [string, Json][] {
  return Object.entries(resources).filter(([, resource]) => resource.Type === type);
}

function only(resources: Record<string, Json>, type: string): [string, Json] {
  const found = ofType(resources, type);
  expect(found).toHaveLength(1);
  return found[0];
}

/** The environment of every API operation function, by operation path. */
function operationEnvironments({ stack, resources }: Synthesized): Json[] {
  return [...stack.api.functions.values()].map((fn) => {
    const element = fn.function.node.defaultChild as CfnElement;
    return resources[Stack.of(element).getLogicalId(element)].Properties.Environment.Variables;
  });
}

/** The pages deployment (index.html and config.json) and the content of config.json, markers and their values. */
function consoleConfig({ resources, dir }: Synthesized): { config: Json; markers: Record<string, Json>; deployment: Json } {
  const deployment = ofType(resources, 'Custom::CDKBucketDeployment')
    .map(([, resource]) => resource.Properties)
    .find((properties) => JSON.stringify(properties.DistributionPaths ?? []).includes('index.html'));
  // The last source is the generated config.json (an asset directory holding that one file).
  const index = deployment.SourceObjectKeys.length - 1;
  const assetDir = path.join(dir, `asset.${String(deployment.SourceObjectKeys[index]).replace(/\.zip$/, '')}`);
  expect(fs.readdirSync(assetDir)).toEqual([CONSOLE_CONFIG_FILE]);
  return {
    config: JSON.parse(fs.readFileSync(path.join(assetDir, CONSOLE_CONFIG_FILE), 'utf8')),
    markers: deployment.SourceMarkers?.[index] ?? {},
    deployment,
  };
}

/** A template value with the deployment's markers put back: `<<marker:...>>` -> the CloudFormation value. */
function withMarkers(text: string, markers: Record<string, Json>): Json[] {
  return text
    .split(/(<<marker:0x[a-f0-9]+:\d+>>)/)
    .filter(Boolean)
    .map((part) => markers[part] ?? part);
}

/** Flattens a `Fn::Join ['', parts]` (or a plain string) into its parts. */
function joined(value: Json): Json[] {
  if (typeof value === 'string') return [value];
  expect(value['Fn::Join']?.[0]).toBe('');
  return value['Fn::Join'][1];
}

describe('by default: a Cognito user pool and the console as its app client', () => {
  let synthesized: Synthesized;
  let poolId: string;
  let clientId: string;
  const issuerParts = () => ['https://cognito-idp.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/', { Ref: poolId }];

  beforeAll(() => {
    synthesized = synth();
    poolId = only(synthesized.resources, 'AWS::Cognito::UserPool')[0];
    clientId = only(synthesized.resources, 'AWS::Cognito::UserPoolClient')[0];
  }, 180_000);

  test('the pool: self sign-up with a verified e-mail, strong passwords, optional TOTP, threat protection, kept', () => {
    const [, pool] = only(synthesized.resources, 'AWS::Cognito::UserPool');
    expect(pool.Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      Policies: { PasswordPolicy: { MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true } },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
      DeletionProtection: 'ACTIVE',
    });
    // Memberships name people by issuer + subject: the pool outlives the stack, like the table.
    expect(pool.DeletionPolicy).toBe('Retain');
    expect(pool.UpdateReplacePolicy).toBe('Retain');
  });

  test('a prefix domain: the stack name and the last group of the stack id', () => {
    const [, domain] = only(synthesized.resources, 'AWS::Cognito::UserPoolDomain');
    expect(domain.Properties.UserPoolId).toEqual({ Ref: poolId });
    expect(domain.Properties.CustomDomainConfig).toBeUndefined();
    expect(domain.Properties.Domain).toEqual({
      'Fn::Join': [
        '',
        ['feedbackservice-', { 'Fn::Select': [4, { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] }] }],
      ],
    });
    expect(domainPrefixName('My_AWS-Cognito.Stack')).toBe('my-stack');
    expect(domainPrefixName('aws')).toBe('feedback');
    expect(domainPrefixName('x'.repeat(80))).toHaveLength(40);
  });

  test('the app client: public (no secret), code grant only, openid email profile, redirects to the distribution', () => {
    const [, client] = only(synthesized.resources, 'AWS::Cognito::UserPoolClient');
    const distributionId = only(synthesized.resources, 'AWS::CloudFront::Distribution')[0];
    const at = (suffix: string) => ({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, suffix]] });
    expect(client.Properties).toMatchObject({
      UserPoolId: { Ref: poolId },
      GenerateSecret: false,
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthScopes: ['openid', 'email', 'profile'],
      CallbackURLs: [at('/'), at(INVITATION_PATH)],
      LogoutURLs: [at(CONSOLE_SIGNED_OUT_PATH)],
      SupportedIdentityProviders: ['COGNITO'],
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
      AccessTokenValidity: 60,
      IdTokenValidity: 60,
      RefreshTokenValidity: 30 * 24 * 60,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
    });
    expect(client.Properties.AllowedOAuthFlows).not.toContain('implicit');
    expect(client.Properties.AllowedOAuthFlows).not.toContain('client_credentials');
    expect(CONSOLE_CALLBACK_PATHS).toEqual(['/', INVITATION_PATH]);
    expect(CONSOLE_SIGNED_OUT_PATH).toBe('/');
  });

  test('every API operation function: OIDC_ISSUER built from the pool, OIDC_CLIENT_ID the app client', () => {
    const environments = operationEnvironments(synthesized);
    expect(environments).toHaveLength(operationList.length);
    for (const environment of environments) {
      expect(joined(environment.OIDC_ISSUER)).toEqual(issuerParts());
      expect(environment.OIDC_CLIENT_ID).toEqual({ Ref: clientId });
    }
  });

  test('/config.json: the same issuer and client id, the hosted logout, resolved at deploy time; no-cache, invalidated, never rewritten', () => {
    const { config, markers, deployment } = consoleConfig(synthesized);
    expect(Object.keys(config)).toEqual(['oidc']);
    expect(config.oidc.scopes).toBe('openid email profile');
    expect(withMarkers(config.oidc.issuer, markers)).toEqual(issuerParts());
    expect(withMarkers(config.oidc.clientId, markers)).toEqual([{ Ref: clientId }]);
    // Cognito advertises no end_session_endpoint: the console signs out through the hosted
    // domain's logout, back to the logout URL registered on the app client; no token in it.
    const domainId = only(synthesized.resources, 'AWS::Cognito::UserPoolDomain')[0];
    const [, client] = only(synthesized.resources, 'AWS::Cognito::UserPoolClient');
    const logoutUri = joined(client.Properties.LogoutURLs[0]);
    expect(withMarkers(config.oidc.logoutUrl, markers)).toEqual([
      'https://',
      { Ref: domainId },
      '.auth.',
      { Ref: 'AWS::Region' },
      `.amazoncognito.com/logout?client_id=`,
      { Ref: clientId },
      `&logout_uri=${logoutUri[0]}`,
      ...logoutUri.slice(1),
    ]);
    expect(Object.keys(config.oidc).sort()).toEqual(['clientId', 'issuer', 'logoutUrl', 'scopes']);
    // Markers hold JSON-escaped values (a value is always a JSON string).
    expect(deployment.SourceMarkersConfig.at(-1)).toEqual({ jsonEscape: true });
    expect(deployment.SystemMetadata['cache-control']).toBe('no-cache');
    expect(deployment.DistributionPaths).toEqual(['/index.html', '/config.json']);
    expect(deployment.Exclude).toEqual(['assets/*']);
    const rewrite = (uri: string) => runInNewContext(`${spaRewriteCode()}\nhandler({ request: { uri: ${JSON.stringify(uri)} } }).uri`);
    expect(rewrite('/config.json')).toBe('/config.json');
  });

  test("the console's CSP lets it reach the issuer's discovery and the hosted domain's token endpoint", () => {
    const [, policy] = only(
      Object.fromEntries(
        ofType(synthesized.resources, 'AWS::CloudFront::ResponseHeadersPolicy').filter(
          ([, resource]) => resource.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy,
        ),
      ),
      'AWS::CloudFront::ResponseHeadersPolicy',
    );
    const csp = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;
    const domainId = only(synthesized.resources, 'AWS::Cognito::UserPoolDomain')[0];
    const text = joined(csp)
      .map((part) => (typeof part === 'string' ? part : `{${JSON.stringify(part)}}`))
      .join('');
    expect(text).toContain(
      `connect-src 'self' https://cognito-idp.{{"Ref":"AWS::Region"}}.{{"Ref":"AWS::URLSuffix"}} https://{{"Ref":"${domainId}"}}.auth.{{"Ref":"AWS::Region"}}.amazoncognito.com;`,
    );
    // Nothing else of the policy changes.
    expect(text.replace(/connect-src [^;]*;/, "connect-src 'self';")).toBe(CONTENT_SECURITY_POLICY);
  });

  test('outputs: the user pool, the issuer, the hosted sign-in pages and the client id', () => {
    const { outputs } = synthesized;
    expect(outputs.UserPoolId.Value).toEqual({ Ref: poolId });
    expect(joined(outputs.SignInIssuer.Value)).toEqual(issuerParts());
    expect(outputs.SignInClientId.Value).toEqual({ Ref: clientId });
    expect(joined(outputs.SignInUrl.Value)).toEqual([
      'https://',
      { Ref: only(synthesized.resources, 'AWS::Cognito::UserPoolDomain')[0] },
      '.auth.',
      { Ref: 'AWS::Region' },
      '.amazoncognito.com',
    ]);
  });

  test('cdk-nag: no finding left, errors or warnings', () => {
    const report = new AwsSolutionsChecks().validateScope(synthesized.app);
    expect(report.violations.map((violation) => `${violation.severity} ${violation.ruleName}`)).toEqual([]);
    const written = JSON.parse(fs.readFileSync(path.join(synthesized.dir, 'validation-report.json'), 'utf8'));
    expect(written.pluginReports).toEqual([]);
  });
});

describe('context variants', () => {
  test("the operator's own provider (-c oidcIssuer -c oidcClientId): no user pool, its values everywhere", () => {
    const issuer = 'https://login.example.com/tenant-1/v2.0';
    const own = synth({ oidcIssuer: issuer, oidcClientId: 'client-1', oidcConnectSources: 'https://token.example.net' });
    expect(ofType(own.resources, 'AWS::Cognito::UserPool')).toEqual([]);
    expect(ofType(own.resources, 'AWS::Cognito::UserPoolClient')).toEqual([]);
    for (const environment of operationEnvironments(own)) expect(environment).toMatchObject({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'client-1' });
    expect(consoleConfig(own).config).toEqual({ oidc: { issuer, clientId: 'client-1', scopes: 'openid email profile' } });
    expect(own.outputs.UserPoolId).toBeUndefined();
    const csp = JSON.stringify(ofType(own.resources, 'AWS::CloudFront::ResponseHeadersPolicy'));
    expect(csp).toContain("connect-src 'self' https://login.example.com https://token.example.net;");
    expect(() => synth({ oidcIssuer: issuer, oidcClientId: 'c', oidcConnectSources: 'http://token.example.net' })).toThrow(/oidcConnectSources/);
  });

  test('-c cognito=false without a provider: sign-in not configured, config.json says so', () => {
    const none = synth({ cognito: 'false' });
    expect(ofType(none.resources, 'AWS::Cognito::UserPool')).toEqual([]);
    for (const environment of operationEnvironments(none)) {
      expect(environment.OIDC_ISSUER).toBeUndefined();
      expect(environment.OIDC_CLIENT_ID).toBeUndefined();
    }
    expect(consoleConfig(none).config).toEqual({ oidc: null });
    expect(JSON.stringify(ofType(none.resources, 'AWS::CloudFront::ResponseHeadersPolicy'))).toContain(JSON.stringify(CONTENT_SECURITY_POLICY));
  });

  test('without the console (-c console=false): no user pool either (nothing to sign in to)', () => {
    const bare = synth({ console: 'false' });
    expect(ofType(bare.resources, 'AWS::Cognito::UserPool')).toEqual([]);
    for (const environment of operationEnvironments(bare)) expect(environment.OIDC_ISSUER).toBeUndefined();
  });
});
