/**
 * Reading a synthesized cloud assembly the way `cdk deploy` and CloudFormation would:
 * the stack template, the asset each Lambda function's code comes from, what triggers
 * each function (API Gateway proxy methods, event source mappings, EventBridge rules, SNS subscriptions),
 * and the IAM statements its role holds. Everything is discovered from the template:
 * nothing here knows the app's construct ids, entry files or function names.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

// CloudFormation templates are untyped JSON.
type Json = any;

export interface LoadedAssembly {
  dir: string;
  stackName: string;
  /** The stack's template with its nested stacks' resources merged in. */
  template: Json;
  resources: Record<string, Json>;
  /** S3 object key of a file asset (what a function's `Code.S3Key` names) -> its directory in the assembly. */
  assetDirs: Map<string, string>;
  /** Object keys of assets that are not directories (prebuilt archives) -> why they are not used. */
  unsupportedAssets: Map<string, string>;
}

/**
 * The cloud assembly in `dir` (cdk.out or an `App({ outdir })`): its one stack and its file
 * assets. The stack's nested stacks (lib/operation-functions.ts) are read into it as
 * CloudFormation deploys them: their resources beside the parent's, each parameter replaced
 * by the value the parent passes and each `Outputs.X` the parent reads by the output's value,
 * so `template` and `resources` are the one template a reader of the whole stack needs
 * (test/support/assembly-templates.ts lists the files as written, for checks of every template).
 */
export function loadCloudAssembly(dir: string): LoadedAssembly {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const artifacts: Record<string, Json> = manifest.artifacts ?? {};
  const nested = Object.keys(artifacts).filter((id) => artifacts[id].type === 'cdk:cloud-assembly');
  const stacks = Object.keys(artifacts).filter((id) => artifacts[id].type === 'aws:cloudformation:stack');
  if (nested.length > 0 || stacks.length !== 1) {
    throw new Error(
      `the deploy rehearsal handles an assembly of exactly one stack; ${dir} has stacks [${stacks.join(', ')}] and nested assemblies [${nested.join(', ')}]`,
    );
  }
  const stackName = stacks[0];
  const stack = artifacts[stackName];
  const parent = JSON.parse(fs.readFileSync(path.join(dir, stack.properties.templateFile), 'utf8'));

  const assetDirs = new Map<string, string>();
  const unsupportedAssets = new Map<string, string>();
  /** Object key of a nested stack's template asset -> its file in the assembly. */
  const nestedTemplates = new Map<string, string>();
  for (const dependency of stack.dependencies ?? []) {
    if (artifacts[dependency]?.type !== 'cdk:asset-manifest') continue;
    const assets = JSON.parse(fs.readFileSync(path.join(dir, artifacts[dependency].properties.file), 'utf8'));
    for (const [hash, asset] of Object.entries<Json>(assets.files ?? {})) {
      for (const destination of Object.values<Json>(asset.destinations ?? {})) {
        if (asset.source.packaging === 'file' && String(asset.source.path).endsWith('.nested.template.json')) {
          nestedTemplates.set(destination.objectKey, path.resolve(dir, asset.source.path));
          continue;
        }
        if (asset.source.packaging !== 'zip' || !asset.source.path) {
          // A prebuilt archive (packaging "file") would have to be unzipped first.
          unsupportedAssets.set(destination.objectKey, `asset ${hash} has packaging ${asset.source.packaging}, not a directory`);
          continue;
        }
        assetDirs.set(destination.objectKey, path.resolve(dir, asset.source.path));
      }
    }
  }
  const template = withNestedStacks(parent, nestedTemplates);
  return { dir, stackName, template, resources: template.Resources ?? {}, assetDirs, unsupportedAssets };
}

/** Replaces every `{ Ref: name }` inside a value whose name `values` has, by that value. */
function substituteRefs(value: Json, values: Record<string, Json>): Json {
  if (Array.isArray(value)) return value.map((entry) => substituteRefs(entry, values));
  if (value && typeof value === 'object') {
    if (typeof value.Ref === 'string' && Object.keys(value).length === 1 && value.Ref in values) return values[value.Ref];
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, substituteRefs(entry, values)]));
  }
  return value;
}

