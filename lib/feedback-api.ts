import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat, AuthorizationType, LambdaIntegration, LogGroupLogDestination, MethodLoggingLevel, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { operationPath, type OperationDeclaration } from '../functions/api/operation';
import { handlerModule } from '../functions/api/registry';
import { openApiJson } from '../functions/api/openapi';
import { swaggerUiDirectory } from '../functions/reference-page/local';
import { DOCS_FILES } from '../functions/reference-page/pages';
import { ACCESS_LOG_FIELDS } from './access-log';
import { addProxyRoute, resourceAt } from './api-routes';
import { acknowledgeNag } from './nag';
import { mailSwitch, type MailSender } from './mail';
import { DOCS_ENTRY } from './paths';
import { ServiceFunction } from './service-function';
import { OperationFunctions, operationGroups } from './operation-functions';

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
  /** The console's base URL, where invitation links point (CONSOLE_URL); unset, members/invite refuses to make links. */
  readonly consoleUrl?: string;
  /**
   * The Lambda entry of each operation. @default its handler module (functions/handlers/<resource>/<name>.ts);
   * the stack's headroom test points generated operations at an existing one.
   */
  readonly handlerEntry?: (operation: OperationDeclaration) => string;
  /** Whether and from whom this deployment mails: every function is told (lib/mail.ts `mailSwitch`). */
  readonly mailSender?: MailSender;
}

/** The docs routes, under the stage (/v0): the document, the reference page and its files. */
export const DOCS_ROUTES = ['openapi.json', 'docs', 'docs/{file}'] as const;

/**
 * The REST API: one Lambda function per registered operation (proxy integration), routed
 * at /<resource>/<name> (POST, and GET when read-only; the alias paths are rewritten to these at the edge).
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
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
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
      ...(props.consoleUrl ? { CONSOLE_URL: props.consoleUrl } : {}),
      ...mailSwitch(props.mailSender),
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

    // The operations' functions, log groups and invoke permissions (three resources each) live in
    // nested stacks, a group per resource, so that the parent template grows by an API Gateway
    // resource and one method per route only (docs/architecture.md, "Room under CloudFormation's limit").
    const functions = new Map<string, ServiceFunction>();
    for (const [groupId, operations] of operationGroups(props.operations)) {
      const group = new OperationFunctions(this, groupId, {
        operations,
        table: props.table,
        cursorSecret: this.cursorSecret,
        invokedBy: this.restApi,
        environment,
        logRetention: props.logRetention,
        handlerEntry: props.handlerEntry ?? handlerModule,
      });
      for (const operation of operations) {
        const fn = group.functions.get(operationPath(operation))!;
        functions.set(operationPath(operation), fn);
        // Its own path only: the distribution's viewer-request function rewrites the widgets'
        // alias paths (`feelbacks/create`) to it before they reach the API (lib/edge.ts).
        addProxyRoute(this.restApi.root, operationPath(operation), fn);
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
      resourceAt(this.restApi.root, path).addMethod('ANY', integration, { authorizationType: AuthorizationType.NONE });
    }
    return docs;
  }
}
