import * as z from 'zod';
import { declareOperation } from '../operation';
import {
  AggregatesTarget,
  POSITIONAL_CREATE_FIELDS,
  ResponseCreateModel,
  ResponseEditModel,
  ResponseQueryModel,
  ResponseRemoveModel,
  StatPeriodModel,
} from '../response-models';
import { id } from '../models';

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

export const responsesCreate = declareOperation({
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
});

export const responsesEdit = declareOperation({
  resource: 'responses',
  name: 'edit',
  summary: 'Replaces the value of a response while its revocation window is open.',
  args: z.tuple([ResponseEditModel]),
  signature: '{ responseId (or feelbackId), revokeToken, value }',
  result: 'ResponseWriteResult',
  level: 'anonymous',
  readOnly: false,
  errors: ['not-found', 'forbidden', 'conflict'],
});

export const responsesGet = declareOperation({
  resource: 'responses',
  name: 'get',
  summary: 'A response by id (revoke tokens are never returned).',
  args: z.tuple([id]),
  signature: 'id: string',
  result: 'Response',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
});

/**
 * What the widgets show next to their buttons (GET `?$p=[target]`, no key). Anonymous
 * callers get the counts of sets with publicAggregates only; keyed callers of the set's
 * account always.
 */

export const responsesGetAggregates = declareOperation({
  resource: 'responses',
  name: 'getAggregates',
  summary:
    "Counts per option of a content item (by id, or by contentSetId + key) over a period (default lifetime), in the set's option order; zeros for a key nobody answered yet.",
  args: z.tuple([AggregatesTarget, StatPeriodModel.nullish()]),
  signature: 'target: string | ContentKey, period?: StatPeriod',
  result: 'number[]',
  level: 'anonymous',
  readOnly: true,
  errors: ['not-found', 'unauthorized'],
});

export const responsesList = declareOperation({
  resource: 'responses',
  name: 'list',
  summary: 'Responses of a project, content set or content item, newest first, in 1-based pages.',
  args: z.tuple([ResponseQueryModel]),
  signature: '{ $size?, $page?, projectId?, contentSetId?, contentId?, state?, from?, to? }',
  result: '{ items: Response[], page, size, hasMore }',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
});

export const responsesRemove = declareOperation({
  resource: 'responses',
  name: 'remove',
  summary: 'Revokes a response (state becomes revoked) while its revocation window is open.',
  args: z.tuple([ResponseRemoveModel]),
  signature: '{ responseId (or feelbackId), revokeToken }',
  result: 'void',
  level: 'anonymous',
  readOnly: false,
  errors: ['not-found', 'forbidden', 'conflict'],
});
