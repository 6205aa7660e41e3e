import * as z from 'zod';
import { STORED_NUMBER_RULE, storedNumber } from '../domain/stored-numbers';
import { PROFILING_FIELDS, PROFILING_VALUE_MAX_LENGTH, type ProfilingField } from '../domain/profiling';
import { STAT_PERIODS } from '../../shared/periods';
import { MAX_CURSOR_LENGTH } from '../domain/cursor';
import { RESPONSE_STATES } from '../domain/states';
import { checkTimeRange, contentKey, ContentKeyModel, DEFAULT_PAGE_SIZE, id, instant, MAX_PAGE_SIZE } from './models';

/** Bounds the bytes a single anonymous response can add to the table. */
export const CONTEXT_MAX_BYTES = 2048;
export const CONTEXT_KEY_MAX_LENGTH = 64;
/** Offset paging reads every skipped item; past this depth, narrow with from/to instead. */
export const MAX_LIST_DEPTH = 10000;

export const ResponseContext = z
  .record(z.string().min(1).max(CONTEXT_KEY_MAX_LENGTH), z.union([z.string(), storedNumber, z.boolean()]))
  .refine((context) => Buffer.byteLength(JSON.stringify(context)) <= CONTEXT_MAX_BYTES, {
    message: `context must be at most ${CONTEXT_MAX_BYTES} bytes as JSON`,
  })
  .meta({
    id: 'ResponseContext',
    description: `A flat object of string, number or boolean values (numbers: ${STORED_NUMBER_RULE}); at most ${CONTEXT_MAX_BYTES} bytes as JSON.`,
  });

export const ProfilingModel = z
  .strictObject(
    Object.fromEntries(PROFILING_FIELDS.map((field) => [field, z.string().max(PROFILING_VALUE_MAX_LENGTH).optional()])) as Record<
      ProfilingField,
      z.ZodOptional<z.ZodString>
    >,
  )
  .meta({ id: 'ProfilingData', description: 'Who answered, as far as the caller knows; missing fields are derived from the request headers.' });

const present = (value: unknown) => value !== undefined;

