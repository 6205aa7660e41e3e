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
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CORS_ALLOWED_HEADERS, CORS_ALLOWED_METHODS, CORS_MAX_AGE_SECONDS } from '../functions/api/cors';
import { operationPath, RESOURCE_ALIASES, type OperationDeclaration } from '../functions/api/operation';
import { handlerModule } from '../functions/api/registry';
import { acknowledgeNag } from './nag';
import { ServiceFunction } from './service-function';
import { grantTableAccess, operationAccess } from './table-access';

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
}

/** HTTP methods serving an operation: POST always, GET for read-only operations (`?$p=`). */
export function operationMethods(operation: Pick<OperationDeclaration, 'readOnly'>): readonly ('POST' | 'GET')[] {
  return operation.readOnly ? ['POST', 'GET'] : ['POST'];
}

/** Every path serving an operation, without a leading slash: `<resource>/<name>` and its alias. */
export function operationRoutes(operation: Pick<OperationDeclaration, 'resource' | 'name'>): string[] {
  const alias = RESOURCE_ALIASES[operation.resource];
  return [operationPath(operation), ...(alias ? [`${alias}/${operation.name}`] : [])];
}

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
    };

    const functionsScope = new Construct(this, 'Operations');
    const functions = new Map<string, ServiceFunction>();
    for (const operation of props.operations) {
      const path = operationPath(operation);
      const fn = new ServiceFunction(functionsScope, operationConstructId(operation), {
        entry: handlerModule(operation),
        description: `${path}: ${operation.summary}`,
        environment,
        logRetention: props.logRetention,
        ...(operation.timeoutSeconds ? { timeout: Duration.seconds(operation.timeoutSeconds) } : {}),
      });
      grantTableAccess(fn.role, props.table, operationAccess(operation));
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

    acknowledgeNag(this.restApi, 'AwsSolutions-APIG4', 'publicApi');
    acknowledgeNag(this.restApi, 'AwsSolutions-COG4', 'publicApiNoCognito');
    acknowledgeNag(this.restApi, 'AwsSolutions-APIG2', 'requestValidation');
    acknowledgeNag(this.restApi, 'AwsSolutions-APIG3', 'waf');
    acknowledgeNag(
      this.restApi,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'apiGatewayLogsRole',
    );
  }

  private resourceAt(path: string): IResource {
    let resource: IResource = this.restApi.root;
    for (const part of path.split('/')) {
      resource = resource.getResource(part) ?? resource.addResource(part);
    }
    return resource;
  }
}
