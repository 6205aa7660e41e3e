import { webhooksTest } from '../../api/declarations/webhooks';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { testWebhook } from '../../operations/webhooks';

export const operation = implement(webhooksTest, ([id], { store, caller, now }) => testWebhook(store, callerAccount(caller), id, now));

export const handler = lambdaHandler(operation);
