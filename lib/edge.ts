import { Duration, Fn, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  AllowedMethods,
  CachedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  CacheCookieBehavior,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { HSTS_MAX_AGE_SECONDS } from '../console/serving';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER, VISITOR_KEY_HEADER } from '../functions/api/client-address';
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, CORS_MAX_AGE_SECONDS } from '../functions/api/cors';
import { operationPath, RESOURCE_ALIASES, type OperationDeclaration } from '../functions/api/operation';
import { ANONYMOUS_EXTRA_PATHS, anonymousWriteOperations, type AnonymousRateLimit } from '../functions/api/rate-limits';
import { acknowledgeNag } from './nag';

// VIEWER_ADDRESS_HEADER: set by the edge function on every request from the visitor's address,
// replacing whatever a client sends under this name. ORIGIN_VERIFY_HEADER: added by CloudFront to
// every request it sends to the API; the web ACL refuses requests without it. Declared where the
// API reads them (functions/api/client-address.ts).
// VISITOR_KEY_HEADER: set by the edge function to the visitor's key (functions/api/visitor-key.ts).
export { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER, VISITOR_KEY_HEADER };
/** The path prefix of the API on the distribution: the API Gateway stage. */
export const API_PATH_PATTERN = '/v0/*';

/** How the AWS managed rule groups act: block what they match, only count it (to watch first), or not run. */
export const MANAGED_RULE_MODES = ['block', 'count', 'off'] as const;
export type ManagedRuleMode = (typeof MANAGED_RULE_MODES)[number];

/** AWS managed rule groups that fit a public JSON API: known exploit payloads, and addresses AWS's threat intelligence flags. */
export const MANAGED_RULE_GROUPS = ['AWSManagedRulesKnownBadInputsRuleSet', 'AWSManagedRulesAmazonIpReputationList'] as const;

/** Headers the functions read besides Authorization and Origin (which are part of the cache key, hence forwarded). */
export const FORWARDED_HEADERS = [
  'Content-Type',
  'User-Agent',
  'Accept-Language',
  'CloudFront-Viewer-Country',
  'CloudFront-Viewer-City',
  VIEWER_ADDRESS_HEADER,
  // Forwarded so that the web ACL on the stage sees it (and the functions could).
  VISITOR_KEY_HEADER,
];

export interface PublicEdgeProps {
  readonly restApi: RestApi;
  readonly stageName: string;
  /** Every operation (the rate limit's paths are derived from the anonymous writes among them). */
  readonly operations: readonly OperationDeclaration[];
  /** Normalized list of origins; `['*']` allows every origin (the 429 answer then carries CORS too). */
  readonly corsAllowedOrigins: readonly string[];
  readonly anonymousRateLimit: AnonymousRateLimit;
  readonly managedRules: ManagedRuleMode;
  /**
   * The distribution's default behaviour, for everything outside `/v0/*`: the console
   * (lib/console.ts: S3 with origin access control). Without it a CloudFront function
   * answers those paths 404 without reaching any origin.
   */
  readonly defaultBehavior?: BehaviorOptions;
}

/**
 * The public door: one CloudFront distribution in front of the API (and the console, as
 * its default behaviour), and the web ACL that limits each visitor's anonymous writes. docs/scaling.md
 * explains the design; in short:
 *
 * - Cache: `/v0/*` goes to the API Gateway stage with a cache policy that honours the
 *   API's Cache-Control (default TTL 0): only getAggregates GETs of public sets are kept
 *   (`public, max-age=0, s-maxage=N`: CloudFront keeps them N seconds, browsers revalidate),
 *   keyed by the full query string, Authorization and Origin.
 * - The visitor's address: a viewer-request CloudFront function writes `event.viewer.ip`
 *   (the address CloudFront's TCP connection came from, which no header can change) into
 *   VIEWER_ADDRESS_HEADER, and the visitor's key (that address, or its /64 for IPv6) into
 *   VISITOR_KEY_HEADER, replacing any values the client sent (viewerRequestCode).
 * - No way around: CloudFront adds a secret ORIGIN_VERIFY_HEADER (Secrets Manager,
 *   resolved at deploy time) to every origin request; the web ACL on the stage blocks any
 *   request without it, so calling the execute-api URL directly, with any headers, gets 403.
 * - The limit: a REGIONAL web ACL on the API stage (same region as the stack: no
 *   us-east-1 resources, no custom resources), rate-based per VISITOR_KEY_HEADER on the
 *   anonymous write paths for requests without an Authorization header, answering 429 with
 *   the API's error body; plus the AWS managed groups of MANAGED_RULE_GROUPS.
 */
