import type { OperationDefinition } from './operation';
import { operation as projectsGet } from '../handlers/projects/get';
import { operation as projectsLookup } from '../handlers/projects/lookup';
import { operation as projectsCreate } from '../handlers/projects/create';
import { operation as projectsSave } from '../handlers/projects/save';
import { operation as projectsGetStats } from '../handlers/projects/getStats';
import { operation as setsGet } from '../handlers/sets/get';
import { operation as setsLookup } from '../handlers/sets/lookup';
import { operation as setsCreate } from '../handlers/sets/create';
import { operation as setsSave } from '../handlers/sets/save';
import { operation as setsExists } from '../handlers/sets/exists';
import { operation as setsTop } from '../handlers/sets/top';
import { operation as setsGetStats } from '../handlers/sets/getStats';
import { operation as contentsGet } from '../handlers/contents/get';
import { operation as contentsLookup } from '../handlers/contents/lookup';
import { operation as contentsCreate } from '../handlers/contents/create';
import { operation as contentsSave } from '../handlers/contents/save';
import { operation as contentsExists } from '../handlers/contents/exists';
import { operation as contentsTop } from '../handlers/contents/top';
import { operation as contentsGetStats } from '../handlers/contents/getStats';
import { operation as responsesGet } from '../handlers/responses/get';
import { operation as responsesList } from '../handlers/responses/list';
import { operation as responsesCreate } from '../handlers/responses/create';
import { operation as responsesEdit } from '../handlers/responses/edit';
import { operation as responsesRemove } from '../handlers/responses/remove';
import { operation as responsesGetAggregates } from '../handlers/responses/getAggregates';

/**
 * Every operation of the API, once. The local server, the Lambda functions and routes
 * of the CDK stack and the tables of docs/api.md are all derived from this map; the
 * mapped type makes the compiler reject a missing or unknown operation.
 *
 * Adding an operation: write `functions/handlers/<resource>/<name>.ts` (exporting
 * `operation` and `handler`) and add its name here.
 */
export const OPERATION_NAMES = [
  'projects/get',
  'projects/lookup',
  'projects/create',
  'projects/save',
  'projects/getStats',
  'sets/get',
  'sets/lookup',
  'sets/create',
  'sets/save',
  'sets/exists',
  'sets/top',
  'sets/getStats',
  'contents/get',
  'contents/lookup',
  'contents/create',
  'contents/save',
  'contents/exists',
  'contents/top',
  'contents/getStats',
  'responses/get',
  'responses/list',
  'responses/create',
  'responses/edit',
  'responses/remove',
  'responses/getAggregates',
] as const;

export type OperationName = (typeof OPERATION_NAMES)[number];

export const operations: { readonly [Name in OperationName]: OperationDefinition } = {
  'projects/get': projectsGet,
  'projects/lookup': projectsLookup,
  'projects/create': projectsCreate,
  'projects/save': projectsSave,
  'projects/getStats': projectsGetStats,
  'sets/get': setsGet,
  'sets/lookup': setsLookup,
  'sets/create': setsCreate,
  'sets/save': setsSave,
  'sets/exists': setsExists,
  'sets/top': setsTop,
  'sets/getStats': setsGetStats,
  'contents/get': contentsGet,
  'contents/lookup': contentsLookup,
  'contents/create': contentsCreate,
  'contents/save': contentsSave,
  'contents/exists': contentsExists,
  'contents/top': contentsTop,
  'contents/getStats': contentsGetStats,
  'responses/get': responsesGet,
  'responses/list': responsesList,
  'responses/create': responsesCreate,
  'responses/edit': responsesEdit,
  'responses/remove': responsesRemove,
  'responses/getAggregates': responsesGetAggregates,
};

export const operationList: readonly OperationDefinition[] = OPERATION_NAMES.map((name) => operations[name]);

/** Source file of an operation's handler: the entry point of its Lambda function. */
export function handlerModule(operation: Pick<OperationDefinition, 'resource' | 'name'>): string {
  return `functions/handlers/${operation.resource}/${operation.name}.ts`;
}