/** Replaces every `{ Fn::GetAtt: [stackId, 'Outputs.X'] }` inside a value by the nested stack's output X. */
function substituteOutputs(value: Json, outputs: Map<string, Record<string, Json>>): Json {
  if (Array.isArray(value)) return value.map((entry) => substituteOutputs(entry, outputs));
  if (value && typeof value === 'object') {
    const getAtt = value['Fn::GetAtt'];
    if (Array.isArray(getAtt) && outputs.has(getAtt[0]) && String(getAtt[1]).startsWith('Outputs.')) {
      const output = outputs.get(getAtt[0])![String(getAtt[1]).slice('Outputs.'.length)];
      if (!output) throw new Error(`nested stack ${getAtt[0]} has no output ${getAtt[1]}`);
      return output.Value;
    }
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, substituteOutputs(entry, outputs)]));
  }
  return value;
}

/** The parent template with its nested stacks' resources merged in (see loadCloudAssembly). */
function withNestedStacks(parent: Json, nestedTemplates: Map<string, string>): Json {
  const resources: Record<string, Json> = {};
  const outputs = new Map<string, Record<string, Json>>();
  for (const [id, resource] of Object.entries<Json>(parent.Resources ?? {})) {
    if (resource.Type !== 'AWS::CloudFormation::Stack') {
      resources[id] = resource;
      continue;
    }
    const url = resource.Properties?.TemplateURL;
    const parts: Json[] = url?.['Fn::Join']?.[1] ?? [];
    const last = String(parts[parts.length - 1] ?? '');
    const file = [...nestedTemplates].find(([objectKey]) => last.endsWith(`/${objectKey}`))?.[1];
    if (!file) throw new Error(`nested stack ${id}: no template asset of the assembly is its TemplateURL ${JSON.stringify(url)}`);
    const nested = JSON.parse(fs.readFileSync(file, 'utf8'));
    const parameters = resource.Properties.Parameters ?? {};
    const missing = Object.keys(nested.Parameters ?? {}).filter((name) => !(name in parameters));
    if (missing.length > 0) throw new Error(`nested stack ${id}: the parent passes no value for ${missing.join(', ')}`);
    for (const [nestedId, nestedResource] of Object.entries<Json>(nested.Resources ?? {})) {
      if (nestedId in resources || nestedId in (parent.Resources ?? {}))
        throw new Error(`logical id ${nestedId} of nested stack ${id} is also in another template`);
      resources[nestedId] = substituteRefs(nestedResource, parameters);
    }
    outputs.set(id, substituteRefs(nested.Outputs ?? {}, parameters));
  }
  return { ...parent, Resources: substituteOutputs(resources, outputs), Outputs: substituteOutputs(parent.Outputs ?? {}, outputs) };
}

// ---------------------------------------------------------------- references

/** Logical id referenced by `{Ref}` or `{Fn::GetAtt: [id, attr]}`. */
export function refId(value: Json): string | undefined {
  if (typeof value?.Ref === 'string') return value.Ref;
  if (Array.isArray(value?.['Fn::GetAtt'])) return value['Fn::GetAtt'][0];
  if (typeof value?.['Fn::GetAtt'] === 'string') return value['Fn::GetAtt'].split('.')[0];
  return undefined;
}

/** Every logical id referenced (Ref or GetAtt) anywhere inside a value. */
export function referencedIds(value: Json): string[] {
  if (Array.isArray(value)) return value.flatMap(referencedIds);
  if (value && typeof value === 'object') {
    const id = refId(value);
    return id ? [id] : Object.values(value).flatMap(referencedIds);
  }
  return [];
}

