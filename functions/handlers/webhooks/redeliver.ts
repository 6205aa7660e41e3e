import { webhooksRedeliver } from '../../api/declarations/webhooks';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { redeliver } from '../../operations/webhooks';

export const operation = implement(webhooksRedeliver, ([deliveryId], { store, caller, now }) => redeliver(store, callerAccount(caller), deliveryId, now));

export const handler = lambdaHandler(operation);
