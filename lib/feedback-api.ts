import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  AuthorizationType,
  Cors,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RestApi,
  type IResource,
} from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, CORS_MAX_AGE_SECONDS } from '../functions/api/cors';
import { operationPath, type OperationDeclaration } from '../functions/api/operation';
import { operationMethods, operationRoutes } from '../functions/api/routes';
import { handlerModule } from '../functions/api/registry';
import { openApiJson } from '../functions/api/openapi';
import { swaggerUiDirectory } from '../functions/reference-page/local';
import { DOCS_FILES } from '../functions/reference-page/pages';
import { acknowledgeNag } from './nag';
import { DOCS_ENTRY } from './paths';
import { ServiceFunction } from './service-function';
import { grantKeyUsage, grantTableAccess, operationAccess } from './table-access';

export { operationMethods, operationRoutes };

/** The version segment of the base path: the base URL ends in /v0. */
export const API_STAGE_NAME = 'v0';

export interface ApiThrottling {
  /** Steady-state requests per second over the whole stage. */
  readonly rateLimit: number;
  readonly burstLimit: number;
}

export interface FeedbackApiProps {
  readonly operations: readonly OperationDeclaration[];
  readonly table: ITable;
  /** Normalized list of origins; `['*']` allows every origin. */
  readonly corsAllowedOrigins: readonly string[];
  readonly throttling: ApiThrottling;
  readonly logRetention: RetentionDays;
  readonly serviceName: string;
  /** People's sign-in: OIDC_ISSUER and OIDC_CLIENT_ID of every operation function; unset, Bearer tokens answer 401. */
  readonly oidc?: { readonly issuer: string; readonly clientId: string };
}

/** The docs routes, under the stage (/v0): the document, the reference page and its files. */
export const DOCS_ROUTES = ['openapi.json', 'docs', 'docs/{file}'] as const;

