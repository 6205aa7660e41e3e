import { alertsList } from '../../api/declarations/alerts';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { listAlerts } from '../../operations/alerts';

export const operation = implement(alertsList, ([query], { store, caller }) => listAlerts(store, callerAccount(caller), query));

export const handler = lambdaHandler(operation);
