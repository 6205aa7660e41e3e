import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BUNDLE_EXTERNALS, BUNDLE_TARGET } from './bundling';
import { type IRole, Policy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct, Dependable } from 'constructs';
import { acknowledgeNag } from './nag';
import { REPO_ROOT, repoPath } from './paths';

export interface ServiceFunctionProps {
  /** Source file relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
  readonly environment: Record<string, string>;
  readonly logRetention: RetentionDays;
  /** @default 256 */
  readonly memorySize?: number;
  /** @default 10 seconds */
  readonly timeout?: Duration;
  /** Shell commands around the local esbuild bundling (e.g. copying files into the bundle). */
  readonly commandHooks?: ICommandHooks;
  /**
   * A role shared with functions that need exactly the same permissions (the API's operations
   * of one access profile: lib/feedback-api.ts); each function adds its own log group to it.
   * @default a role of its own
   */
  readonly role?: Role;
  /** @default none (the account's unreserved pool) */
  readonly reservedConcurrentExecutions?: number;
}

export const FUNCTION_RUNTIME = Runtime.NODEJS_22_X;

/**
 * A Lambda function of the service: TypeScript bundled by esbuild (minified, with source
 * maps), Node 22 on arm64, its own log group with a retention, and a role that can write to
 * that log group and nothing else until permissions are granted explicitly: its own, or
 * one shared by functions of the same permissions.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // Instead of the AWSLambdaBasicExecutionRole managed policy (logs:* on every log
    // group), the role may only write streams of its functions' own log groups.
    this.role =
      props.role ??
      new Role(this, 'Role', {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: `Execution role of ${props.description}`.slice(0, 1000),
      });
    this.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    );

    this.function = new NodejsFunction(this, 'Function', {
      entry: repoPath(props.entry),
      handler: 'handler',
      description: props.description.slice(0, 256),
      runtime: FUNCTION_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(10),
      role: this.role,
      logGroup: this.logGroup,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      projectRoot: REPO_ROOT,
      depsLockFilePath: repoPath('package-lock.json'),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        ...props.environment,
      },
      bundling: {
        target: BUNDLE_TARGET,
        format: OutputFormat.CJS,
        minify: true,
        sourceMap: true,
        // Stack traces map to file:line without shipping the sources in the bundle.
        sourcesContent: false,
        externalModules: BUNDLE_EXTERNALS,
        logLevel: LogLevel.ERROR,
        commandHooks: props.commandHooks,
      },
    });
    dependOnRolePoliciesOnly(this.role);

    acknowledgeNag(this.function, 'AwsSolutions-L1', 'nodeRuntime');
  }
}

/**
 * aws-cdk-lib's Function makes its CfnFunction depend on its whole role construct, so the
 * template says `DependsOn: [<role>, <role's DefaultPolicy>]`; the role itself is already
 * ordered by the function's `Role: Fn::GetAtt` (cfn-lint W3005: an obsolete DependsOn).
 * This narrows what depending on `role` means (constructs' Dependable trait) to its
 * policies, which the function still needs before it runs; each of them references the
 * role, so the order CloudFormation creates things in is unchanged. A role with no policy
 * stays a dependency as a whole.
 */
export function dependOnRolePoliciesOnly(role: IRole): void {
  Dependable.implement(role, {
    get dependencyRoots() {
      const policies = role.node.children.filter((child) => child instanceof Policy);
      return policies.length > 0 ? policies : [role];
    },
  });
}