export function ofType(assembly: LoadedAssembly, type: string): [string, Json][] {
  return Object.entries(assembly.resources).filter(([, resource]) => resource.Type === type);
}

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** What the rehearsal substitutes for the deployed resources when resolving template values. */
export interface LocalBindings {
  partition: string;
  region: string;
  account: string;
  /** Table logical id -> the local table made from its definition. */
  tables: Map<string, { name: string; arn: string; streamArn?: string }>;
  /** Secrets Manager secret logical id -> the ARN of its local stand-in. */
  secrets: Map<string, string>;
  /** Other resources whose `Ref` (by logical id) or attribute (`<id>.<attribute>`) a function is given (the Cognito user pool and app client ids, the distribution's domain) -> a local stand-in. */
  references?: Map<string, string>;
}

/**
 * Resolves a template value (Ref, Fn::GetAtt, Fn::Join, Fn::Sub) to a string with the
 * local stand-ins of `bindings`. Strict mode (what a function is given in its environment)
 * fails on anything that has no local stand-in. Symbolic mode (IAM resources, only ever
 * compared with each other) turns the ARN of any other resource into `cfn:<id>.Arn`.
 */
export function resolveValue(value: Json, bindings: LocalBindings, mode: 'strict' | 'symbolic', where: string): string {
  const fail = (): never => {
    throw new Error(`${where}: cannot resolve ${JSON.stringify(value)} locally`);
  };
  const pseudo: Record<string, string> = {
    'AWS::Partition': bindings.partition,
    'AWS::Region': bindings.region,
    'AWS::AccountId': bindings.account,
    'AWS::URLSuffix': 'amazonaws.com',
  };
  const attribute = (id: string, name: string | undefined): string => {
    const table = bindings.tables.get(id);
    if (table && name === undefined) return table.name;
    if (table && name === 'Arn') return table.arn;
    if (table && name === 'StreamArn' && table.streamArn) return table.streamArn;
    if (name === undefined && bindings.secrets.has(id)) return bindings.secrets.get(id)!;
    if (name === undefined && bindings.references?.has(id)) return bindings.references.get(id)!;
    if (name !== undefined && bindings.references?.has(`${id}.${name}`)) return bindings.references.get(`${id}.${name}`)!;
    if (name === undefined && pseudo[id]) return pseudo[id];
    if (mode === 'symbolic') return `cfn:${id}.${name ?? 'Ref'}`;
    return fail();
  };
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object') {
    if (typeof value.Ref === 'string') return attribute(value.Ref, undefined);
    if (value['Fn::GetAtt']) {
      const [id, name] = Array.isArray(value['Fn::GetAtt']) ? value['Fn::GetAtt'] : String(value['Fn::GetAtt']).split('.');
      return attribute(id, name);
    }
    if (Array.isArray(value['Fn::Join'])) {
      const [separator, parts] = value['Fn::Join'];
      return (parts as Json[]).map((part) => resolveValue(part, bindings, mode, where)).join(separator);
    }
    if (value['Fn::Sub'] !== undefined) {
      const [text, variables] = Array.isArray(value['Fn::Sub']) ? value['Fn::Sub'] : [value['Fn::Sub'], {}];
      return String(text).replace(/\$\{([^}!][^}]*)\}/g, (_match, name: string) => {
        if (variables?.[name] !== undefined) return resolveValue(variables[name], bindings, mode, where);
        const [id, attr] = name.split('.');
        return attribute(id, attr);
      });
    }
  }
  return fail();
}

// ---------------------------------------------------------------- functions

export interface FunctionSpec {
  logicalId: string;
  runtime: string;
  /** `index.handler`: module path inside the code, then the export. */
  handler: string;
  timeoutSeconds: number;
  memorySize: number;
  /** The directory `cdk deploy` zips and uploads as the function's code. */
  codeDir: string;
  /** `Environment.Variables` as written in the template. */
  environment: Record<string, Json>;
  roleId: string;
  loggingConfig: Json;
}

/**
 * Functions that only run while CloudFormation deploys, as custom-resource providers of
 * aws-cdk-lib, with why the rehearsal does not run them: today the console's BucketDeployment
 * provider (Python with the AWS CLI layer), which copies the built console to its S3 bucket and
 * touches no table. The rehearsal runs the service's Node.js functions.
 */
