import * as z from 'zod';
import { CONTENT_STATES, PROJECT_STATES } from '../domain/states';
import { SCHEMAS } from '../domain/schemas';
import { storable } from '../domain/stored-numbers';
import { MAX_ADDRESS_LIMIT } from '../domain/quarantine';
import { nameText } from '../domain/names';

/**
 * Argument models of SPEC part 2, as zod schemas. Objects are strict: an unknown field
 * is a mistake worth reporting rather than silently ignoring. Models named with
 * `.meta({ id })` are components of the OpenAPI document and types of the client.
 */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;
export const LOOKUP_LIMIT = 20;
/** Revocation windows longer than 30 days would keep tokens alive far past any widget session. */
export const MAX_REVOKE_WINDOW_SECONDS = 30 * 24 * 3600;
export const DEFAULT_REVOKE_WINDOW_SECONDS = 3600;

export const id = z.string().min(1).max(64);

/**
 * Every date argument of the API, one grammar (docs/api.md, "Identifiers, dates, states"):
 * a calendar date `YYYY-MM-DD`, meaning its UTC midnight, or an RFC 3339 date-time with
 * seconds and `Z` or an offset (`2026-11-16T10:00:00Z`, `2026-11-16T10:00:00.5+02:00`),
 * within the years 0000 to 9999 in UTC. A date-time without an offset is refused: it would
 * be read in the server's time zone. Parsed once here and handed on in one form, ISO 8601
 * in UTC with milliseconds (`2026-11-16T08:00:00.000Z`).
 */
export const INSTANT_RULE = 'must be a date YYYY-MM-DD (its UTC midnight) or a date-time YYYY-MM-DDTHH:MM:SS with Z or an offset (±HH:MM)';
export const instant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: INSTANT_RULE })
  .transform((text) => new Date(text).toISOString())
  .refine((utc) => /^\d{4}-/.test(utc), 'must be within the years 0000 to 9999 in UTC')
  .meta({ id: 'Instant', description: 'A date YYYY-MM-DD (its UTC midnight) or a date-time with seconds and Z or an offset.' });

export const lookupText = z.string().max(1024);

/** A time range's rule: `from` (inclusive) before `to` (exclusive), both instants in UTC (so their text orders as time). */
export function checkTimeRange(range: { from?: string; to?: string }, context: z.RefinementCtx): void {
  if (range.from && range.to && range.from >= range.to) context.addIssue({ code: 'custom', path: ['to'], message: 'from must be before to' });
}

export const projectName = nameText(50);
export const description = z.string().max(255);
/**
 * Keys are stored (and content keys hashed) as UTF-8, where a lone surrogate becomes U+FFFD:
 * two different keys would then be one. Such strings are not text; they are refused. A
 * pattern rather than a refinement, so that the OpenAPI document carries the rule; it reads
 * the same with and without the regular expression's `u` flag.
 */
const WELL_FORMED_PATTERN = /^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
const WELL_FORMED = 'must be well-formed Unicode (no lone surrogates)';
export const setKey = z.string().min(1).max(30).regex(WELL_FORMED_PATTERN, WELL_FORMED);
export const contentKey = z.string().min(1).max(1024).regex(WELL_FORMED_PATTERN, WELL_FORMED);
export const setName = nameText(100);
/** An item's title: empty for none. */
export const title = nameText(1024, 0);
export const url = z.string().max(2048);
export const revokeWindow = z.number().int().min(0).max(MAX_REVOKE_WINDOW_SECONDS);
/** Past a thousand, a threshold hides counts nobody could single anyone out of. */
export const MAX_PUBLIC_MIN_COUNT = 1000;
export const publicMinCount = z.number().int().min(0).max(MAX_PUBLIC_MIN_COUNT);

/**
 * A set's alert settings as given: any of the fields, the others keep their value (or their
 * default: docs/api.md "Alerts"). `minDrop` is in the score's own unit (a share, a rating, a sentiment).
 */
export const AlertSettingsInputModel = z
  .strictObject({
    enabled: z.boolean().optional(),
    minResponses: z.number().int().min(1).max(1_000_000).optional(),
    minDrop: storable(z.number().positive().max(2_000_000)).optional(),
  })
  .meta({ id: 'AlertSettingsInput', description: "A content set's alert settings to change: on or off, the fewest responses per window, the smallest drop." });

/** A set's quarantine settings as given (docs/api.md "Quarantine"): any of the fields, the others keep their value or default. */
export const QuarantineSettingsInputModel = z
  .strictObject({
    visitorBurst: z.number().int().min(0).max(1000).optional(),
    addressLimit: z.number().int().min(0).max(MAX_ADDRESS_LIMIT).optional(),
    surgeFactor: z.number().int().min(1).max(1000).optional(),
    surgeFloor: z.number().int().min(0).max(1_000_000).optional(),
    spamCheck: z.boolean().optional(),
  })
  .meta({
    id: 'QuarantineSettingsInput',
    description:
      "A content set's quarantine settings to change: one visitor's (or address's) most responses on an item a minute, one address's most visitors on an item a day, the surge rule's factor and floor, the spam check of messages.",
  });

