import { responsesList } from '../../api/declarations/responses';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { listResponses } from '../../operations/response-queries';

export const operation = implement(responsesList, ([query], { store, caller }) => listResponses(store, callerAccount(caller), query));

export const handler = lambdaHandler(operation);