export function deployTimeFunctions(assembly: LoadedAssembly): Map<string, string> {
  const skipped = new Map<string, string>();
  for (const [, resource] of ofType(assembly, 'Custom::CDKBucketDeployment')) {
    const providerId = refId(resource.Properties?.ServiceToken);
    if (providerId) {
      skipped.set(providerId, "aws-cdk-lib's BucketDeployment provider: runs at deploy time only (copies the console's files to S3), touches no table");
    }
  }
  return skipped;
}

export function functionSpecs(assembly: LoadedAssembly): FunctionSpec[] {
  const deployTime = deployTimeFunctions(assembly);
  return ofType(assembly, 'AWS::Lambda::Function')
    .filter(([logicalId]) => !deployTime.has(logicalId))
    .map(([logicalId, resource]) => {
      const props = resource.Properties ?? {};
      const where = `function ${logicalId}`;
      if (props.PackageType === 'Image' || props.Code?.ImageUri) throw new Error(`${where}: container images are not rehearsed`);
      if (typeof props.Code?.S3Key !== 'string') throw new Error(`${where}: Code.S3Key is ${JSON.stringify(props.Code?.S3Key)}, not an asset key`);
      const unsupported = assembly.unsupportedAssets.get(props.Code.S3Key);
      if (unsupported) throw new Error(`${where}: ${unsupported}; the rehearsal runs code from asset directories`);
      const codeDir = assembly.assetDirs.get(props.Code.S3Key);
      if (!codeDir) throw new Error(`${where}: no asset of the cloud assembly is uploaded as ${props.Code.S3Key}`);
      if (!fs.existsSync(codeDir)) throw new Error(`${where}: ${codeDir} (asset ${props.Code.S3Key}) does not exist`);
      const roleId = refId(props.Role);
      if (!roleId || assembly.resources[roleId]?.Type !== 'AWS::IAM::Role') {
        throw new Error(`${where}: its role ${JSON.stringify(props.Role)} is not an AWS::IAM::Role of this template`);
      }
      return {
        logicalId,
        runtime: props.Runtime,
        handler: props.Handler,
        // CloudFormation's defaults.
        timeoutSeconds: props.Timeout ?? 3,
        memorySize: props.MemorySize ?? 128,
        codeDir,
        environment: props.Environment?.Variables ?? {},
        roleId,
        loggingConfig: props.LoggingConfig,
      };
    });
}

/** Variables Lambda sets itself: a function may not set them (CreateFunction refuses the template). */
export const RESERVED_ENVIRONMENT = [
  '_HANDLER',
  '_X_AMZN_TRACE_ID',
  'AWS_DEFAULT_REGION',
  'AWS_REGION',
  'AWS_EXECUTION_ENV',
  'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_LAMBDA_FUNCTION_MEMORY_SIZE',
  'AWS_LAMBDA_FUNCTION_VERSION',
  'AWS_LAMBDA_INITIALIZATION_TYPE',
  'AWS_LAMBDA_LOG_GROUP_NAME',
  'AWS_LAMBDA_LOG_STREAM_NAME',
  'AWS_ACCESS_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_LAMBDA_RUNTIME_API',
  'LAMBDA_TASK_ROOT',
  'LAMBDA_RUNTIME_DIR',
];

// ---------------------------------------------------------------- triggers

export interface ApiRoute {
  httpMethod: string;
  /** Resource path without the leading slash, e.g. `projects/create`. */
  path: string;
  functionId: string;
}

/** API Gateway resource logical id -> its path without leading slash ('' for the root). */
function resourcePath(assembly: LoadedAssembly, resourceId: Json): string {
  if (resourceId?.['Fn::GetAtt']?.[1] === 'RootResourceId') return '';
  const resource = assembly.resources[refId(resourceId)!];
  const parent = resourcePath(assembly, resource.Properties.ParentId);
  return parent ? `${parent}/${resource.Properties.PathPart}` : resource.Properties.PathPart;
}

