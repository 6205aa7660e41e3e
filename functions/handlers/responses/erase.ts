import { responsesErase } from '../../api/declarations/responses';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { eraseResponses } from '../../operations/response-erasure';

export const operation = implement(responsesErase, ([input], { store, caller }) => eraseResponses(store, callerAccount(caller), input));

export const handler = lambdaHandler(operation);
