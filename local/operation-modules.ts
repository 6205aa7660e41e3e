import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { join } from 'node:path';
import type { OperationDeclaration, RunnableOperation } from '../functions/api/operation';
import { handlerModule, operationList } from '../functions/api/registry';
import type { TableClient } from '../functions/store/dynamodb-clients';
import { REPO_ROOT } from '../lib/paths';

export type LambdaFunction = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** What an operation's handler module exports: its implementation and its Lambda entry (the deployed code). */
export interface OperationModule {
  operation: RunnableOperation<TableClient>;
  handler: LambdaFunction;
}

/**
 * Every operation's handler module, found by its name (handlerModule) rather than imported
 * from a hand-written list: each module is its own Lambda bundle, so no module may import
 * them all, and a list of imports would be one more place to add an operation.
 * test/unit/registry.test.ts checks that each declaration has exactly one module.
 */
export function loadOperationModules(): Map<string, OperationModule> {
  return new Map(operationList.map((declaration) => [`${declaration.resource}/${declaration.name}`, operationModule(declaration)]));
}

/** One operation's handler module, loaded at its first call: a server need not load them all to start. */
export function operationModule(declaration: Pick<OperationDeclaration, 'resource' | 'name'>): OperationModule {
  return require(join(REPO_ROOT, handlerModule(declaration))) as OperationModule;
}
