import { webhooksDeliveries } from '../../api/declarations/webhooks';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { listDeliveries } from '../../operations/webhooks';

export const operation = implement(webhooksDeliveries, ([query], { store, caller }) => listDeliveries(store, callerAccount(caller), query));

export const handler = lambdaHandler(operation);
