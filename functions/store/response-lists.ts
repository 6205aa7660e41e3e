/**
 * One partition of a responses' list index (gsi1-gsi3, items.ts `responseListPartition`),
 * read raw, newest first: the unit the merged lists of operations/response-lists.ts are
 * made of. Sort keys are `<createdAt>#<id>`, unique across partitions.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { RESPONSE_SHARDS } from '../domain/response-shards';
import type { TableClient } from './dynamodb-clients';
import { keys, type RawItem, type ResponseListIndex, responseListPartition } from './items';

/** Every partition a list reads: its shards, then the unsharded one of earlier responses. */
export function listPartitions(index: ResponseListIndex, scopeId: string): string[] {
  return [...RESPONSE_SHARDS.map((shard) => responseListPartition(index, scopeId, shard)), responseListPartition(index, scopeId)];
}

export interface PartitionRead {
  index: ResponseListIndex;
  partition: string;
  /** Sort keys from (inclusive) and to (exclusive): `<createdAt>` bounds of `<createdAt>#<id>` keys. */
  from?: string;
  to?: string;
  /** Only responses in this state (a filter: the items it drops still count against `limit`). */
  state?: string;
  /** Items to examine. */
  limit: number;
  /** Read below this sort key (exclusive). */
  below?: string;
}

export interface PartitionPage {
  items: RawItem[];
  /** The sort key of the last item examined, when the partition may hold more below it. */
  frontier?: string;
}

/** The id a response sort key ends with (ids hold no `#`). */
const idOfSortKey = (sortKey: string) => sortKey.slice(sortKey.lastIndexOf('#') + 1);

export async function readResponsePartition(table: TableClient, read: PartitionRead): Promise<PartitionPage> {
  const { index, partition, from, to, state, limit, below } = read;
  const names: Record<string, string> = { '#pk': `${index}pk` };
  const values: Record<string, unknown> = { ':partition': partition };
  // `to` is a bare `<createdAt>`, below every key that starts with it: inclusive bounds exclude it.
  let range = '';
  if (from !== undefined || to !== undefined) names['#sk'] = `${index}sk`;
  if (from !== undefined && to !== undefined) {
    range = ' AND #sk BETWEEN :from AND :to';
    Object.assign(values, { ':from': from, ':to': to });
  } else if (from !== undefined) {
    range = ' AND #sk >= :from';
    values[':from'] = from;
  } else if (to !== undefined) {
    range = ' AND #sk < :to';
    values[':to'] = to;
  }
  if (state !== undefined) {
    names['#state'] = 'state';
    values[':state'] = state;
  }
  const answer = await table.documentClient.send(
    new QueryCommand({
      TableName: table.tableName,
      IndexName: index,
      KeyConditionExpression: `#pk = :partition${range}`,
      ...(state === undefined ? {} : { FilterExpression: '#state = :state' }),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: limit,
      // Below a sort key: the index key of the response it names (which need not be in this partition).
      ...(below === undefined ? {} : { ExclusiveStartKey: { ...keys.response(idOfSortKey(below)), [`${index}pk`]: partition, [`${index}sk`]: below } }),
    }),
  );
  const last = answer.LastEvaluatedKey?.[`${index}sk`];
  return { items: answer.Items ?? [], ...(typeof last === 'string' ? { frontier: last } : {}) };
}

/**
 * Every response of a list, in no particular order, a page at a time (each partition in
 * turn): for work that reads them all, such as recounting a project (jobs/rebuild.ts).
 */
export async function forEachListedResponse(
  table: TableClient,
  index: ResponseListIndex,
  scopeId: string,
  onPage: (responses: RawItem[]) => void | Promise<void>,
  pageSize = 500,
): Promise<void> {
  for (const partition of listPartitions(index, scopeId)) {
    let below: string | undefined;
    do {
      const page = await readResponsePartition(table, { index, partition, limit: pageSize, below });
      if (page.items.length > 0) await onPage(page.items);
      below = page.frontier;
    } while (below !== undefined);
  }
}