/** Every API Gateway (REST) method integrated with a function of the template. */
export function apiRoutes(assembly: LoadedAssembly): ApiRoute[] {
  const functions = new Set(ofType(assembly, 'AWS::Lambda::Function').map(([id]) => id));
  const routes: ApiRoute[] = [];
  for (const [methodId, method] of ofType(assembly, 'AWS::ApiGateway::Method')) {
    const integration = method.Properties.Integration ?? {};
    const functionId = referencedIds(integration.Uri).find((id) => functions.has(id));
    if (!functionId) continue;
    if (integration.Type !== 'AWS_PROXY') {
      throw new Error(`method ${methodId}: a ${integration.Type} integration of ${functionId}; the rehearsal only builds proxy events`);
    }
    routes.push({ httpMethod: method.Properties.HttpMethod, path: resourcePath(assembly, method.Properties.ResourceId), functionId });
  }
  return routes;
}

export interface StreamMapping {
  logicalId: string;
  functionId: string;
  /** The table whose stream is read. */
  tableId: string;
  batchSize: number;
  startingPosition: string;
  /** Filter patterns (JSON), any of which lets a record through; none = every record. */
  filterPatterns: Json[];
  /** The on-failure destination (`DestinationConfig.OnFailure.Destination`) as written. */
  onFailure?: Json;
  functionResponseTypes: string[];
  /** TumblingWindowInSeconds: events then carry the shard id, window and state, and the function answers a state. */
  tumblingWindowSeconds?: number;
}

/** Event source mappings; only DynamoDB streams of the template's tables are rehearsed. */
export function streamMappings(assembly: LoadedAssembly): StreamMapping[] {
  return ofType(assembly, 'AWS::Lambda::EventSourceMapping').map(([logicalId, mapping]) => {
    const props = mapping.Properties;
    const source = props.EventSourceArn;
    const tableId = refId(source);
    if (!tableId || source?.['Fn::GetAtt']?.[1] !== 'StreamArn' || assembly.resources[tableId]?.Type !== 'AWS::DynamoDB::Table') {
      throw new Error(`event source mapping ${logicalId}: source ${JSON.stringify(source)} is not a DynamoDB stream of this template`);
    }
    return {
      logicalId,
      functionId: refId(props.FunctionName)!,
      tableId,
      // Lambda's default for DynamoDB streams.
      batchSize: props.BatchSize ?? 100,
      startingPosition: props.StartingPosition,
      filterPatterns: asArray<Json>(props.FilterCriteria?.Filters).map((filter) => JSON.parse(filter.Pattern)),
      onFailure: props.DestinationConfig?.OnFailure?.Destination,
      functionResponseTypes: props.FunctionResponseTypes ?? [],
      tumblingWindowSeconds: props.TumblingWindowInSeconds,
    };
  });
}

export interface RuleTarget {
  ruleId: string;
  functionId: string;
  scheduleExpression?: string;
  eventPattern?: Json;
  /** Constant input of the target (`Input`), parsed. */
  input?: Json;
}

export function ruleTargets(assembly: LoadedAssembly): RuleTarget[] {
  const functions = new Set(ofType(assembly, 'AWS::Lambda::Function').map(([id]) => id));
  return ofType(assembly, 'AWS::Events::Rule').flatMap(([ruleId, rule]) =>
    asArray<Json>(rule.Properties.Targets)
      .filter((target) => functions.has(refId(target.Arn) ?? ''))
      .map((target) => {
        if (target.InputPath || target.InputTransformer) {
          throw new Error(`rule ${ruleId}: InputPath / InputTransformer of target ${target.Id} are not rehearsed`);
        }
        return {
          ruleId,
          functionId: refId(target.Arn)!,
          scheduleExpression: rule.Properties.ScheduleExpression,
          eventPattern: rule.Properties.EventPattern,
          input: target.Input === undefined ? undefined : JSON.parse(target.Input),
        };
      }),
  );
}

