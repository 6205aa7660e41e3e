import * as z from 'zod';
import { PROFILING_FIELDS, PROFILING_VALUE_MAX_LENGTH, type ProfilingField } from '../domain/profiling';
import { STAT_PERIODS } from '../domain/periods';
import { contentKey, ContentKeyModel, DEFAULT_PAGE_SIZE, id, MAX_PAGE_SIZE } from './models';

/** Bounds the bytes a single anonymous response can add to the table. */
export const CONTEXT_MAX_BYTES = 2048;
export const CONTEXT_KEY_MAX_LENGTH = 64;
/** Offset paging reads every skipped item; past this depth, narrow with from/to instead. */
export const MAX_LIST_DEPTH = 10000;

export const ResponseContext = z
  .record(z.string().min(1).max(CONTEXT_KEY_MAX_LENGTH), z.union([z.string(), z.number().finite(), z.boolean()]))
  .refine((context) => Buffer.byteLength(JSON.stringify(context)) <= CONTEXT_MAX_BYTES, {
    message: `context must be at most ${CONTEXT_MAX_BYTES} bytes as JSON`,
  })
  .meta({ id: 'ResponseContext', description: `A flat object of string, number or boolean values; at most ${CONTEXT_MAX_BYTES} bytes as JSON.` });

export const ProfilingModel = z.strictObject(
  Object.fromEntries(PROFILING_FIELDS.map((field) => [field, z.string().max(PROFILING_VALUE_MAX_LENGTH).optional()])) as Record<
    ProfilingField,
    z.ZodOptional<z.ZodString>
  >,
).meta({ id: 'ProfilingData', description: 'Who answered, as far as the caller knows; missing fields are derived from the request headers.' });

const present = (value: unknown) => value !== undefined;

export const ResponseCreateModel = z.strictObject({
  contentSetId: id.nullish(),
  key: contentKey.nullish(),
  contentId: id.nullish(),
  value: z.unknown().refine(present, 'value is required'),
  context: ResponseContext.nullish(),
  revokable: z.boolean().nullish(),
  profiling: ProfilingModel.nullish(),
}).meta({
  id: 'ResponseCreateModel',
  description: 'One response, on the item named by contentId, or by contentSetId and key.',
  // The target check of the handler (which runs before any read), for the OpenAPI document.
  anyOf: [
    { required: ['contentId'], properties: { contentId: { type: 'string' } } },
    { required: ['contentSetId', 'key'], properties: { contentSetId: { type: 'string' }, key: { type: 'string' } } },
  ],
});
export type ResponseCreateModel = z.infer<typeof ResponseCreateModel>;

/** SPEC's positional form of responses/create, in argument order. */
export const POSITIONAL_CREATE_FIELDS = ['contentSetId', 'key', 'value', 'context', 'contentId', 'revokable', 'profiling'] as const;

/** The widgets name a response `feelbackId`; either name is accepted, and both must agree when given. */
const responseReference = {
  responseId: id.optional(),
  feelbackId: id.optional(),
  revokeToken: z.string().min(1).max(256),
};
function oneId(reference: { responseId?: string; feelbackId?: string }, context: z.RefinementCtx) {
  if (!reference.responseId && !reference.feelbackId) {
    context.addIssue({ code: 'custom', path: ['responseId'], message: 'responseId (or feelbackId) is required' });
  } else if (reference.responseId && reference.feelbackId && reference.responseId !== reference.feelbackId) {
    context.addIssue({ code: 'custom', path: ['feelbackId'], message: 'responseId and feelbackId differ' });
  }
}

/** oneId, for the OpenAPI document (JSON Schema cannot say that both ids, when given, agree). */
const ONE_ID = { anyOf: [{ required: ['responseId'] }, { required: ['feelbackId'] }] };

export const ResponseEditModel = z
  .strictObject({ ...responseReference, value: z.unknown().refine(present, 'value is required') })
  .superRefine(oneId)
  .transform(({ responseId, feelbackId, ...rest }) => ({ ...rest, responseId: (responseId ?? feelbackId)! }))
  .meta({ id: 'ResponseEditModel', description: 'A new value for a response, with its revoke token.', ...ONE_ID });

export const ResponseRemoveModel = z
  .strictObject(responseReference)
  .superRefine(oneId)
  .transform(({ responseId, feelbackId, ...rest }) => ({ ...rest, responseId: (responseId ?? feelbackId)! }))
  .meta({ id: 'ResponseRemoveModel', description: 'A response to revoke, with its revoke token.', ...ONE_ID });

const isoDate = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

export const ResponseQueryModel = z
  .strictObject({
    $size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    $page: z.number().int().min(1).default(1),
    projectId: id.optional(),
    contentSetId: id.optional(),
    contentId: id.optional(),
    state: z.enum(['active', 'revoked', 'all']).default('active'),
    from: isoDate.optional(),
    to: isoDate.optional(),
  })
  .refine((query) => query.projectId || query.contentSetId || query.contentId, {
    message: 'give projectId, contentSetId or contentId',
    path: ['projectId'],
  })
  .refine((query) => query.$page * query.$size <= MAX_LIST_DEPTH, {
    message: `$page * $size must be at most ${MAX_LIST_DEPTH}; narrow the list with from/to`,
    path: ['$page'],
  })
  .refine((query) => !query.from || !query.to || query.from < query.to, { message: 'from must be before to', path: ['to'] })
  .meta({
    id: 'ResponseQueryModel',
    description: `Which responses responses/list pages through; $page * $size at most ${MAX_LIST_DEPTH}, from before to.`,
    anyOf: [{ required: ['projectId'] }, { required: ['contentSetId'] }, { required: ['contentId'] }],
  });
export type ResponseQueryModel = z.infer<typeof ResponseQueryModel>;

/** What the widgets send to getAggregates: a content id, or the set and the page key. */
export const AggregatesTarget = z.union([id, ContentKeyModel]);
export const StatPeriodModel = z.enum(STAT_PERIODS).meta({ id: 'StatPeriod', description: 'The periods statistics are kept for.' });
