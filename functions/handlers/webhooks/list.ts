import { webhooksList } from '../../api/declarations/webhooks';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { listWebhooks } from '../../operations/webhooks';

export const operation = implement(webhooksList, ([query], { store, caller }) => listWebhooks(store, callerAccount(caller), query));

export const handler = lambdaHandler(operation);