export interface TopicSubscription {
  logicalId: string;
  functionId: string;
  topicId: string;
  /** The subscription's dead-letter queue (`RedrivePolicy.deadLetterTargetArn`) as written. */
  deadLetterQueue?: Json;
}

/** SNS subscriptions of the template's functions (protocol `lambda`): SNS invokes the function with each message of its topic. */
export function topicSubscriptions(assembly: LoadedAssembly): TopicSubscription[] {
  const functions = new Set(ofType(assembly, 'AWS::Lambda::Function').map(([id]) => id));
  return ofType(assembly, 'AWS::SNS::Subscription')
    .filter(([, subscription]) => subscription.Properties.Protocol === 'lambda' && functions.has(refId(subscription.Properties.Endpoint) ?? ''))
    .map(([logicalId, subscription]) => ({
      logicalId,
      functionId: refId(subscription.Properties.Endpoint)!,
      topicId: refId(subscription.Properties.TopicArn)!,
      deadLetterQueue: subscription.Properties.RedrivePolicy?.deadLetterTargetArn,
    }));
}

/** The on-failure destinations of asynchronous invocations (`AWS::Lambda::EventInvokeConfig`), by function: Lambda sends there with the function's role. */
export function asyncFailureDestinations(assembly: LoadedAssembly): Map<string, Json> {
  return new Map(
    ofType(assembly, 'AWS::Lambda::EventInvokeConfig')
      .filter(([, config]) => config.Properties.DestinationConfig?.OnFailure?.Destination)
      .map(([, config]) => [refId(config.Properties.FunctionName)!, config.Properties.DestinationConfig.OnFailure.Destination]),
  );
}

export interface InvokePermission {
  logicalId: string;
  functionId: string;
  principal: string;
  sourceArn?: Json;
}

/** Resource-based policies of the functions (`AWS::Lambda::Permission`): who may invoke them. */
export function invokePermissions(assembly: LoadedAssembly): InvokePermission[] {
  return ofType(assembly, 'AWS::Lambda::Permission').map(([logicalId, permission]) => ({
    logicalId,
    functionId: refId(permission.Properties.FunctionName)!,
    principal: permission.Properties.Principal,
    sourceArn: permission.Properties.SourceArn,
  }));
}

// ---------------------------------------------------------------- tables

const TABLE_PROPERTIES_TRANSLATED = [
  'TableName',
  'KeySchema',
  'AttributeDefinitions',
  'GlobalSecondaryIndexes',
  'LocalSecondaryIndexes',
  'StreamSpecification',
  'BillingMode',
  'ProvisionedThroughput',
  'TimeToLiveSpecification',
];
/** Properties DynamoDB Local has no counterpart for; they change nothing a function can observe. */
const TABLE_PROPERTIES_IGNORED = [
  'PointInTimeRecoverySpecification',
  'SSESpecification',
  'Tags',
  'DeletionProtectionEnabled',
  'ContributorInsightsSpecification',
  'TableClass',
  'WarmThroughput',
  'OnDemandThroughput',
  'ResourcePolicy',
];

/**
 * The CreateTable input (and TTL setting) for an `AWS::DynamoDB::Table` of the template.
 * A property this translation does not know fails, rather than being silently dropped.
 */
