/**
 * audit/list and audit/export: an account's audit log (written by the adapter,
 * functions/api/audit.ts), newest first, through the one cursor paging (paging.ts) and the
 * one export machinery (export-chunks.ts).
 */
import type { AuditExportModel, AuditListModel } from '../api/audit-models';
import { DEFAULT_AUDIT_PAGE_SIZE } from '../api/audit-models';
import { AUDIT_CSV_COLUMNS, auditCsvRecord } from '../domain/audit';
import { csvCells, ndjsonLine } from '../domain/export-format';
import { type AuditFilter, auditEntryOf, readAuditEntries } from '../store/audit';
import type { TableClient } from '../store/dynamodb-clients';
import { exportChunk, type ExportLimits } from './export-chunks';
import { type CursorScope, cursorPage, type IndexSource } from './paging';

type Selection = AuditFilter & { cursor?: string };

/**
 * The account's audit partition as a source for the paging helpers: a position is the
 * last item's keys, where the next read starts. Positions only leave sealed in a cursor
 * bound to the account and the filters, so they need no checks here.
 */
function auditSource(store: TableClient, accountId: string, filter: AuditFilter): IndexSource<Record<string, unknown>> {
  return {
    read: async (start, count) => {
      const { items, resume } = await readAuditEntries(store, accountId, filter, { count, start: start === null ? undefined : JSON.parse(start) });
      return resume ? { items, resume: JSON.stringify(resume) } : { items };
    },
    positionOf: (item) => JSON.stringify({ pk: item.pk, sk: item.sk }),
  };
}

function filterOf(selection: Selection): AuditFilter {
  const { actor, operation, targetId, outcome, from, to } = selection;
  return { actor, operation, targetId, outcome, from, to };
}

function scopeOf(accountId: string, operation: string, selection: Selection, extra: Record<string, unknown> = {}): CursorScope {
  return { accountId, path: 'args.0.cursor', scope: { operation, ...filterOf(selection), ...extra } };
}

export async function listAuditEntries(store: TableClient, accountId: string, query: AuditListModel | null | undefined) {
  const selection = query ?? { $size: DEFAULT_AUDIT_PAGE_SIZE };
  const page = await cursorPage(auditSource(store, accountId, filterOf(selection)), scopeOf(accountId, 'audit/list', selection), {
    cursor: selection.cursor,
    size: selection.$size,
  });
  return { items: page.items.map(auditEntryOf), ...(page.cursor === undefined ? {} : { cursor: page.cursor }) };
}

export async function exportAuditEntries(store: TableClient, accountId: string, input: AuditExportModel, limits: Partial<ExportLimits> = {}) {
  return exportChunk(auditSource(store, accountId, filterOf(input)), {
    format: input.format,
    list: scopeOf(accountId, 'audit/export', input, { format: input.format }),
    cursor: input.cursor,
    csvHeader: csvCells(AUDIT_CSV_COLUMNS),
    render: (item) => {
      const entry = auditEntryOf(item);
      if (input.format === 'ndjson') return ndjsonLine(entry);
      const record = auditCsvRecord(entry);
      return csvCells(AUDIT_CSV_COLUMNS.map((column) => record[column]));
    },
    limits,
  });
}
