import { webhooksCreate } from '../../api/declarations/webhooks';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { createWebhook } from '../../operations/webhooks';

export const operation = implement(webhooksCreate, ([input], { store, caller, now }) => createWebhook(store, callerAccount(caller), input, now));

export const handler = lambdaHandler(operation);
