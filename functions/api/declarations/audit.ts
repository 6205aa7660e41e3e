import * as z from 'zod';
import { declareOperation } from '../operation';
import { AuditExportModel, AuditListModel } from '../audit-models';
import { AuditPageModel, ExportChunkModel } from '../result-models';

/**
 * The account's audit log (functions/api/audit.ts writes it): every call by a key that
 * changed or tried to change something, kept 400 days. Reading it changes nothing, so
 * these two are not audited themselves.
 */
export const auditList = declareOperation({
  resource: 'audit',
  name: 'list',
  summary: "The account's audit log, newest first, optionally by actor, operation, target id and time; page on with the returned cursor.",
  args: z.tuple([AuditListModel.nullish()]),
  signature: 'query?: { $size?, cursor?, actor?, operation?, targetId?, from?, to? }',
  result: AuditPageModel,
  level: 'admin',
  readOnly: true,
  errors: [],
  pagesByCursor: true,
});

export const auditExport = declareOperation({
  resource: 'audit',
  name: 'export',
  summary: "The account's audit log as CSV or NDJSON, newest first, in chunks like responses/export; page on with the returned cursor.",
  args: z.tuple([AuditExportModel]),
  signature: "{ actor?, operation?, targetId?, from?, to?, format: 'csv' | 'ndjson', cursor? }",
  result: ExportChunkModel,
  level: 'admin',
  readOnly: true,
  errors: [],
  pagesByCursor: true,
});
