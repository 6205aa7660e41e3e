import type { OperationDeclaration } from './operation';
import { contentsCreate, contentsExists, contentsGet, contentsGetStats, contentsLookup, contentsSave, contentsTop } from './declarations/contents';
import { projectsCreate, projectsGet, projectsGetStats, projectsLookup, projectsSave } from './declarations/projects';
import { keysCreate, keysList, keysRevoke } from './declarations/keys';
import {
  responsesCreate,
  responsesEdit,
  responsesErase,
  responsesExport,
  responsesGet,
  responsesGetAggregates,
  responsesList,
  responsesRemove,
} from './declarations/responses';
import { setsCreate, setsExists, setsGet, setsGetStats, setsLookup, setsSave, setsTop } from './declarations/sets';
import {
  webhooksCreate,
  webhooksDeliveries,
  webhooksGet,
  webhooksList,
  webhooksRedeliver,
  webhooksRemove,
  webhooksRotateSecret,
  webhooksSave,
  webhooksTest,
} from './declarations/webhooks';

/**
 * Every operation of the API, once, as its declaration (arguments, result, level). The
 * local server's routes, the Lambda functions and routes of the CDK stack and the tables
 * of docs/api.md are all derived from this map; `functions/handlers/index.ts` must
 * implement every name in it (the compiler checks).
 *
 * Adding an operation: declare it in `functions/api/declarations/<resource>.ts`, add it
 * here, and write its handler module `functions/handlers/<resource>/<name>.ts`.
 */
export const operations = {
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
  'responses/export': responsesExport,
  'responses/erase': responsesErase,
  'keys/list': keysList,
  'keys/create': keysCreate,
  'keys/revoke': keysRevoke,
  'webhooks/create': webhooksCreate,
  'webhooks/get': webhooksGet,
  'webhooks/list': webhooksList,
  'webhooks/save': webhooksSave,
  'webhooks/remove': webhooksRemove,
  'webhooks/rotateSecret': webhooksRotateSecret,
  'webhooks/test': webhooksTest,
  'webhooks/deliveries': webhooksDeliveries,
  'webhooks/redeliver': webhooksRedeliver,
} as const satisfies Record<string, OperationDeclaration>;

export type OperationName = keyof typeof operations;

export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

export const operationList: readonly OperationDeclaration[] = OPERATION_NAMES.map((name) => operations[name]);

/** Source file of an operation's handler: the entry point of its Lambda function. */
export function handlerModule(operation: Pick<OperationDeclaration, 'resource' | 'name'>): string {
  return `functions/handlers/${operation.resource}/${operation.name}.ts`;
}
