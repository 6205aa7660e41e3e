import { responsesExport } from '../../api/declarations/responses';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { exportResponses } from '../../operations/response-export';

export const operation = implement(responsesExport, ([input], { store, caller }) => exportResponses(store, callerAccount(caller), input));

export const handler = lambdaHandler(operation);