export class PublicEdge extends Construct {
  readonly distribution: Distribution;
  readonly webAcl: CfnWebACL;
  readonly originVerifySecret: Secret;
  /** Base URL of the API through the distribution, ending in /v0. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: PublicEdgeProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.originVerifySecret = new Secret(this, 'OriginVerifySecret', {
      description: `Shared by the CloudFront distribution (${ORIGIN_VERIFY_HEADER} header) and the API's web ACL; requests without it are refused`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    acknowledgeNag(this.originVerifySecret, 'AwsSolutions-SMG4', 'originVerifyRotation');
    // A deploy-time dynamic reference ({{resolve:secretsmanager:...}}), never the value itself in the template.
    const originVerifyValue = this.originVerifySecret.secretValue.unsafeUnwrap();

    const apiOrigin = new HttpOrigin(Fn.join('.', [props.restApi.restApiId, 'execute-api', stack.region, stack.urlSuffix]), {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      customHeaders: { [ORIGIN_VERIFY_HEADER]: originVerifyValue },
    });

    const viewerAddress = new EdgeFunction(this, 'ViewerAddress', {
      runtime: FunctionRuntime.JS_2_0,
      comment: `Answers CORS preflights; writes the viewer address and the visitor key (IPv6: the /64) into ${VIEWER_ADDRESS_HEADER}, ${VISITOR_KEY_HEADER}`,
      code: FunctionCode.fromInline(viewerRequestCode(props.corsAllowedOrigins, props.stageName)),
    });

    const apiCache = new CachePolicy(this, 'ApiCache', {
      comment: 'API: keeps only answers with Cache-Control public (getAggregates of public sets), by query string, key, origin',
      defaultTtl: Duration.seconds(0),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.hours(1),
      queryStringBehavior: CacheQueryStringBehavior.all(),
      // Authorization: keyed answers are never served to anyone else (and CloudFront forwards it only from the cache key).
      // Origin: the CORS header of an answer depends on it when the allowed origins are a list.
      headerBehavior: CacheHeaderBehavior.allowList('Authorization', 'Origin'),
      cookieBehavior: CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const apiRequest = new OriginRequestPolicy(this, 'ApiRequest', {
      comment: 'What the API functions read: query string and these headers (the viewer address is set by the edge function)',
      queryStringBehavior: OriginRequestQueryStringBehavior.all(),
      headerBehavior: OriginRequestHeaderBehavior.allowList(...FORWARDED_HEADERS),
      cookieBehavior: OriginRequestCookieBehavior.none(),
    });
    const apiSecurityHeaders = new ResponseHeadersPolicy(this, 'ApiSecurityHeaders', {
      comment: 'API: HSTS (the API is only served over HTTPS) and nosniff on every answer, also the cached ones',
      securityHeadersBehavior: {
        strictTransportSecurity: { accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
      },
    });
    const apiBehavior: BehaviorOptions = {
      origin: apiOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachedMethods: CachedMethods.CACHE_GET_HEAD,
      cachePolicy: apiCache,
      originRequestPolicy: apiRequest,
      responseHeadersPolicy: apiSecurityHeaders,
      compress: true,
      functionAssociations: [{ function: viewerAddress, eventType: FunctionEventType.VIEWER_REQUEST }],
    };

    this.distribution = new Distribution(this, 'Distribution', {
      comment: props.defaultBehavior
        ? `${stack.stackName}: the console, and the API under ${API_PATH_PATTERN}`
        : `${stack.stackName}: the API under ${API_PATH_PATTERN} (no console)`,
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      defaultBehavior: props.defaultBehavior ?? this.notFoundBehavior(apiOrigin),
      additionalBehaviors: { [API_PATH_PATTERN]: apiBehavior },
    });
    for (const rule of ['AwsSolutions-CFR1', 'AwsSolutions-CFR2', 'AwsSolutions-CFR3', 'AwsSolutions-CFR4'] as const) {
      acknowledgeNag(this.distribution, rule, EDGE_NAG_REASONS[rule]);
    }
    this.url = `https://${this.distribution.distributionDomainName}${API_PATH_PATTERN.slice(0, -2)}`;

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `${stack.stackName}-api`,
      description: 'API stage - only requests through the CloudFront distribution, per-visitor limit on anonymous writes, AWS managed groups',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${stack.stackName}-api`),
      customResponseBodies: {
        'direct-call': {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ error: 'forbidden', message: 'Call the API through its published base URL' }),
        },
        'too-many-requests': {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ error: 'too-many-requests', message: 'Too many responses from this address; retry later' }),
        },
      },
      rules: [
        {
          name: 'RefuseDirectCalls',
          priority: 0,
          action: { block: { customResponse: { responseCode: 403, customResponseBodyKey: 'direct-call' } } },
          statement: {
            notStatement: {
              statement: {
                byteMatchStatement: {
                  fieldToMatch: { singleHeader: { Name: ORIGIN_VERIFY_HEADER } },
                  positionalConstraint: 'EXACTLY',
                  searchString: originVerifyValue,
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
          visibilityConfig: visibility('RefuseDirectCalls'),
        },
        ...(props.managedRules === 'off' ? [] : MANAGED_RULE_GROUPS).map((name, index) => ({
          name,
          priority: 1 + index,
          overrideAction: props.managedRules === 'count' ? { count: {} } : { none: {} },
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
          visibilityConfig: visibility(name),
        })),
        ...(props.anonymousRateLimit.limit === 0 ? [] : [this.rateRule(props, 1 + MANAGED_RULE_GROUPS.length)]),
      ],
    });
    new CfnWebACLAssociation(this, 'WebAclOnStage', {
      resourceArn: props.restApi.deploymentStage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }

  /** Without the console, paths outside the API are answered 404 by a CloudFront function, without reaching any origin. */
  private notFoundBehavior(apiOrigin: HttpOrigin): BehaviorOptions {
    const notFound = new EdgeFunction(this, 'NotFound', {
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Answers paths outside the API 404 (the stack has no console)',
      code: FunctionCode.fromInline(
        [
          'function handler(event) {',
          '  return {',
          '    statusCode: 404,',
          "    statusDescription: 'Not Found',",
          "    headers: { 'content-type': { value: 'application/json' }, 'cache-control': { value: 'no-store' } },",
          `    body: JSON.stringify({ error: 'not-found', message: 'No operation at ' + event.request.uri + '; the API is under ${API_PATH_PATTERN.slice(0, -2)}' }),`,
          '  };',
          '}',
        ].join('\n'),
      ),
    });
    return {
      origin: apiOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      functionAssociations: [{ function: notFound, eventType: FunctionEventType.VIEWER_REQUEST }],
    };
  }

