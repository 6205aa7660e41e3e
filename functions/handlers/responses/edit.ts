import { responsesEdit } from '../../api/declarations/responses';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { editResponse } from '../../operations/response-revocation';

export const operation = implement(responsesEdit, ([input], { store, caller, now }) => editResponse(store, caller, input, now));

export const handler = lambdaHandler(operation);
