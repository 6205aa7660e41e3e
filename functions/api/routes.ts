import { operationPath, RESOURCE_ALIASES, type OperationDeclaration } from './operation';

/**
 * Where each operation is served: shared by the CDK stack, the local server, the OpenAPI
 * document and the tests, so all name the same paths. (Which methods: POST, and GET for
 * read-only operations, checked by the adapter: functions/api/adapter.ts.)
 */

/** Every path serving an operation, without a leading slash: `<resource>/<name>` and its alias. */
export function operationRoutes(operation: Pick<OperationDeclaration, 'resource' | 'name'>): string[] {
  const alias = RESOURCE_ALIASES[operation.resource];
  return [operationPath(operation), ...(alias ? [`${alias}/${operation.name}`] : [])];
}