  /** At most `limit` anonymous writes per window from one visitor (VISITOR_KEY_HEADER), answered 429. */
  private rateRule(props: PublicEdgeProps, priority: number): CfnWebACL.RuleProperty {
    const { limit, windowSeconds } = props.anonymousRateLimit;
    return {
      name: 'AnonymousWritesPerVisitor',
      priority,
      action: {
        block: {
          customResponse: {
            responseCode: 429,
            customResponseBodyKey: 'too-many-requests',
            responseHeaders: [
              { name: 'Retry-After', value: String(Math.min(windowSeconds, 60)) },
              ...(props.corsAllowedOrigins.includes('*') ? [{ name: 'Access-Control-Allow-Origin', value: '*' }] : []),
            ],
          },
        },
      },
      statement: {
        rateBasedStatement: {
          limit,
          evaluationWindowSec: windowSeconds,
          // Per visitor key, not per address: an IPv6 visitor holds a whole /64 (2^64 addresses), and
          // WAF aggregates IP and FORWARDED_IP on the full address only; it has no prefix option.
          // A single header custom key counts each distinct value of the header ("If you use a single
          // header as your custom key, then each value fully defines an aggregation instance", WAF API
          // reference, RateBasedStatementCustomKey); `2001:db8:1:2::/64` is no IP to FORWARDED_IP.
          // The header cannot be forged: this web ACL is REGIONAL, on the API stage, so it inspects
          // the request CloudFront sends to the origin, after the viewer-request function replaced
          // whatever the client wrote. (A CLOUDFRONT-scope ACL runs first at the edge, "the
          // Lambda@Edge viewer request is executed after any AWS WAF rules are applied", CloudFront
          // Developer Guide, so it would count the client's forged value.) And "web requests that are missing
          // any of the components specified in the aggregation keys are omitted from the rate-based
          // rule evaluation" (same page): every request that passed RefuseDirectCalls came through
          // CloudFront, whose function sets the header on every /v0/* request.
          aggregateKeyType: 'CUSTOM_KEYS',
          customKeys: [{ header: { name: VISITOR_KEY_HEADER, textTransformations: [{ priority: 0, type: 'NONE' }] } }],
          scopeDownStatement: {
            andStatement: {
              statements: [
                {
                  regexMatchStatement: {
                    fieldToMatch: { uriPath: {} },
                    regexString: anonymousWritePathPattern(props.stageName, props.operations),
                    textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
                  },
                },
                // CORS preflights are not writes (the local server answers them before its limiter too).
                {
                  notStatement: {
                    statement: {
                      byteMatchStatement: {
                        fieldToMatch: { method: {} },
                        positionalConstraint: 'EXACTLY',
                        searchString: 'OPTIONS',
                        textTransformations: [{ priority: 0, type: 'NONE' }],
                      },
                    },
                  },
                },
                {
                  notStatement: {
                    statement: {
                      sizeConstraintStatement: {
                        fieldToMatch: { singleHeader: { Name: 'authorization' } },
                        comparisonOperator: 'GT',
                        size: 0,
                        textTransformations: [{ priority: 0, type: 'NONE' }],
                      },
                    },
                  },
                },
              ],
            },
          },
        },
      },
      visibilityConfig: visibility('AnonymousWritesPerVisitor'),
    };
  }
}

