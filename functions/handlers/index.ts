import type { OperationDefinition } from '../api/operation';
import type { OperationName } from '../api/registry';
import { operation as contentsCreate } from './contents/create';
import { operation as contentsExists } from './contents/exists';
import { operation as contentsGet } from './contents/get';
import { operation as contentsGetStats } from './contents/getStats';
import { operation as contentsLookup } from './contents/lookup';
import { operation as contentsSave } from './contents/save';
import { operation as contentsTop } from './contents/top';
import { operation as keysCreate } from './keys/create';
import { operation as keysList } from './keys/list';
import { operation as keysRevoke } from './keys/revoke';
import { operation as projectsCreate } from './projects/create';
import { operation as projectsGet } from './projects/get';
import { operation as projectsGetStats } from './projects/getStats';
import { operation as projectsLookup } from './projects/lookup';
import { operation as projectsSave } from './projects/save';
import { operation as responsesCreate } from './responses/create';
import { operation as responsesEdit } from './responses/edit';
import { operation as responsesErase } from './responses/erase';
import { operation as responsesExport } from './responses/export';
import { operation as responsesGet } from './responses/get';
import { operation as responsesGetAggregates } from './responses/getAggregates';
import { operation as responsesList } from './responses/list';
import { operation as responsesRemove } from './responses/remove';
import { operation as setsCreate } from './sets/create';
import { operation as setsExists } from './sets/exists';
import { operation as setsGet } from './sets/get';
import { operation as setsGetStats } from './sets/getStats';
import { operation as setsLookup } from './sets/lookup';
import { operation as setsSave } from './sets/save';
import { operation as setsTop } from './sets/top';
import { operation as webhooksCreate } from './webhooks/create';
import { operation as webhooksDeliveries } from './webhooks/deliveries';
import { operation as webhooksGet } from './webhooks/get';
import { operation as webhooksList } from './webhooks/list';
import { operation as webhooksRedeliver } from './webhooks/redeliver';
import { operation as webhooksRemove } from './webhooks/remove';
import { operation as webhooksRotateSecret } from './webhooks/rotateSecret';
import { operation as webhooksSave } from './webhooks/save';
import { operation as webhooksTest } from './webhooks/test';

/**
 * Every operation's implementation, for the local server and the tests (each Lambda
 * function loads only its own handler module). The mapped type makes the compiler reject
 * a registered operation without an implementation.
 */
export const implementations: { readonly [Name in OperationName]: OperationDefinition } = {
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
};