export const ResponseCreateModel = z
  .strictObject({
    contentSetId: id.nullish(),
    key: contentKey.nullish(),
    contentId: id.nullish(),
    value: z.unknown().refine(present, 'value is required'),
    context: ResponseContext.nullish(),
    revokable: z.boolean().nullish(),
    profiling: ProfilingModel.nullish(),
  })
  .meta({
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

/** A person as responses name them: profiling.userId (or context.$user), matched exactly. */
export const userId = z.string().min(1).max(PROFILING_VALUE_MAX_LENGTH);
export const cursor = z.string().min(1).max(MAX_CURSOR_LENGTH);

/** What a list or an export reads: one scope (project, set or item, which must agree; or a person), state and time bounds. */
const responseSelection = {
  projectId: id.optional(),
  contentSetId: id.optional(),
  contentId: id.optional(),
  userId: userId.optional(),
  state: z.enum([...RESPONSE_STATES, 'all']).default('active'),
  from: instant.optional(),
  to: instant.optional(),
  cursor: cursor.optional(),
};

type Selection = { projectId?: string; contentSetId?: string; contentId?: string; userId?: string; from?: string; to?: string };

function checkSelection(query: Selection, context: z.RefinementCtx) {
  if (!query.projectId && !query.contentSetId && !query.contentId && !query.userId) {
    context.addIssue({ code: 'custom', path: ['projectId'], message: 'give projectId, contentSetId, contentId or userId' });
  }
  if (query.userId && (query.projectId || query.contentSetId || query.contentId)) {
    context.addIssue({
      code: 'custom',
      path: ['userId'],
      message: 'userId lists a person across the account: give it without projectId, contentSetId or contentId',
    });
  }
  checkTimeRange(query, context);
}

/** checkSelection, for the OpenAPI document: one scope, and a person only on its own. */
const SELECTION_SCHEMA = {
  anyOf: [{ required: ['projectId'] }, { required: ['contentSetId'] }, { required: ['contentId'] }, { required: ['userId'] }],
  allOf: ['projectId', 'contentSetId', 'contentId'].map((scope) => ({ not: { required: ['userId', scope] } })),
};

/** The theme key of a list by theme: the themes' answer's `id`, or `other` (the messages in no theme). */
export const OTHER_THEME = 'other';
const PHRASE_MAX_LENGTH = 80;

/** A list by theme or phrase (issue 40): the messages the themes job keeps, so a scope of items, not a person, and active ones. */
function checkThemeSelection(query: { theme?: string; phrase?: string; tag?: string; userId?: string; state: string }, context: z.RefinementCtx) {
  if (query.theme !== undefined && query.phrase !== undefined) context.addIssue({ code: 'custom', path: ['phrase'], message: 'give either theme or phrase' });
  const byTheme = query.theme !== undefined || query.phrase !== undefined;
  if (query.tag !== undefined && !byTheme)
    context.addIssue({ code: 'custom', path: ['tag'], message: 'tag selects messages of a theme or phrase: give it with theme or phrase' });
  if (!byTheme) return;
  if (query.userId !== undefined) {
    context.addIssue({
      code: 'custom',
      path: ['userId'],
      message: 'a theme or phrase lists a project, set or item: give projectId, contentSetId or contentId',
    });
  }
  if (query.state !== 'active')
    context.addIssue({ code: 'custom', path: ['state'], message: 'themes hold active messages only: leave state out or give "active"' });
}

export const ResponseQueryModel = z
  .strictObject({
    $size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    $page: z.number().int().min(1).optional(),
    ...responseSelection,
    /** A theme id of the themes answer, or "other". */
    theme: id.optional(),
    /** A phrase (1-3 words), matched by its words' stems as the themes' phrases are. */
    phrase: z.string().trim().min(1).max(PHRASE_MAX_LENGTH).optional(),
    /** With theme or phrase: a tagged-message set's tag. */
    tag: z.string().min(1).max(100).optional(),
  })
  .superRefine(checkSelection)
  .superRefine(checkThemeSelection)
  .refine((query) => (query.$page ?? 1) * query.$size <= MAX_LIST_DEPTH, {
    message: `$page * $size must be at most ${MAX_LIST_DEPTH}; page on with the cursor instead`,
    path: ['$page'],
  })
  .refine((query) => query.$page === undefined || query.cursor === undefined, {
    message: 'give either $page or cursor',
    path: ['cursor'],
  })
  .meta({
    id: 'ResponseQueryModel',
    description: `Which responses responses/list pages through: one scope (a project, set or item, or a person across the account), state and time bounds, or the active messages of a theme (its id, or "other") or a phrase, optionally of one tag; $page * $size at most ${MAX_LIST_DEPTH}, or page on by cursor; from before to.`,
    ...SELECTION_SCHEMA,
    // The fields that never come together: $page and cursor, and checkThemeSelection's pairs (its rules on state and tag depend on values, and are said above).
    allOf: [
      ...SELECTION_SCHEMA.allOf,
      ...[
        ['$page', 'cursor'],
        ['theme', 'phrase'],
        ['userId', 'theme'],
        ['userId', 'phrase'],
      ].map((pair) => ({ not: { required: pair } })),
    ],
  });
export type ResponseQueryModel = z.infer<typeof ResponseQueryModel>;

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;

export const ResponseExportModel = z
  .strictObject({ ...responseSelection, format: z.enum(EXPORT_FORMATS) })
  .superRefine(checkSelection)
  .meta({ id: 'ResponseExportModel', description: 'Which responses responses/export writes, and in which format (see responses/list).', ...SELECTION_SCHEMA });
export type ResponseExportModel = z.infer<typeof ResponseExportModel>;

/** Ids erased by one call at most. */
export const MAX_ERASE_IDS = 100;
/** A person's responses erased by one call at most (it answers `more: true` while some remain). */
export const ERASE_BATCH = 1000;

export const ResponseEraseModel = z
  .strictObject({
    userId: userId.optional(),
    responseIds: z.array(id).min(1).max(MAX_ERASE_IDS).optional(),
  })
  .refine((input) => (input.userId === undefined) !== (input.responseIds === undefined), {
    message: 'give either userId or responseIds',
    path: ['userId'],
  })
  .meta({
    id: 'ResponseEraseModel',
    description: 'Whose responses to erase: a person, or up to 100 responses by id.',
    oneOf: [{ required: ['userId'] }, { required: ['responseIds'] }],
  });
export type ResponseEraseModel = z.infer<typeof ResponseEraseModel>;

/** Held responses judged by one call at most: by id, or of an item (it answers `more: true` while some remain). */
export const REVIEW_BATCH = 100;

export const ResponseReviewModel = z
  .strictObject({
    responseIds: z.array(id).min(1).max(REVIEW_BATCH).optional(),
    contentId: id.optional(),
  })
  .refine((input) => (input.responseIds === undefined) !== (input.contentId === undefined), {
    message: 'give either responseIds or contentId',
    path: ['responseIds'],
  })
  .meta({
    id: 'ResponseReviewModel',
    description: `Which held (quarantined) responses to judge: up to ${REVIEW_BATCH} by id, or those of a content item (${REVIEW_BATCH} a call).`,
    oneOf: [{ required: ['responseIds'] }, { required: ['contentId'] }],
  });
export type ResponseReviewModel = z.infer<typeof ResponseReviewModel>;

/** What the widgets send to getAggregates: a content id, or the set and the page key. */
export const AggregatesTarget = z.union([id, ContentKeyModel]);
export const StatPeriodModel = z.enum(STAT_PERIODS).meta({ id: 'StatPeriod', description: 'The periods statistics are kept for.' });

/** responses/import takes at most this many rows a call. */
export const MAX_IMPORT_ROWS = 1000;
export const IMPORT_ID_MAX_LENGTH = 100;
/** The earliest createdAt an import accepts: older dates are typos, not history. */
export const EARLIEST_IMPORT = '2000-01-01T00:00:00.000Z';

/**
 * One row of responses/import. Its shape is checked with the call (a malformed row refuses
 * the call: the file is wrong); its value, date range and target are checked per row.
 */
export const ImportRowModel = z
  .strictObject({
    key: contentKey.optional(),
    contentId: id.optional(),
    value: z.unknown().refine(present, 'value is required'),
    createdAt: instant,
    userId: userId.optional(),
    context: ResponseContext.optional(),
    importId: z.string().min(1).max(IMPORT_ID_MAX_LENGTH),
  })
  .refine((row) => row.key !== undefined || row.contentId !== undefined, { message: 'key or contentId is required', path: ['key'] })
  .meta({
    id: 'ImportRowModel',
    description: `One past response: on the item named by key (in the call's set) or contentId, created at \`createdAt\`; \`importId\` (1 to ${IMPORT_ID_MAX_LENGTH} characters) makes it once only per set.`,
    anyOf: [{ required: ['key'] }, { required: ['contentId'] }],
  });
export type ImportRowModel = z.infer<typeof ImportRowModel>;
export const ImportRowsModel = z.array(ImportRowModel).min(1).max(MAX_IMPORT_ROWS);
