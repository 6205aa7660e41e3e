import { operationPath, RESOURCE_ALIASES, type OperationDeclaration } from './operation';

/**
 * Where and how each operation is served: shared by the CDK stack, the OpenAPI document
 * and the tests, so all three name the same paths and methods.
 */

/** HTTP methods serving an operation: POST always, GET for read-only operations (`?$p=`). */
export function operationMethods(operation: Pick<OperationDeclaration, 'readOnly'>): readonly ('POST' | 'GET')[] {
  return operation.readOnly ? ['POST', 'GET'] : ['POST'];
}

/** Every path serving an operation, without a leading slash: `<resource>/<name>` and its alias. */
export function operationRoutes(operation: Pick<OperationDeclaration, 'resource' | 'name'>): string[] {
  const alias = RESOURCE_ALIASES[operation.resource];
  return [operationPath(operation), ...(alias ? [`${alias}/${operation.name}`] : [])];
}
