import * as z from 'zod';
import { CONTENT_STATES, PROJECT_STATES } from '../domain/states';
import { SCHEMAS } from '../domain/schemas';

/**
 * Argument models of SPEC part 2, as zod schemas. Objects are strict: an unknown field
 * is a mistake worth reporting rather than silently ignoring.
 */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;
export const LOOKUP_LIMIT = 20;
/** Revocation windows longer than 30 days would keep tokens alive far past any widget session. */
export const MAX_REVOKE_WINDOW_SECONDS = 30 * 24 * 3600;
export const DEFAULT_REVOKE_WINDOW_SECONDS = 3600;

export const id = z.string().min(1).max(64);
export const lookupText = z.string().max(1024);

export const projectName = z.string().trim().min(1).max(50);
export const description = z.string().max(255);
/**
 * Keys are stored (and content keys hashed) as UTF-8, where a lone surrogate becomes U+FFFD:
 * two different keys would then be one. Such strings are not text; they are refused.
 */
const LONE_SURROGATE = /\p{Cs}/u;
const wellFormed = (text: string) => !LONE_SURROGATE.test(text);
const WELL_FORMED = 'must be well-formed Unicode (no lone surrogates)';
export const setKey = z.string().min(1).max(30).refine(wellFormed, WELL_FORMED);
export const contentKey = z
  .string()
  .min(1)
  .max(1024)
  .refine((key) => Array.from(key).length <= 1024)
  .refine(wellFormed, WELL_FORMED);
export const setName = z.string().trim().min(1).max(100);
export const title = z.string().max(1024);
export const url = z.string().max(2048);
export const revokeWindow = z.number().int().min(0).max(MAX_REVOKE_WINDOW_SECONDS);

export const projectStateFilter = z.enum(['all', ...PROJECT_STATES]);
export const contentStateFilter = z.enum(['all', ...CONTENT_STATES]);
export const schemaName = z.enum(SCHEMAS);

export const ProjectFilters = z.strictObject({ state: projectStateFilter.optional() });
export const ContentSetFilters = z.strictObject({
  state: contentStateFilter.optional(),
  projectId: id.optional(),
  schema: z.union([schemaName, z.array(schemaName).min(1).max(SCHEMAS.length)]).optional(),
});
export const ContentFilters = z.strictObject({
  state: contentStateFilter.optional(),
  projectId: id.optional(),
  contentSetId: id.optional(),
});

export const ProjectCreateModel = z.strictObject({ name: projectName, description: description.optional() });
export const ProjectSaveModel = z.strictObject({
  name: projectName.optional(),
  description: description.optional(),
  state: z.enum(PROJECT_STATES).optional(),
});

export const ContentSetMetadataModel = z.strictObject({
  name: setName,
  description: description.optional(),
  disallowAutoContentCreation: z.boolean().optional(),
  publicAggregates: z.boolean().optional(),
  revokeWindow: revokeWindow.optional(),
});
export const ContentSetCreateModel = z.strictObject({
  projectId: id,
  key: setKey,
  schema: schemaName,
  schemaConfig: z.unknown().optional(),
  metadata: ContentSetMetadataModel,
});
export const ContentSetSaveModel = z.strictObject({
  name: setName.optional(),
  description: description.optional(),
  key: setKey.optional(),
  disallowAutoContentCreation: z.boolean().optional(),
  publicAggregates: z.boolean().optional(),
  revokeWindow: revokeWindow.optional(),
  state: z.enum(CONTENT_STATES).optional(),
});
export const ContentSetKeyModel = z.strictObject({ projectId: id, key: setKey });

export const ContentMetadataModel = z.strictObject({
  title: title.optional(),
  description: description.optional(),
  url: url.optional(),
});
export const ContentCreateModel = z.strictObject({
  contentSetId: id,
  key: contentKey,
  metadata: ContentMetadataModel.optional(),
});
export const ContentSaveModel = z.strictObject({
  title: title.optional(),
  description: description.optional(),
  url: url.optional(),
  key: contentKey.optional(),
  state: z.enum(CONTENT_STATES).optional(),
});
export const ContentKeyModel = z.strictObject({ contentSetId: id, key: contentKey });

export type ProjectFilters = z.infer<typeof ProjectFilters>;
export type ContentSetFilters = z.infer<typeof ContentSetFilters>;
export type ContentFilters = z.infer<typeof ContentFilters>;
export type ProjectCreateModel = z.infer<typeof ProjectCreateModel>;
export type ProjectSaveModel = z.infer<typeof ProjectSaveModel>;
export type ContentSetCreateModel = z.infer<typeof ContentSetCreateModel>;
export type ContentSetSaveModel = z.infer<typeof ContentSetSaveModel>;
export type ContentCreateModel = z.infer<typeof ContentCreateModel>;
export type ContentSaveModel = z.infer<typeof ContentSaveModel>;
