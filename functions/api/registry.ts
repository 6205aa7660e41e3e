import * as alerts from './declarations/alerts';
import * as audit from './declarations/audit';
import * as contents from './declarations/contents';
import * as keys from './declarations/keys';
import * as members from './declarations/members';
import * as projects from './declarations/projects';
import * as responses from './declarations/responses';
import * as sets from './declarations/sets';
import * as webhooks from './declarations/webhooks';
import { operationPath, RESOURCES, type OperationDeclaration, type Resource } from './operation';

/**
 * Every operation of the API, derived from the declarations themselves: each module of
 * `declarations/` declares the operations of one resource, and nothing lists them again.
 * The local server's routes, the Lambda functions and routes of the CDK stack, the tables
 * of docs/api.md, the OpenAPI document and the typed client all derive from this.
 *
 * Adding an operation: declare it in `functions/api/declarations/<resource>.ts` and write
 * its handler module `functions/handlers/<resource>/<name>.ts` (found by that name:
 * handlerModule; test/unit/registry.test.ts checks that every declaration has exactly one).
 */
const declarationModules = { projects, sets, contents, responses, keys, members, webhooks, audit, alerts } satisfies Record<
  Resource,
  Record<string, OperationDeclaration>
>;

type Declaration = { [R in Resource]: (typeof declarationModules)[R][keyof (typeof declarationModules)[R]] }[Resource];

/** Each operation's declaration by its name, `<resource>/<name>`. */
export type Operations = { [D in Declaration as `${D['resource']}/${D['name']}`]: D };
export type OperationName = keyof Operations;

/** Every declaration: resources in RESOURCES order, each resource's operations by name. */
export const operationList: readonly Declaration[] = RESOURCES.flatMap((resource) =>
  Object.values<Declaration>(declarationModules[resource]).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
);

export const operations = Object.fromEntries(operationList.map((operation) => [operationPath(operation), operation])) as Operations;

export const OPERATION_NAMES = operationList.map((operation) => operationPath(operation) as OperationName);

/** Source file of an operation's handler: the entry point of its Lambda function. */
export function handlerModule(operation: Pick<OperationDeclaration, 'resource' | 'name'>): string {
  return `functions/handlers/${operation.resource}/${operation.name}.ts`;
}
