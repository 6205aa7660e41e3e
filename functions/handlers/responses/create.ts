import * as z from 'zod';
import { ApiError, type InvalidField } from '../../api/errors';
import { lambdaHandler } from '../../api/lambda';
import { defineOperation } from '../../api/operation';
import { POSITIONAL_CREATE_FIELDS, ResponseCreateModel } from '../../api/response-models';
import { createResponse } from '../../operations/responses';

/**
 * Accepts the widgets' single object and SPEC's seven positional arguments. Positional
 * calls are validated as the equivalent object, with errors reported at their position.
 */
const createArguments = z.array(z.unknown()).transform((args, context) => {
  const objectForm = args.length === 1 && typeof args[0] === 'object' && args[0] !== null && !Array.isArray(args[0]);
  if (!objectForm && (args.length < 3 || args.length > POSITIONAL_CREATE_FIELDS.length)) {
    context.addIssue({ code: 'custom', path: [], message: 'expected one object, or 3 to 7 positional arguments' });
    return z.NEVER;
  }
  const candidate = objectForm
    ? args[0]
    : Object.fromEntries(POSITIONAL_CREATE_FIELDS.map((field, position) => [field, args[position] ?? undefined]).filter(([, value]) => value !== undefined));
  const parsed = ResponseCreateModel.safeParse(candidate);
  if (parsed.success) return [parsed.data, objectForm ? 'object' : 'positional'] as [ResponseCreateModel, 'object' | 'positional'];
  for (const issue of parsed.error.issues) {
    const [field, ...rest] = issue.path;
    const position = POSITIONAL_CREATE_FIELDS.indexOf(field as (typeof POSITIONAL_CREATE_FIELDS)[number]);
    context.addIssue({
      code: 'custom',
      message: issue.message,
      path: objectForm || position < 0 ? [0, ...issue.path] : [position, ...rest],
    });
  }
  return z.NEVER;
});

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

export const operation = defineOperation({
  resource: 'responses',
  name: 'create',
  summary:
    'Records one response on a content item, named by contentId or by contentSetId + key (the item is created on first use unless the set disallows it).',
  args: createArguments,
  signature:
    '{ contentSetId?, key?, contentId?, value, context?, revokable?, profiling? }, or contentSetId, key, value, context, contentId, revokable, profiling',
  result: 'ResponseWriteResult',
  level: 'anonymous',
  readOnly: false,
  errors: ['not-found', 'conflict'],
  handler: async ([input, form], { store, caller, request, now }) => {
    try {
      return await createResponse(store, caller, input, request, now);
    } catch (error) {
      throw form === 'positional' ? atPositions(error) : error;
    }
  },
});

export const handler = lambdaHandler(operation);
