import { responsesGet } from '../../api/declarations/responses';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { getResponse } from '../../operations/response-queries';

export const operation = implement(responsesGet, ([responseId], { store, caller }) => getResponse(store, callerAccount(caller), responseId));

export const handler = lambdaHandler(operation);
