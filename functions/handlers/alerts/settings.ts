import { alertsSettings } from '../../api/declarations/alerts';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { alertSettings } from '../../operations/alerts';

export const operation = implement(alertsSettings, (_args, { store, caller }) => alertSettings(store, callerAccount(caller)));

export const handler = lambdaHandler(operation);