export function createTableFromTemplate(
  resource: Json,
  tableName: string,
  where: string,
): { input: Json; timeToLive?: { AttributeName: string; Enabled: boolean } } {
  const props = resource.Properties ?? {};
  const unknown = Object.keys(props).filter((name) => !TABLE_PROPERTIES_TRANSLATED.includes(name) && !TABLE_PROPERTIES_IGNORED.includes(name));
  if (unknown.length > 0) throw new Error(`${where}: table properties the rehearsal does not translate: ${unknown.join(', ')}`);
  const onDemand = props.BillingMode === 'PAY_PER_REQUEST';
  const throughput = (value: Json) => (onDemand ? undefined : (value ?? { ReadCapacityUnits: 5, WriteCapacityUnits: 5 }));
  const index = (definition: Json) => ({
    IndexName: definition.IndexName,
    KeySchema: definition.KeySchema,
    Projection: definition.Projection,
    ...(onDemand ? {} : { ProvisionedThroughput: throughput(definition.ProvisionedThroughput) }),
  });
  const input = {
    TableName: tableName,
    KeySchema: props.KeySchema,
    AttributeDefinitions: props.AttributeDefinitions,
    BillingMode: props.BillingMode ?? 'PROVISIONED',
    ...(onDemand ? {} : { ProvisionedThroughput: throughput(props.ProvisionedThroughput) }),
    ...(props.GlobalSecondaryIndexes ? { GlobalSecondaryIndexes: props.GlobalSecondaryIndexes.map(index) } : {}),
    ...(props.LocalSecondaryIndexes
      ? {
          LocalSecondaryIndexes: props.LocalSecondaryIndexes.map((definition: Json) => ({
            IndexName: definition.IndexName,
            KeySchema: definition.KeySchema,
            Projection: definition.Projection,
          })),
        }
      : {}),
    // In CloudFormation a StreamSpecification means the stream is on.
    ...(props.StreamSpecification ? { StreamSpecification: { StreamEnabled: true, StreamViewType: props.StreamSpecification.StreamViewType } } : {}),
  };
  return { input, timeToLive: props.TimeToLiveSpecification };
}

// ---------------------------------------------------------------- IAM

export interface RoleStatements {
  /** Statements of the role's inline policies, attached AWS::IAM::Policy and template managed policies. */
  statements: Json[];
  /** Policies the rehearsal cannot read (AWS managed or external ARNs). */
  unreadable: string[];
}

export function roleStatements(assembly: LoadedAssembly, roleId: string): RoleStatements {
  const role = assembly.resources[roleId].Properties ?? {};
  const attachedTo = (policy: Json) => asArray<Json>(policy.Properties?.Roles).some((entry) => refId(entry) === roleId);
  const statements = [
    ...asArray<Json>(role.Policies).flatMap((policy) => asArray(policy.PolicyDocument.Statement)),
    ...ofType(assembly, 'AWS::IAM::Policy')
      .filter(([, policy]) => attachedTo(policy))
      .flatMap(([, policy]) => asArray(policy.Properties.PolicyDocument.Statement)),
    ...ofType(assembly, 'AWS::IAM::ManagedPolicy')
      .filter(([id, policy]) => attachedTo(policy) || asArray<Json>(role.ManagedPolicyArns).some((arn) => refId(arn) === id))
      .flatMap(([, policy]) => asArray(policy.Properties.PolicyDocument.Statement)),
  ];
  const unreadable = asArray<Json>(role.ManagedPolicyArns)
    .filter((arn) => assembly.resources[refId(arn) ?? '']?.Type !== 'AWS::IAM::ManagedPolicy')
    .map((arn) => JSON.stringify(arn));
  if (role.PermissionsBoundary) unreadable.push(`permissions boundary ${JSON.stringify(role.PermissionsBoundary)}`);
  return { statements, unreadable };
}

export interface Permission {
  action: string;
  resource: string;
  /** The request's values of IAM condition keys (`dynamodb:LeadingKeys`, ...), where known. */
  context?: Record<string, string[]>;
}

export interface ResolvedStatement {
  effect: 'Allow' | 'Deny';
  actions: string[];
  notActions: string[];
  resources: string[];
  notResources: string[];
  /** `{ operator: { conditionKey: values } }`, as written in the policy. */
  conditions?: Record<string, Record<string, string[]>>;
}

export function resolveStatements(statements: Json[], bindings: LocalBindings, where: string): ResolvedStatement[] {
  const strings = (value: Json) => asArray<Json>(value).map((entry) => resolveValue(entry, bindings, 'symbolic', where));
  return statements.map((statement) => ({
    effect: statement.Effect,
    actions: strings(statement.Action),
    notActions: strings(statement.NotAction),
    resources: strings(statement.Resource),
    notResources: strings(statement.NotResource),
    conditions:
      statement.Condition === undefined
        ? undefined
        : Object.fromEntries(
            Object.entries<Json>(statement.Condition).map(([operator, tests]) => [
              operator,
              Object.fromEntries(Object.entries<Json>(tests).map(([conditionKey, values]) => [conditionKey, strings(values)])),
            ]),
          ),
  }));
}

