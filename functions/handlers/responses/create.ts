import { responsesCreate } from '../../api/declarations/responses';
import { implementOnTable } from '../../api/operation';
import { tableLambdaHandler } from '../../api/table-lambda';
import { ApiError, type InvalidField } from '../../api/errors';
import { POSITIONAL_CREATE_FIELDS } from '../../api/response-models';
import { createResponse } from '../../operations/response-collection';

/** Domain errors name fields of the object form (`args.0.value`); positional callers get positions (`args.2`). */
function atPositions(error: unknown): unknown {
  if (!(error instanceof ApiError) || !Array.isArray(error.data?.fields)) return error;
  const fields = (error.data.fields as InvalidField[]).map(({ path, message }) => {
    const field = /^args\.0\.(\w+)/.exec(path)?.[1];
    const position = POSITIONAL_CREATE_FIELDS.indexOf(field as (typeof POSITIONAL_CREATE_FIELDS)[number]);
    return { path: position < 0 ? path : path.replace(`args.0.${field}`, `args.${position}`), message };
  });
  return new ApiError(error.code, error.message, { ...error.data, fields });
}

export const operation = implementOnTable(responsesCreate, async ([input, form], { store, caller, request, now }) => {
  try {
    return await createResponse(store, caller, input, request, now);
  } catch (error) {
    throw form === 'positional' ? atPositions(error) : error;
  }
});

export const handler = tableLambdaHandler(operation);
