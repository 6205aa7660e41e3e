/**
 * The top list items and the change records that feed them (functions/domain/ranking.ts,
 * functions/jobs/ranker.ts). Raw items, no ElectroDB: the consumer writes change records.
 *
 * | Access pattern                                     | Index  | Partition key                         | Sort key                        |
 * |----------------------------------------------------|--------|---------------------------------------|---------------------------------|
 * | A set's top list                                   | table  | toplist#<accountId>                   | <projectId>#<contentSetId>      |
 * | Top lists of a project (begins_with) / an account  | table  | toplist#<accountId>                   | <projectId>#...                 |
 * | Every top list, for the daily recount of windows   | retire | toplists#<shard 0-7>                  | sk                              |
 * | Sets and items whose counts changed, by minute     | table  | rankchange#<minute>#<shard 0-7>       | <ISO time>#<first event id>     |
 *
 * The lists of an account share its partition, so a project's or an account's top is one
 * Query (a page per MB) whatever the number of items; the ranker writes each list at most
 * once per run, so that partition is never hot. The `retire` index (KEYS_ONLY, sparse)
 * lists every top list for the daily recount of rolling windows: `retirepk` never
 * changes after a list's first write, so later writes cost no index write.
 *
 * Change records are written by the counting consumer, one per stream batch, after the
 * batch's counters: a record names the sets and items a batch changed. They are spread
 * over 8 partitions per minute (by the batch's first event id) and expire after 2 days.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TopList } from '../domain/ranking';
import type { TableClient } from './dynamodb-clients';

export const CHANGE_SHARDS = 8;
const LIST_SHARDS = 8;
const CHANGE_TTL_SECONDS = 2 * 24 * 3600;

export interface ListScope {
  accountId: string;
  projectId: string;
  contentSetId: string;
}

export function topListKey(scope: ListScope) {
  return { pk: `toplist#${scope.accountId}`, sk: `${scope.projectId}#${scope.contentSetId}` };
}

const shardOf = (text: string, shards: number) => createHash('sha256').update(text).digest()[0] % shards;

/** A stored list: the list, its scope and the version its conditional rewrite checks. */
export interface StoredTopList {
  scope: ListScope;
  list: TopList;
  version: number;
}

/**
 * Item ids of a set begin with the set's id (domain/text.ts newContentItemId): the list
 * stores the rest of the id, prefixed by `~`, which halves what a list weighs.
 */
function shortId(contentSetId: string, id: string): string {
  return id.startsWith(contentSetId) ? `~${id.slice(contentSetId.length)}` : id;
}

function fullId(contentSetId: string, stored: string): string {
  return stored.startsWith('~') ? contentSetId + stored.slice(1) : stored;
}

export function storedTopList(raw: Record<string, unknown>): StoredTopList {
  const scope = { accountId: String(raw.accountId), projectId: String(raw.projectId), contentSetId: String(raw.contentSetId) };
  const items = new Map<string, number[]>();
  for (const [id, counts] of Object.entries((raw.items ?? {}) as Record<string, number[]>)) items.set(fullId(scope.contentSetId, id), counts.map(Number));
  return {
    scope,
    list: { buckets: ((raw.buckets ?? []) as string[]).map(String), set: ((raw.set ?? []) as number[]).map(Number), items },
    version: Number(raw.version ?? 0),
  };
}

export async function readTopList(store: TableClient, scope: ListScope, options: { consistent?: boolean } = {}): Promise<StoredTopList | undefined> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: topListKey(scope), ConsistentRead: options.consistent }));
  return Item ? storedTopList(Item) : undefined;
}

/** The top lists of a project (or of every project of the account), every page. */
export async function readTopLists(store: TableClient, accountId: string, projectId?: string): Promise<StoredTopList[]> {
  const lists: StoredTopList[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await store.documentClient.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: projectId === undefined ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :project)',
        ExpressionAttributeValues: { ':pk': `toplist#${accountId}`, ...(projectId === undefined ? {} : { ':project': `${projectId}#` }) },
        ExclusiveStartKey: start,
      }),
    );
    lists.push(...(page.Items ?? []).map(storedTopList));
    start = page.LastEvaluatedKey;
  } while (start);
  return lists;
}

