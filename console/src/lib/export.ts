/** Downloads through responses/export and audit/export: pages through the cursor, then saves one file. */
import type { ExportChunk, FeedbackClient, ResponseExportModel } from '@feedback-service/client';

export interface ExportProgress {
  rows: number;
  chunks: number;
}

/** Reads an export's chunks through their cursor until the last; undefined when cancelled meanwhile. */
export async function readChunks(
  read: (cursor: string | undefined) => Promise<ExportChunk>,
  onProgress: (progress: ExportProgress) => void,
  signal: { cancelled: boolean },
): Promise<{ parts: string[]; rows: number } | undefined> {
  const parts: string[] = [];
  let rows = 0;
  let cursor: string | undefined;
  do {
    const chunk = await read(cursor);
    if (signal.cancelled) return undefined;
    parts.push(chunk.data);
    rows += chunk.rows;
    cursor = chunk.cursor;
    onProgress({ rows, chunks: parts.length });
  } while (cursor);
  return { parts, rows };
}

export function exportAll(
  client: FeedbackClient,
  query: Omit<ResponseExportModel, 'format' | 'cursor'>,
  format: ExportChunk['format'],
  onProgress: (progress: ExportProgress) => void,
  signal: { cancelled: boolean },
): Promise<{ parts: string[]; rows: number } | undefined> {
  return readChunks((cursor) => client.responses.export({ ...query, format, ...(cursor ? { cursor } : {}) }), onProgress, signal);
}

export function saveFile(parts: string[], fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
