import * as z from 'zod';
import { checkTimeRange, id, instant, MAX_PAGE_SIZE } from './models';
import { cursor, EXPORT_FORMATS } from './response-models';

export const DEFAULT_AUDIT_PAGE_SIZE = 50;

/** Which entries audit/list and audit/export read: the actor's key id, the operation, a target id, the outcome, a time range. */
const auditSelection = {
  actor: id.optional(),
  operation: z
    .string()
    .regex(/^[a-z]+\/[A-Za-z]+$/, 'an operation name, <resource>/<name>')
    .max(64)
    .optional(),
  targetId: id.optional(),
  /** `ok`: the calls that succeeded; `refused`: those answered with an error (any code). */
  outcome: z.enum(['ok', 'refused']).optional(),
  from: instant.optional(),
  to: instant.optional(),
  cursor: cursor.optional(),
};

export const AuditListModel = z
  .strictObject({ ...auditSelection, $size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_AUDIT_PAGE_SIZE) })
  .superRefine(checkTimeRange)
  .meta({
    id: 'AuditListModel',
    description:
      'Which audit entries to list: by actor (key id or membership id), operation, target id, outcome (`ok` or `refused`), and `from` (inclusive) / `to` (exclusive) times.',
  });
export type AuditListModel = z.infer<typeof AuditListModel>;

export const AuditExportModel = z
  .strictObject({ ...auditSelection, format: z.enum(EXPORT_FORMATS) })
  .superRefine(checkTimeRange)
  .meta({ id: 'AuditExportModel', description: 'Which audit entries audit/export writes (see audit/list), and in which format.' });
export type AuditExportModel = z.infer<typeof AuditExportModel>;
