import { webhooksSave } from '../../api/declarations/webhooks';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { saveWebhook } from '../../operations/webhooks';

export const operation = implement(webhooksSave, ([id, input], { store, caller, now }) => saveWebhook(store, callerAccount(caller), id, input, now));

export const handler = lambdaHandler(operation);
