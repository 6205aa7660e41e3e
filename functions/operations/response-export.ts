/**
 * responses/export: an account's responses as CSV or NDJSON, in chunks a caller pages
 * through with the cursor. A call stops at whichever comes first: 5,000 rows, about 4 MB of
 * data (counted as it is encoded in the JSON answer, so the answer stays under Lambda's
 * 6 MB and API Gateway's 10 MB), or a time budget that keeps it well inside the function's
 * timeout however slow the reads are. At least one row is always taken, so paging ends.
 */
import type { ResponseExportModel } from '../api/response-models';
import { csvHeader, csvRow, exportRecord, jsonBytes, ndjsonLine, type ExportLabels } from '../domain/export-format';
import { getRawItemsChunked, keyOf } from '../store/batch';
import type { ContentItemItem, ContentSetItem, ResponseItem, Store } from '../store/entities';
import { openPosition, sealPosition, walkIndex } from './paging';
import { responseListing, responseView } from './response-queries';

export const EXPORT_MAX_ROWS = 5000;
export const EXPORT_MAX_BYTES = 4 * 1024 * 1024;
/** API functions time out after 10 s; reads of a chunk take well under a second. */
export const EXPORT_TIME_BUDGET_MS = 6000;
/** Responses read (and their sets and items batch-read) per round. */
const EXPORT_CHUNK = 500;

export interface ExportChunk {
  format: 'csv' | 'ndjson';
  /** CSV rows (the header row only in the first chunk) or NDJSON lines. */
  data: string;
  rows: number;
  /** Present while more rows remain. */
  cursor?: string;
}

/**
 * Set keys and item keys and titles by id, read in one batch per chunk for the ids not
 * seen yet in this call (no read per row).
 */
class Labels {
  private readonly sets = new Map<string, ContentSetItem | null>();
  private readonly items = new Map<string, ContentItemItem | null>();

  constructor(private readonly store: Store) {}

  async load(responses: ResponseItem[]): Promise<void> {
    const { ContentSet, ContentItem } = this.store.entities;
    const setIds = [...new Set(responses.map((response) => response.contentSetId))].filter((id) => !this.sets.has(id));
    const itemIds = [...new Set(responses.map((response) => response.contentItemId))].filter((id) => !this.items.has(id));
    if (setIds.length + itemIds.length === 0) return;
    const raw = await getRawItemsChunked(this.store, [
      ...setIds.map((id) => keyOf(ContentSet.get({ id }))),
      ...itemIds.map((id) => keyOf(ContentItem.get({ id }))),
    ]);
    setIds.forEach((id, index) => {
      const item = raw[index];
      this.sets.set(id, item ? (ContentSet.parse({ Item: item }).data as ContentSetItem) : null);
    });
    itemIds.forEach((id, index) => {
      const item = raw[setIds.length + index];
      this.items.set(id, item ? (ContentItem.parse({ Item: item }).data as ContentItemItem) : null);
    });
  }

  of(response: ResponseItem): ExportLabels {
    const contentSet = this.sets.get(response.contentSetId);
    const item = this.items.get(response.contentItemId);
    return { contentSetKey: contentSet?.key, contentKey: item?.key, contentTitle: item?.title };
  }
}

/** What bounds one call; tests shrink them to exercise chunking on little data. */
export interface ExportLimits {
  maxRows: number;
  maxBytes: number;
  timeBudgetMs: number;
  clock: () => number;
}

const DEFAULT_LIMITS: ExportLimits = { maxRows: EXPORT_MAX_ROWS, maxBytes: EXPORT_MAX_BYTES, timeBudgetMs: EXPORT_TIME_BUDGET_MS, clock: Date.now };

export async function exportResponses(store: Store, accountId: string, input: ResponseExportModel, limits: Partial<ExportLimits> = {}): Promise<ExportChunk> {
  const { maxRows, maxBytes, timeBudgetMs, clock } = { ...DEFAULT_LIMITS, ...limits };
  const started = clock();
  const { source, list } = await responseListing(store, accountId, input, 'responses/export', { format: input.format });
  const start = await openPosition(list, input.cursor);
  const parts: string[] = input.format === 'csv' && input.cursor === undefined ? [csvHeader()] : [];
  let bytes = parts.length > 0 ? jsonBytes(parts[0]) : 0;
  let rows = 0;
  if (!source) return { format: input.format, data: parts.join(''), rows };

  const labels = input.format === 'csv' ? new Labels(store) : undefined;
  const walked = await walkIndex(source, {
    start,
    limit: maxRows,
    chunk: Math.min(EXPORT_CHUNK, maxRows),
    visit: async (responses) => {
      await labels?.load(responses);
      let taken = 0;
      for (const response of responses) {
        const text = labels ? csvRow(exportRecord(response, labels.of(response))) : ndjsonLine(responseView(response));
        const size = jsonBytes(text);
        if (rows > 0 && (bytes + size > maxBytes || clock() - started > timeBudgetMs)) break;
        parts.push(text);
        bytes += size;
        rows++;
        taken++;
      }
      return taken;
    },
  });
  const cursor = walked.more && walked.next !== null ? await sealPosition(list, walked.next) : undefined;
  return { format: input.format, data: parts.join(''), rows, ...(cursor === undefined ? {} : { cursor }) };
}
