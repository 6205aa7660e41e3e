/**
 * Cursor paging of webhooks/list and webhooks/deliveries over gsi1.
 *
 * Self-contained for now (a shared, tamper-proof cursor module is being written for the
 * other list operations; this one should move onto it when both are merged). A cursor
 * carries only the sort key of the last item returned. The query's partition comes from
 * the caller's own, already checked, arguments, and the table key is derived from the
 * sort key's id, so an edited cursor can at most move the position inside the caller's
 * own partition; a cursor that is not one of ours is `bad-request`.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { badRequest } from '../api/errors';
import type { TableClient } from '../store/dynamo';

const CURSOR_VERSION = 1;
/** `<createdAt ISO>#<22-character id>`: the gsi1 sort keys of webhooks and deliveries. */
const SORT_KEY = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#([A-Za-z0-9_-]{22})$/;
/** Reads per page at most, so a filter that matches little cannot make one call read a whole partition. */
const MAX_READS = 10;

export function encodeCursor(sortKey: string): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, k: sortKey })).toString('base64url');
}

/** The sort key a cursor points after, or a bad-request naming `path`. */
export function decodeCursor(cursor: string, path: string): string {
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: unknown; k?: unknown };
    if (decoded.v === CURSOR_VERSION && typeof decoded.k === 'string' && SORT_KEY.test(decoded.k)) return decoded.k;
  } catch {
    // Reported below.
  }
  throw badRequest('Invalid cursor', [{ path, message: 'not a cursor of this list' }]);
}

export interface PageRequest {
  /** The gsi1 partition (built from checked arguments only). */
  partition: string;
  /** The table key of the item with an id (to resume after it). */
  keyOf(id: string): { pk: string; sk: string };
  newestFirst: boolean;
  size: number;
  cursor?: string;
  cursorPath: string;
  filter?: Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames'> & { values?: Record<string, unknown> };
}

/** One page of gsi1 items: `size` at most, and a cursor when more may follow. */
export async function queryPage(store: TableClient, request: PageRequest): Promise<{ items: Record<string, unknown>[]; cursor?: string }> {
  let start: Record<string, unknown> | undefined;
  if (request.cursor) {
    const sortKey = decodeCursor(request.cursor, request.cursorPath);
    start = { ...request.keyOf(SORT_KEY.exec(sortKey)![1]), gsi1pk: request.partition, gsi1sk: sortKey };
  }
  const items: Record<string, unknown>[] = [];
  for (let reads = 0; reads < MAX_READS; reads++) {
    const page = await store.documentClient.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :partition',
        ExpressionAttributeValues: { ':partition': request.partition, ...request.filter?.values },
        ...(request.filter ? { FilterExpression: request.filter.FilterExpression, ExpressionAttributeNames: request.filter.ExpressionAttributeNames } : {}),
        ScanIndexForward: !request.newestFirst,
        // One more than the page, to know whether another follows.
        Limit: request.filter ? 100 : request.size + 1 - items.length,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
    if (!start || items.length > request.size) break;
  }
  if (items.length > request.size) return { items: items.slice(0, request.size), cursor: encodeCursor(String(items[request.size - 1].gsi1sk)) };
  // Stopped at the read bound: go on from where the reads ended.
  return start ? { items, cursor: encodeCursor(String(start.gsi1sk)) } : { items };
}
