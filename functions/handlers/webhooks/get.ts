import { webhooksGet } from '../../api/declarations/webhooks';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { getWebhookView } from '../../operations/webhooks';

export const operation = implement(webhooksGet, ([id], { store, caller }) => getWebhookView(store, callerAccount(caller), id));

export const handler = lambdaHandler(operation);
