import { responsesEdit } from '../../api/declarations/responses';
import { implementOnTable } from '../../api/operation';
import { tableLambdaHandler } from '../../api/table-lambda';
import { editResponse } from '../../operations/response-revocation';

export const operation = implementOnTable(responsesEdit, ([input], { store, caller, now }) => editResponse(store, caller, input, now));

export const handler = tableLambdaHandler(operation);
