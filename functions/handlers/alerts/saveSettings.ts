import { alertsSaveSettings } from '../../api/declarations/alerts';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { saveAlertSettings } from '../../operations/alerts';

export const operation = implement(alertsSaveSettings, ([input], { store, caller, now }) => saveAlertSettings(store, callerAccount(caller), input, now));

export const handler = lambdaHandler(operation);