export const projectStateFilter = z.enum(['all', ...PROJECT_STATES]);
export const contentStateFilter = z.enum(['all', ...CONTENT_STATES]);
export const schemaName = z.enum(SCHEMAS).meta({ id: 'SchemaName', description: "A content set's feedback schema." });

export const ProjectFilters = z
  .strictObject({ state: projectStateFilter.optional() })
  .meta({ id: 'ProjectFilters', description: 'Filters of projects/lookup.' });
export const ContentSetFilters = z
  .strictObject({
    state: contentStateFilter.optional(),
    projectId: id.optional(),
    schema: z.union([schemaName, z.array(schemaName).min(1).max(SCHEMAS.length)]).optional(),
  })
  .meta({ id: 'ContentSetFilters', description: 'Filters of sets/lookup.' });
export const ContentFilters = z
  .strictObject({
    state: contentStateFilter.optional(),
    projectId: id.optional(),
    contentSetId: id.optional(),
  })
  .meta({ id: 'ContentFilters', description: 'Filters of contents/lookup.' });

export const ProjectCreateModel = z
  .strictObject({ name: projectName, description: description.optional() })
  .meta({ id: 'ProjectCreateModel', description: 'A new project.' });
export const ProjectSaveModel = z
  .strictObject({
    name: projectName.optional(),
    description: description.optional(),
    state: z.enum(PROJECT_STATES).optional(),
  })
  .meta({ id: 'ProjectSaveModel', description: 'The fields of a project to change.' });

export const ContentSetMetadataModel = z
  .strictObject({
    name: setName,
    description: description.optional(),
    disallowAutoContentCreation: z.boolean().optional(),
    publicAggregates: z.boolean().optional(),
    revokeWindow: revokeWindow.optional(),
    alerts: AlertSettingsInputModel.optional(),
    onePerVisitor: z.boolean().optional(),
    publicMinCount: publicMinCount.optional(),
    quarantine: QuarantineSettingsInputModel.optional(),
  })
  .meta({ id: 'ContentSetMetadataModel', description: "A new content set's name, description and flags." });
export const ContentSetCreateModel = z
  .strictObject({
    projectId: id,
    key: setKey,
    schema: schemaName,
    schemaConfig: z.unknown().optional(),
    metadata: ContentSetMetadataModel,
  })
  .meta({ id: 'ContentSetCreateModel', description: 'A new content set; schemaConfig is checked against the schema.' });
export const ContentSetSaveModel = z
  .strictObject({
    name: setName.optional(),
    description: description.optional(),
    key: setKey.optional(),
    disallowAutoContentCreation: z.boolean().optional(),
    publicAggregates: z.boolean().optional(),
    revokeWindow: revokeWindow.optional(),
    alerts: AlertSettingsInputModel.optional(),
    onePerVisitor: z.boolean().optional(),
    publicMinCount: publicMinCount.optional(),
    quarantine: QuarantineSettingsInputModel.optional(),
    state: z.enum(CONTENT_STATES).optional(),
  })
  .meta({ id: 'ContentSetSaveModel', description: 'The fields of a content set to change.' });
export const ContentSetKeyModel = z
  .strictObject({ projectId: id, key: setKey })
  .meta({ id: 'ContentSetKey', description: 'A content set named by its project and key.' });

export const ContentMetadataModel = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    url: url.optional(),
  })
  .meta({ id: 'ContentMetadataModel', description: "A content item's title, description and url." });
export const ContentCreateModel = z
  .strictObject({
    contentSetId: id,
    key: contentKey,
    metadata: ContentMetadataModel.optional(),
  })
  .meta({ id: 'ContentCreateModel', description: 'A new content item.' });
export const ContentSaveModel = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    url: url.optional(),
    key: contentKey.optional(),
    state: z.enum(CONTENT_STATES).optional(),
  })
  .meta({ id: 'ContentSaveModel', description: 'The fields of a content item to change.' });
export const ContentKeyModel = z
  .strictObject({ contentSetId: id, key: contentKey })
  .meta({ id: 'ContentKey', description: 'A content item named by its set and key.' });

export type ProjectFilters = z.infer<typeof ProjectFilters>;
export type ContentSetFilters = z.infer<typeof ContentSetFilters>;
export type ContentFilters = z.infer<typeof ContentFilters>;
export type ProjectCreateModel = z.infer<typeof ProjectCreateModel>;
export type ProjectSaveModel = z.infer<typeof ProjectSaveModel>;
export type ContentSetCreateModel = z.infer<typeof ContentSetCreateModel>;
export type ContentSetSaveModel = z.infer<typeof ContentSetSaveModel>;
export type ContentCreateModel = z.infer<typeof ContentCreateModel>;
export type ContentSaveModel = z.infer<typeof ContentSaveModel>;
