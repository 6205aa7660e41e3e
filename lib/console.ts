import { Duration, Stack, Token } from 'aws-cdk-lib';
import {
  type BehaviorOptions,
  CachePolicy,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  type IDistribution,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConsoleSync } from '../console/build';
import { CONTENT_SECURITY_POLICY, HSTS_MAX_AGE_SECONDS, IMMUTABLE_CACHE, NO_CACHE, STATIC_FILE_TYPES } from '../console/serving';
import { acknowledgeNag } from './nag';
import { dependOnRolePoliciesOnly } from './service-function';
import type { ConsoleSignInConfig } from './sign-in';

export interface FeedbackConsoleProps {
  /**
   * A built console (console/build.ts output). Default: built now, at synth time, with
   * esbuild (offline, no Docker) into a temporary folder.
   */
  readonly consoleDir?: string;
  /**
   * People's sign-in, served as GET /config.json (the console reads it at start; values may be
   * deploy-time tokens). @default `{ "oidc": null }`: sign-in not configured
   */
  readonly signIn?: ConsoleSignInConfig;
  /**
   * Origins the console calls besides its own (the CSP's connect-src): the sign-in provider's
   * discovery and token endpoints. @default none
   */
  readonly connectSources?: readonly string[];
}

/** The file the console reads its sign-in settings from, at the root of its origin. */
export const CONSOLE_CONFIG_FILE = 'config.json';

/** The console's CSP, with `connectSources` added to connect-src (the sign-in provider's endpoints). */
export function consoleContentSecurityPolicy(connectSources: readonly string[] = []): string {
  if (connectSources.length === 0) return CONTENT_SECURITY_POLICY;
  const directive = "connect-src 'self'";
  if (!CONTENT_SECURITY_POLICY.includes(directive)) throw new Error(`the console's CSP has no "${directive}" to extend`);
  return CONTENT_SECURITY_POLICY.replace(directive, [directive, ...connectSources].join(' '));
}

/**
 * The console on AWS: its static files in a private S3 bucket, read by CloudFront through
 * origin access control. It has no distribution of its own: `behavior` is the default
 * behaviour of the public door's distribution (lib/edge.ts), which serves the API under
 * `/v0/*`, so the console is same-origin with the API. The behaviour carries the console's
 * response headers policy (CSP without inline scripts, HSTS, frame-ancestors/X-Frame-Options,
 * nosniff) and rewrites client routes to /index.html with a CloudFront Function (not with
 * error responses, which would also rewrite the API's 403 and 404 answers).
 *
 * The distribution needs `behavior` when it is created and the deployments need the
 * distribution (to invalidate index.html), hence two steps: construct, then `deployTo`.
 */
export class FeedbackConsole extends Construct {
  readonly bucket: Bucket;
  readonly responseHeadersPolicy: ResponseHeadersPolicy;
  /** The distribution's default behaviour: everything outside the API's path. */
  readonly behavior: BehaviorOptions;
  private readonly consoleDir: string;
  private readonly signIn: ConsoleSignInConfig;

  constructor(scope: Construct, id: string, props: FeedbackConsoleProps = {}) {
    super(scope, id);
    this.signIn = props.signIn ?? { oidc: null };
    this.consoleDir = props.consoleDir ?? buildConsoleSync({ outdir: join(mkdtempSync(join(tmpdir(), 'feedback-console-')), 'dist') }).outdir;

    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: false,
    });
    acknowledgeNag(this.bucket, 'AwsSolutions-S1', 'consoleBucketLogs');

    // On the console's files only: the API's answers keep their own headers (the API
    // reference page under /v0 has a CSP of its own, which this one would replace).
    this.responseHeadersPolicy = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Feedback console: CSP without inline scripts, HSTS, no framing, nosniff',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: consoleContentSecurityPolicy(props.connectSources), override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      },
    });

    const spaRewrite = new CloudFrontFunction(this, 'SpaRewrite', {
      comment: 'Client routes of the console answer /index.html',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(spaRewriteCode()),
    });

    this.behavior = {
      origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: this.responseHeadersPolicy,
      compress: true,
      functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
    };
  }

  /** Copies the built console and config.json into the bucket, and invalidates index.html and config.json on `distribution` (whose default behaviour is `behavior`). */
  deployTo(distribution: IDistribution): void {
    // Hashed assets first, cached for a year; then index.html and the other files, always
    // revalidated. Nothing is pruned, so a browser still holding an older index.html finds its assets.
    // config.json (the sign-in settings, written here with the deploy-time ids of the user pool
    // and client) goes with the pages, last so that it wins over any file of that name in the build:
    // no-cache, and invalidated with index.html, so a changed sign-in reaches browsers at once.
    const assets = new BucketDeployment(this, 'DeployAssets', {
      sources: [Source.asset(this.consoleDir)],
      destinationBucket: this.bucket,
      include: ['assets/*'],
      exclude: ['*'],
      prune: false,
      cacheControl: [CacheControl.fromString(IMMUTABLE_CACHE)],
      memoryLimit: 512,
    });
    const pages = new BucketDeployment(this, 'DeployPages', {
      sources: [Source.asset(this.consoleDir), Source.jsonData(CONSOLE_CONFIG_FILE, this.signIn)],
      destinationBucket: this.bucket,
      exclude: ['assets/*'],
      prune: false,
      cacheControl: [CacheControl.fromString(NO_CACHE)],
      distribution,
      distributionPaths: ['/index.html', `/${CONSOLE_CONFIG_FILE}`],
      memoryLimit: 512,
    });
    pages.node.addDependency(assets);
    // The deployments share one singleton function (created at the stack's root) and its role:
    // its findings are acknowledged one by one on that role.
    const stack = Stack.of(this);
    const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
    const bucketId = stack.getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    const role = pages.handlerRole;
    dependOnRolePoliciesOnly(role);
    if (role.node.scope) acknowledgeNag(role.node.scope, 'AwsSolutions-L1', 'bucketDeploymentRuntime');
    acknowledgeNag(role, 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', 'bucketDeploymentRole');
    for (const finding of [
      'Action::s3:GetObject*',
      'Action::s3:GetBucket*',
      'Action::s3:List*',
      'Action::s3:DeleteObject*',
      'Action::s3:Abort*',
      `Resource::<${bucketId}.Arn>/*`,
      `Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-${region}/*`,
      'Resource::*',
    ]) {
      acknowledgeNag(role, `AwsSolutions-IAM5[${finding}]`, 'bucketDeploymentRole');
    }
  }
}

/**
 * CloudFront Function (cloudfront-js-2.0): a path that names no static file (see
 * console/serving.ts isStaticFilePath) is a client route and gets /index.html.
 */
export function spaRewriteCode(): string {
  const extensions = JSON.stringify(Object.keys(STATIC_FILE_TYPES));
  return `var STATIC = ${extensions};
function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  var dot = last.lastIndexOf('.');
  var extension = dot >= 0 ? last.substring(dot).toLowerCase() : '';
  if (uri.indexOf('/assets/') === 0 || STATIC.indexOf(extension) >= 0) return request;
  request.uri = '/index.html';
  return request;
}
`;
}
