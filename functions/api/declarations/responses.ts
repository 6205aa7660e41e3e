import * as z from 'zod';
import { declareOperation } from '../operation';
import {
  EraseResultModel,
  ExportChunkModel,
  ImportResultModel,
  NoContent,
  OptionCountsModel,
  ResponseModel,
  ResponsePageModel,
  ResponseWriteResultModel,
  ReviewResultModel,
} from '../result-models';
import {
  AggregatesTarget,
  ERASE_BATCH,
  ImportRowsModel,
  MAX_ERASE_IDS,
  MAX_IMPORT_ROWS,
  POSITIONAL_CREATE_FIELDS,
  ProfilingModel,
  ResponseContext,
  ResponseCreateModel,
  ResponseEditModel,
  ResponseEraseModel,
  ResponseExportModel,
  ResponseQueryModel,
  ResponseRemoveModel,
  ResponseReviewModel,
  REVIEW_BATCH,
  StatPeriodModel,
} from '../response-models';
import { contentKey, id } from '../models';
import { IMPORT_MAX_BODY_BYTES } from '../limits';

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

/**
 * How callers write responses/create's arguments, for the OpenAPI document and the client:
 * one object, or the positional form (null for unused arguments; the value is required and
 * not null, since a null there reads as absent). `createArguments` accepts exactly these
 * arrays (the OpenAPI agreement test checks it); it differs in how it reports errors.
 */
const positionalCreate = z
  .tuple([
    // Required positions: null, not undefined (which JSON cannot carry), when unused.
    id.nullable(),
    contentKey.nullable(),
    z.unknown().meta({ not: { type: 'null' } }),
    ResponseContext.nullish(),
    id.nullish(),
    z.boolean().nullish(),
    ProfilingModel.nullish(),
  ])
  .meta({
    description: "SPEC's positional form: contentSetId, key, value, context, contentId, revokable, profiling.",
    // The target: contentId (position 4), or contentSetId and key (positions 0 and 1).
    anyOf: [{ prefixItems: [{}, {}, {}, {}, { type: 'string' }], minItems: 5 }, { prefixItems: [{ type: 'string' }, { type: 'string' }] }],
  });
const createInput = z.union([z.tuple([ResponseCreateModel]), positionalCreate]);

export const responsesCreate = declareOperation({
  resource: 'responses',
  name: 'create',
  summary:
    'Records one response on a content item, named by contentId or by contentSetId + key (the item is created on first use unless the set disallows it).',
  args: createArguments,
  input: createInput,
  signature:
    '{ contentSetId?, key?, contentId?, value, context?, revokable?, profiling? }, or contentSetId, key, value, context, contentId, revokable, profiling',
  result: ResponseWriteResultModel,
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
  result: ResponseWriteResultModel,
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
  result: ResponseModel,
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
  result: OptionCountsModel,
  level: 'anonymous',
  readOnly: true,
  errors: ['not-found', 'unauthorized'],
});

export const responsesList = declareOperation({
  resource: 'responses',
  name: 'list',
  summary:
    'Responses of a project, content set or content item, or of a person (userId) across the account, or the messages of a theme or phrase, newest first; page on with the returned cursor (or 1-based $page).',
  args: z.tuple([ResponseQueryModel]),
  signature: '{ $size?, $page? | cursor?, projectId?, contentSetId?, contentId?, userId?, state?, from?, to?, theme? | phrase?, tag? }',
  result: ResponsePageModel,
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
  pagesByCursor: true,
});

export const responsesExport = declareOperation({
  resource: 'responses',
  name: 'export',
  summary: 'Responses of a project, set, item or person as CSV or NDJSON, in chunks of up to 5,000 rows or about 4 MB; page on with the returned cursor.',
  args: z.tuple([ResponseExportModel]),
  signature: "{ projectId? | contentSetId? | contentId? | userId?, from?, to?, state?, format: 'csv' | 'ndjson', cursor? }",
  result: ExportChunkModel,
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
  pagesByCursor: true,
});

export const responsesErase = declareOperation({
  resource: 'responses',
  name: 'erase',
  summary: `Deletes responses of the account for good (a person's by userId, up to ${ERASE_BATCH.toLocaleString('en')} per call, or up to ${MAX_ERASE_IDS} by id); aggregates are corrected. Idempotent.`,
  args: z.tuple([ResponseEraseModel]),
  signature: '{ userId } | { responseIds: string[] }',
  result: EraseResultModel,
  level: 'admin',
  readOnly: false,
  errors: [],
});

const reviewSignature = '{ responseIds: string[] } | { contentId }';

export const responsesRelease = declareOperation({
  resource: 'responses',
  name: 'release',
  summary: `Releases held (quarantined) responses, up to ${REVIEW_BATCH} by id or of an item a call: they are counted and announced as new. Idempotent.`,
  args: z.tuple([ResponseReviewModel]),
  signature: reviewSignature,
  result: ReviewResultModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found'],
});

export const responsesDiscard = declareOperation({
  resource: 'responses',
  name: 'discard',
  summary: `Discards held (quarantined) responses, up to ${REVIEW_BATCH} by id or of an item a call: never counted nor announced, kept for the audit until erased. Idempotent.`,
  args: z.tuple([ResponseReviewModel]),
  signature: reviewSignature,
  result: ReviewResultModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found'],
});

export const responsesRemove = declareOperation({
  resource: 'responses',
  name: 'remove',
  summary: 'Revokes a response (state becomes revoked) while its revocation window is open.',
  args: z.tuple([ResponseRemoveModel]),
  signature: '{ responseId (or feelbackId), revokeToken }',
  result: NoContent,
  level: 'anonymous',
  readOnly: false,
  errors: ['not-found', 'forbidden', 'conflict'],
});

export const responsesImport = declareOperation({
  resource: 'responses',
  name: 'import',
  summary: `Records past responses in a content set, up to ${MAX_IMPORT_ROWS.toLocaleString('en')} rows (and ${IMPORT_MAX_BODY_BYTES / 1024 / 1024} MiB) per call, each once per importId; counted at their createdAt, not sent to webhooks.`,
  args: z.tuple([id, ImportRowsModel]),
  signature: 'contentSetId: string, rows: { key? | contentId?, value, createdAt, userId?, context?, importId }[]',
  result: ImportResultModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
  timeoutSeconds: 28,
  maxBodyBytes: IMPORT_MAX_BODY_BYTES,
});
