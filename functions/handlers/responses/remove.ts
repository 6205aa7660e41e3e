import { responsesRemove } from '../../api/declarations/responses';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { removeResponse } from '../../operations/response-revocation';

export const operation = implement(responsesRemove, ([input], { store, caller, now }) => removeResponse(store, caller, input, now));

export const handler = lambdaHandler(operation);
