import { webhooksRotateSecret } from '../../api/declarations/webhooks';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { rotateWebhookSecret } from '../../operations/webhooks';

export const operation = implement(webhooksRotateSecret, ([id], { store, caller, now }) => rotateWebhookSecret(store, callerAccount(caller), id, now));

export const handler = lambdaHandler(operation);