/**
 * The viewer-request function of `/v0/*`. A CORS preflight (OPTIONS) is answered here, 204
 * with functions/api/cors.ts's `preflightHeaders` for the allowed origins, as the local
 * server answers it: the API has no OPTIONS method per resource (each would be a resource of
 * the template; docs/architecture.md), and a preflight costs no origin request. Any other
 * request goes on with the viewer's address in VIEWER_ADDRESS_HEADER, its visitor key in
 * VISITOR_KEY_HEADER (both replacing what the client sent), and the client's
 * ORIGIN_VERIFY_HEADER dropped. The key is functions/api/visitor-key.ts's, written again here
 * because CloudFront Functions cannot load libraries (no ipaddr.js): IPv4 as is; IPv6 by its
 * /64 in RFC 5952 text (the network's first four groups, trailing zero groups folded into
 * `::`); IPv4-mapped IPv6 (`::ffff:a.b.c.d`), and the deprecated IPv4-compatible `::a.b.c.d`
 * (which ipaddr.js reads as mapped), as the IPv4 address. `event.viewer.ip` is always a valid
 * address; anything else comes back as given. test/infra/edge.test.ts runs it against
 * visitorKey and preflightHeaders.
 */
export function viewerRequestCode(corsAllowedOrigins: readonly string[], stageName: string): string {
  const origins = corsAllowedOrigins.includes('*') ? ['*'] : [...corsAllowedOrigins];
  // The widgets' alias paths (`/v0/feelbacks/create`) become their operation's own path here,
  // before the cache and the API, so API Gateway holds one resource and method per operation
  // rather than two (docs/architecture.md, "Room under CloudFormation's limit").
  const aliases = Object.fromEntries(Object.entries(RESOURCE_ALIASES).map(([resource, alias]) => [`/${stageName}/${alias}/`, `/${stageName}/${resource}/`]));
  return `var ALLOWED_ORIGINS = ${JSON.stringify(origins)};
var ALIAS_PREFIXES = ${JSON.stringify(aliases)};
function preflight(request) {
  var origin = request.headers.origin ? request.headers.origin.value : undefined;
  var headers = {
    'access-control-allow-methods': { value: '${CORS_ALLOWED_METHODS.join(',')}' },
    'access-control-allow-headers': { value: '${CORS_ALLOWED_HEADERS.join(',')}' },
    'access-control-max-age': { value: '${CORS_MAX_AGE_SECONDS}' },
  };
  if (ALLOWED_ORIGINS[0] === '*') {
    headers['access-control-allow-origin'] = { value: '*' };
  } else {
    headers.vary = { value: 'Origin' };
    if (origin !== undefined && ALLOWED_ORIGINS.indexOf(origin) >= 0) headers['access-control-allow-origin'] = { value: origin };
  }
  return { statusCode: 204, statusDescription: 'No Content', headers: headers };
}
function visitorKey(ip) {
  if (ip.indexOf(':') < 0) return ip;
  var text = ip.split('%')[0];
  if (/^::\\d+\\.\\d+\\.\\d+\\.\\d+$/.test(text)) return text.slice(2);
  text = text.replace(/(\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)$/, function (all, a, b, c, d) {
    return (a * 256 + +b).toString(16) + ':' + (c * 256 + +d).toString(16);
  });
  var halves = text.split('::');
  var head = halves[0] ? halves[0].split(':') : [];
  var tail = halves[1] ? halves[1].split(':') : [];
  while (halves.length === 2 && head.length + tail.length < 8) head.push('0');
  var groups = head.concat(tail).map(function (group) { return parseInt(group, 16); });
  if (halves.length > 2 || groups.length !== 8 || groups.some(isNaN)) return ip;
  if (groups.slice(0, 6).join() === '0,0,0,0,0,65535') return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  var prefix = groups.slice(0, 4);
  while (prefix.length > 0 && prefix[prefix.length - 1] === 0) prefix.pop();
  return prefix.map(function (group) { return group.toString(16); }).join(':') + '::/64';
}
function handler(event) {
  var request = event.request;
  if (request.method === 'OPTIONS') return preflight(request);
  for (var alias in ALIAS_PREFIXES) {
    if (request.uri.indexOf(alias) === 0) request.uri = ALIAS_PREFIXES[alias] + request.uri.slice(alias.length);
  }
  request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  request.headers['${VISITOR_KEY_HEADER}'] = { value: visitorKey(event.viewer.ip) };
  delete request.headers['${ORIGIN_VERIFY_HEADER}'];
  return request;
}`;
}

/**
 * `^/v0/(?:responses/create|...)/?$`, derived from the registry: the operations' own paths,
 * which the web ACL sees also for the widgets' alias paths (the viewer-request function rewrites those).
 */
export function anonymousWritePathPattern(stageName: string, operations: readonly OperationDeclaration[]): string {
  const paths = [...anonymousWriteOperations(operations).map(operationPath), ...ANONYMOUS_EXTRA_PATHS].sort();
  return `^/${stageName}/(?:${paths.join('|')})/?$`;
}

function visibility(metricName: string): CfnWebACL.VisibilityConfigProperty {
  return { cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true };
}

const EDGE_NAG_REASONS = {
  'AwsSolutions-CFR1': 'edgeGeo',
  'AwsSolutions-CFR2': 'edgeWaf',
  'AwsSolutions-CFR3': 'edgeLogging',
  'AwsSolutions-CFR4': 'edgeTls',
} as const;
