/**
 * responses/export: an account's responses as CSV or NDJSON, in chunks a caller pages
 * through with the cursor, bounded like every export (operations/export-chunks.ts).
 */
import type { ResponseExportModel } from '../api/response-models';
import { csvHeader, csvRow, exportRecord, ndjsonLine, type ExportLabels } from '../domain/export-format';
import { getRawItemsChunked, keyOf } from '../store/batch';
import type { ContentItemItem, ContentSetItem, ResponseItem, Store } from '../store/entities';
import { type ExportChunk, exportChunk, type ExportLimits } from './export-chunks';
import { responseListing } from './response-queries';
import { responseView } from '../domain/response-view';

export { EXPORT_MAX_BYTES, EXPORT_MAX_ROWS, EXPORT_TIME_BUDGET_MS, type ExportChunk, type ExportLimits } from './export-chunks';

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

export async function exportResponses(store: Store, accountId: string, input: ResponseExportModel, limits: Partial<ExportLimits> = {}): Promise<ExportChunk> {
  const { source, list } = await responseListing(store, accountId, input, 'responses/export', { format: input.format });
  const labels = input.format === 'csv' ? new Labels(store) : undefined;
  return exportChunk(source, {
    format: input.format,
    list,
    cursor: input.cursor,
    csvHeader: csvHeader(),
    render: (response) => (labels ? csvRow(exportRecord(response, labels.of(response))) : ndjsonLine(responseView(response))),
    prepare: labels ? (responses) => labels.load(responses) : undefined,
    limits,
  });
}
