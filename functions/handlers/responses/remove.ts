import { responsesRemove } from '../../api/declarations/responses';
import { implementOnTable } from '../../api/operation';
import { tableLambdaHandler } from '../../api/table-lambda';
import { removeResponse } from '../../operations/response-revocation';

export const operation = implementOnTable(responsesRemove, ([input], { store, caller, now }) => removeResponse(store, caller, input, now));

export const handler = tableLambdaHandler(operation);