/** Writes a list if it is still at `seenVersion` (absent when 0); false when another run changed it first. */
export async function writeTopList(store: TableClient, scope: ListScope, list: TopList, seenVersion: number, now: Date): Promise<boolean> {
  const items = Object.fromEntries([...list.items].map(([id, counts]) => [shortId(scope.contentSetId, id), counts]));
  try {
    await store.documentClient.send(
      new PutCommand({
        TableName: store.tableName,
        Item: {
          ...topListKey(scope),
          ...scope,
          buckets: list.buckets,
          set: list.set,
          items,
          version: seenVersion + 1,
          updatedAt: now.toISOString(),
          retirepk: `toplists#${shardOf(scope.contentSetId, LIST_SHARDS)}`,
        },
        ...(seenVersion === 0
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : {
              ConditionExpression: '#version = :seen',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':seen': seenVersion },
            }),
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** The key of every top list (the daily recount), from the sparse index, every page of every shard. */
export async function allTopListKeys(store: TableClient): Promise<ListScope[]> {
  const scopes: ListScope[] = [];
  for (let shard = 0; shard < LIST_SHARDS; shard++) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await store.documentClient.send(
        new QueryCommand({
          TableName: store.tableName,
          IndexName: 'retire',
          KeyConditionExpression: 'retirepk = :pk',
          ExpressionAttributeValues: { ':pk': `toplists#${shard}` },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        const accountId = String(item.pk).slice('toplist#'.length);
        const [projectId, contentSetId] = String(item.sk).split('#');
        scopes.push({ accountId, projectId, contentSetId });
      }
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return scopes;
}

/* Change records */

/** What a batch changed: per set, its scope and the items of it whose counts changed. */
export type RankingChanges = Map<string, ListScope & { items: Set<string> }>;

export function minuteKey(at: Date): string {
  return at.toISOString().slice(0, 16);
}

/** Records that a batch changed `changes` (one PutItem; the same batch again writes the same item). */
export async function recordRankingChanges(store: TableClient, changes: RankingChanges, batchId: string, now: Date): Promise<void> {
  if (changes.size === 0) return;
  const sets = Object.fromEntries(
    [...changes].map(([contentSetId, change]) => [contentSetId, { accountId: change.accountId, projectId: change.projectId, items: [...change.items] }]),
  );
  await store.documentClient.send(
    new PutCommand({
      TableName: store.tableName,
      Item: {
        pk: `rankchange#${minuteKey(now)}#${shardOf(batchId, CHANGE_SHARDS)}`,
        sk: `${now.toISOString()}#${batchId}`,
        sets,
        expiresAt: Math.floor(now.getTime() / 1000) + CHANGE_TTL_SECONDS,
      },
    }),
  );
}

/** The change records written in [from, to], merged per set. */
export async function readRankingChanges(store: TableClient, from: Date, to: Date): Promise<{ changes: RankingChanges; records: number }> {
  const changes: RankingChanges = new Map();
  let records = 0;
  for (let minute = new Date(Math.floor(from.getTime() / 60_000) * 60_000); minute <= to; minute = new Date(minute.getTime() + 60_000)) {
    for (let shard = 0; shard < CHANGE_SHARDS; shard++) {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await store.documentClient.send(
          new QueryCommand({
            TableName: store.tableName,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
            ExpressionAttributeValues: { ':pk': `rankchange#${minuteKey(minute)}#${shard}`, ':from': from.toISOString(), ':to': `${to.toISOString()}~` },
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) {
          records++;
          for (const [contentSetId, change] of Object.entries(item.sets as Record<string, { accountId: string; projectId: string; items: string[] }>)) {
            const merged = changes.get(contentSetId) ?? { accountId: change.accountId, projectId: change.projectId, contentSetId, items: new Set<string>() };
            for (const id of change.items) merged.items.add(id);
            changes.set(contentSetId, merged);
          }
        }
        start = page.LastEvaluatedKey;
      } while (start);
    }
  }
  return { changes, records };
}