/** `responses/getAggregates` -> `ResponsesGetAggregates` (construct ids cannot contain "/"). */
export function operationConstructId(operation: Pick<OperationDeclaration, 'resource' | 'name'>): string {
  return operationPath(operation)
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/**
 * The REST API: one Lambda function per registered operation (proxy integration), routed
 * at POST /<resource>/<name> (+ GET when read-only, + the resource's alias path).
 */
export class FeedbackApi extends Construct {
  readonly restApi: RestApi;
  /** Base URL without a trailing slash, ending in /v0. */
  readonly url: string;
  /** Operation path (`projects/get`) -> its function. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  /** Serves GET /openapi.json and the /docs reference page. */
  readonly docsFunction: ServiceFunction;
  /** The secret that seals paging cursors; readable by the functions of the lists that page by cursor. */
  readonly cursorSecret: Secret;

  constructor(scope: Construct, id: string, props: FeedbackApiProps) {
    super(scope, id);
    const allOrigins = props.corsAllowedOrigins.includes('*');

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.restApi = new RestApi(this, 'Api', {
      restApiName: `${Stack.of(this).stackName}-api`,
      description: 'Feedback collection API (one Lambda function per operation)',
      // The account-level role that lets API Gateway write access/execution logs. Kept on
      // stack deletion: it is an account setting that other APIs may rely on.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: API_STAGE_NAME,
        throttlingRateLimit: props.throttling.rateLimit,
        throttlingBurstLimit: props.throttling.burstLimit,
        metricsEnabled: true,
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
      },
      // Preflight answered by API Gateway on every resource; the handlers add the CORS
      // headers of the actual responses from the same CORS_ALLOWED_ORIGINS.
      defaultCorsPreflightOptions: {
        allowOrigins: allOrigins ? Cors.ALL_ORIGINS : [...props.corsAllowedOrigins],
        allowHeaders: [...CORS_ALLOWED_HEADERS],
        allowMethods: [...CORS_ALLOWED_METHODS],
        maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
      },
    });
    const stack = Stack.of(this);
    // RestApi.url ends in "/v0/"; the documented base URL has no trailing slash.
    this.url = `https://${this.restApi.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}/${API_STAGE_NAME}`;

    const environment = {
      TABLE_NAME: props.table.tableName,
      CORS_ALLOWED_ORIGINS: props.corsAllowedOrigins.join(','),
      POWERTOOLS_SERVICE_NAME: props.serviceName,
      ...(props.oidc ? { OIDC_ISSUER: props.oidc.issuer, OIDC_CLIENT_ID: props.oidc.clientId } : {}),
    };

    // Generated by CloudFormation at the first deployment, read once per container by the
    // functions that seal or open paging cursors (functions/secrets/keys.ts). Replacing
    // its value only invalidates the cursors handed out before.
    this.cursorSecret = new Secret(this, 'CursorSecret', {
      description: 'Seals the paging cursors of the feedback API (AES-256-GCM key material)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledgeNag(this.cursorSecret, 'AwsSolutions-SMG4', 'cursorSecretRotation');

    const functionsScope = new Construct(this, 'Operations');
    const functions = new Map<string, ServiceFunction>();
    // One role per access profile instead of one per function: the permissions are the
    // profile's either way, and a role and its policy per function would take the stack past
    // CloudFormation's 500 resources as operations are added.
    const roles = new Map<string, Role>();
    const roleFor = (operation: OperationDeclaration): Role => {
      const access = operationAccess(operation);
      const profile = `${access}${operation.pagesByCursor ? 'Cursors' : ''}${operation.opensWebhookSecrets ? 'WebhookSecrets' : ''}`;
      let role = roles.get(profile);
      if (!role) {
        role = new Role(functionsScope, `Role${profile[0].toUpperCase()}${profile.slice(1)}`, {
          assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
          description: `Execution role of the API's operations with ${access} table access${operation.pagesByCursor ? ', paging cursors' : ''}${operation.opensWebhookSecrets ? ', webhook signing secrets' : ''}`,
        });
        grantTableAccess(role, props.table, access);
        // Every function authenticates keys, and authentication refreshes lastUsedAt.
        if (access === 'readOnly') grantKeyUsage(role, props.table);
        if (operation.pagesByCursor) this.cursorSecret.grantRead(role);
        roles.set(profile, role);
      }
      return role;
    };
    for (const operation of props.operations) {
      const path = operationPath(operation);
      const fn = new ServiceFunction(functionsScope, operationConstructId(operation), {
        role: roleFor(operation),
        entry: handlerModule(operation),
        description: `${path}: ${operation.summary}`,
        environment: operation.pagesByCursor ? { ...environment, CURSOR_SECRET_ARN: this.cursorSecret.secretArn } : environment,
        logRetention: props.logRetention,
        ...(operation.timeoutSeconds ? { timeout: Duration.seconds(operation.timeoutSeconds) } : {}),
      });
      functions.set(path, fn);

      // One API-scoped invoke permission per function instead of one per method and path.
      const integration = new LambdaIntegration(fn.function, { scopePermissionToMethod: false });
      for (const route of operationRoutes(operation)) {
        const resource = this.resourceAt(route);
        for (const method of operationMethods(operation)) {
          resource.addMethod(method, integration, { authorizationType: AuthorizationType.NONE });
        }
      }
    }
    this.functions = functions;
    this.docsFunction = this.addDocs(props, environment);

    acknowledgeNag(this.restApi, 'AwsSolutions-APIG4', 'publicApi');
    acknowledgeNag(this.restApi, 'AwsSolutions-COG4', 'publicApiNoCognito');
    acknowledgeNag(this.restApi, 'AwsSolutions-APIG2', 'requestValidation');
    acknowledgeNag(
      this.restApi,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'apiGatewayLogsRole',
    );
  }

  /**
   * GET /openapi.json, /docs and /docs/{file}: one small function whose bundle holds the
   * OpenAPI document, written now (at synth) from the registry with the same code the
   * local server runs, and Swagger UI's files copied from swagger-ui-dist: the same bytes
   * locally and on AWS, nothing loaded from a CDN. ANY routes, so that other methods get
   * the API's method-not-allowed answer rather than API Gateway's own.
   */
  private addDocs(props: FeedbackApiProps, environment: Record<string, string>): ServiceFunction {
    const documentDirectory = mkdtempSync(join(tmpdir(), 'feedback-openapi-'));
    writeFileSync(join(documentDirectory, DOCS_FILES.openapi), openApiJson(props.operations));
    const swaggerUi = swaggerUiDirectory();
    const copies = [join(documentDirectory, DOCS_FILES.openapi), join(swaggerUi, DOCS_FILES.script), join(swaggerUi, DOCS_FILES.style)];
    const docs = new ServiceFunction(this, 'Docs', {
      entry: DOCS_ENTRY,
      description: 'GET /openapi.json (the OpenAPI document) and the /docs reference page (Swagger UI)',
      environment: { CORS_ALLOWED_ORIGINS: environment.CORS_ALLOWED_ORIGINS, POWERTOOLS_SERVICE_NAME: environment.POWERTOOLS_SERVICE_NAME },
      logRetention: props.logRetention,
      commandHooks: {
        beforeBundling: () => [],
        beforeInstall: () => [],
        afterBundling: (_inputDir: string, outputDir: string) => copies.map((file) => `cp "${file}" "${outputDir}/"`),
      },
    });
    const integration = new LambdaIntegration(docs.function, { scopePermissionToMethod: false });
    for (const path of DOCS_ROUTES) {
      this.resourceAt(path).addMethod('ANY', integration, { authorizationType: AuthorizationType.NONE });
    }
    return docs;
  }

  private resourceAt(path: string): IResource {
    let resource: IResource = this.restApi.root;
    for (const part of path.split('/')) {
      resource = resource.getResource(part) ?? resource.addResource(part);
    }
    return resource;
  }
}
