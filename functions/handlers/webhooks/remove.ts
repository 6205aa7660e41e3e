import { webhooksRemove } from '../../api/declarations/webhooks';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { removeWebhook } from '../../operations/webhooks';

export const operation = implement(webhooksRemove, ([id], { store, caller }) => removeWebhook(store, callerAccount(caller), id));

export const handler = lambdaHandler(operation);