function glob(pattern: string, caseInsensitive: boolean): RegExp {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, caseInsensitive ? 'i' : '');
}

function statementCovers(statement: ResolvedStatement, { action, resource }: Permission): boolean {
  const actionMatches =
    statement.actions.length > 0
      ? statement.actions.some((pattern) => glob(pattern, true).test(action))
      : !statement.notActions.some((pattern) => glob(pattern, true).test(action));
  const resourceMatches =
    statement.resources.length > 0
      ? statement.resources.some((pattern) => glob(pattern, false).test(resource))
      : !statement.notResources.some((pattern) => glob(pattern, false).test(resource));
  return actionMatches && resourceMatches;
}

/**
 * IAM's reading of the condition operators our policies use. A condition key the request's
 * context does not list is unknown here, and an unknown key or operator makes the condition
 * unknown (undefined), so the caller can read it cautiously.
 */
function conditionHolds(operator: string, conditionKey: string, allowed: string[], context: Record<string, string[]> | undefined): boolean | undefined {
  const values = context?.[conditionKey];
  const equals = (value: string) => allowed.includes(value);
  const like = (value: string) => allowed.some((pattern) => glob(pattern, false).test(value));
  switch (operator) {
    case 'ForAllValues:StringEquals':
      return values === undefined ? undefined : values.every(equals);
    case 'ForAllValues:StringLike':
      return values === undefined ? undefined : values.every(like);
    case 'StringEqualsIfExists':
      // Known absent (an empty list) passes, as IAM's IfExists does.
      return values === undefined ? undefined : values.length === 0 || values.some(equals);
    default:
      return undefined;
  }
}

/** Whether all conditions of a statement hold for the request: true, false, or undefined when not decidable here. */
function conditionsHold(statement: ResolvedStatement, permission: Permission): boolean | undefined {
  let decided: boolean | undefined = true;
  for (const [operator, tests] of Object.entries(statement.conditions ?? {})) {
    for (const [conditionKey, allowed] of Object.entries(tests)) {
      const holds = conditionHolds(operator, conditionKey, allowed, permission.context);
      if (holds === false) return false;
      if (holds === undefined) decided = undefined;
    }
  }
  return decided;
}

/**
 * IAM's identity-policy evaluation for one request: an explicit Deny wins, else an Allow is
 * needed. Conditions are evaluated where the request's context decides them; an undecidable
 * conditional Allow is not counted as a grant, an undecidable conditional Deny is counted as
 * a denial (the cautious reading of both).
 */
export function isAllowed(statements: ResolvedStatement[], permission: Permission): boolean {
  const applies = (statement: ResolvedStatement) => statementCovers(statement, permission) && conditionsHold(statement, permission);
  if (statements.some((statement) => statement.effect === 'Deny' && statementCovers(statement, permission) && conditionsHold(statement, permission) !== false))
    return false;
  return statements.some((statement) => statement.effect === 'Allow' && applies(statement) === true);
}

/** Actions of a service (`dynamodb:`) that Allow statements name, as written (patterns included). */
export function grantedActions(statements: ResolvedStatement[], service: string): string[] {
  const prefix = `${service.toLowerCase()}:`;
  return [
    ...new Set(
      statements
        .filter((statement) => statement.effect === 'Allow')
        .flatMap((statement) => statement.actions)
        .filter((action) => action.toLowerCase().startsWith(prefix) || action === '*'),
    ),
  ];
}

/** Whether an action pattern of a policy (`dynamodb:Get*`) matches an action. */
export function actionMatches(pattern: string, action: string): boolean {
  return glob(pattern, true).test(action);
}
