import { Duration, NestedStack } from 'aws-cdk-lib';
import type { IRestApi } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { operationPath, type OperationDeclaration } from '../functions/api/operation';
import { ServiceFunction } from './service-function';
import { grantKeyUsage, grantTableAccess, operationAccess } from './table-access';

/**
 * Most operations one nested stack holds. Each costs three resources there (function, log
 * group, invoke permission), so a group stays near 120 of CloudFormation's 500 whatever the
 * registry grows to; a resource with more operations is split into parts.
 */
export const OPERATIONS_PER_GROUP = 40;

/** `responses/getAggregates` -> `ResponsesGetAggregates` (construct ids cannot contain "/"). */
export function operationConstructId(operation: Pick<OperationDeclaration, 'resource' | 'name'>): string {
  return operationPath(operation)
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/**
 * The registry's operations in nested-stack groups, by resource in the registry's order:
 * `OperationsProjects`, ..., and `OperationsResponses2` for a resource's second part. A group's
 * id, and so its functions' logical ids, stay the same as operations of other resources come
 * and go.
 */
export function operationGroups(operations: readonly OperationDeclaration[]): Map<string, OperationDeclaration[]> {
  const byResource = new Map<string, OperationDeclaration[]>();
  for (const operation of operations) {
    const list = byResource.get(operation.resource) ?? [];
    list.push(operation);
    byResource.set(operation.resource, list);
  }
  const groups = new Map<string, OperationDeclaration[]>();
  for (const [resource, list] of byResource) {
    const name = `Operations${resource.charAt(0).toUpperCase()}${resource.slice(1)}`;
    for (let start = 0; start < list.length; start += OPERATIONS_PER_GROUP) {
      const part = start / OPERATIONS_PER_GROUP;
      groups.set(part === 0 ? name : `${name}${part + 1}`, list.slice(start, start + OPERATIONS_PER_GROUP));
    }
  }
  return groups;
}

export interface OperationFunctionsProps {
  readonly operations: readonly OperationDeclaration[];
  readonly table: ITable;
  /** Readable by the functions of the lists that page by cursor. */
  readonly cursorSecret: ISecret;
  /** The API whose methods invoke the functions (any method, path and stage of it). */
  readonly invokedBy: IRestApi;
  /** Every function's environment (CURSOR_SECRET_ARN is added for those that page by cursor). */
  readonly environment: Record<string, string>;
  readonly logRetention: RetentionDays;
  readonly handlerEntry: (operation: OperationDeclaration) => string;
}

/**
 * A nested stack with the functions of a group of operations (lib/feedback-api.ts routes to
 * them from the parent's API). Their roles are made here too, one per access profile of the
 * group: a role in the parent would need each function's log group (for its logging grant),
 * which would make the parent and the nested stack depend on each other.
 */
export class OperationFunctions extends NestedStack {
  /** Operation path (`projects/get`) -> its function. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;

  constructor(scope: Construct, id: string, props: OperationFunctionsProps) {
    // CDK refuses a stack description over 512 characters (CloudFormation's own limit is 1,024 bytes).
    super(scope, id, { description: `The functions of the feedback API's operations ${props.operations.map(operationPath).join(', ')}`.slice(0, 512) });
    // One role per access profile instead of one per function: the permissions are the
    // profile's either way, and a role and its policy per function would double the resources.
    const roles = new Map<string, Role>();
    const roleFor = (operation: OperationDeclaration): Role => {
      const access = operationAccess(operation);
      const profile = `${access}${operation.pagesByCursor ? 'Cursors' : ''}${operation.opensWebhookSecrets ? 'WebhookSecrets' : ''}${operation.sendsMail ? 'Mail' : ''}`;
      let role = roles.get(profile);
      if (!role) {
        // Named after the group too, so that each logical id is unique across the parent and all
        // its nested stacks (what an operator reads in CloudFormation's events, and what
        // test/support/cloud-assembly.ts merges).
        role = new Role(this, `${id}Role${profile[0].toUpperCase()}${profile.slice(1)}`, {
          assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
          description: `Execution role of the API's operations with ${access} table access${operation.pagesByCursor ? ', paging cursors' : ''}${operation.opensWebhookSecrets ? ', webhook signing secrets' : ''}${operation.sendsMail ? ', sending mail' : ''}`,
        });
        grantTableAccess(role, props.table, access);
        // Every function authenticates keys, and authentication refreshes lastUsedAt.
        if (access === 'readOnly') grantKeyUsage(role, props.table);
        if (operation.pagesByCursor) props.cursorSecret.grantRead(role);
        roles.set(profile, role);
      }
      return role;
    };
    const functions = new Map<string, ServiceFunction>();
    for (const operation of props.operations) {
      const path = operationPath(operation);
      const fn = new ServiceFunction(this, operationConstructId(operation), {
        role: roleFor(operation),
        entry: props.handlerEntry(operation),
        description: `${path}: ${operation.summary}`,
        environment: operation.pagesByCursor ? { ...props.environment, CURSOR_SECRET_ARN: props.cursorSecret.secretArn } : props.environment,
        logRetention: props.logRetention,
        ...(operation.timeoutSeconds ? { timeout: Duration.seconds(operation.timeoutSeconds) } : {}),
      });
      // One API-scoped invoke permission per function, here beside it rather than one per
      // method in the parent (lib/feedback-api.ts integrates without adding permissions).
      fn.function.addPermission('ApiInvoke', {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: props.invokedBy.arnForExecuteApi('*', '/*', '*'),
      });
      functions.set(path, fn);
    }
    this.functions = functions;
  }
}
