/**
 * The top list items and the change records that feed them (functions/domain/ranking.ts,
 * functions/jobs/ranker.ts). Raw items, no ElectroDB: the consumer writes change records.
 *
 * | Access pattern                                     | Index  | Partition key                         | Sort key                        |
 * |----------------------------------------------------|--------|---------------------------------------|---------------------------------|
 * | A set's top list: the parts of its items           | table  | toplist#<accountId>                   | <projectId>#<setId>#items#<n>   |
 * | Top lists of a project (begins_with) / an account  | table  | toplist#<accountId>                   | <projectId>#...                 |
 * | Every top list, for the daily recount of windows   | retire | toplists#<shard 0-7>                  | sk                              |
 * | Sets and items whose counts changed, by minute     | table  | rankchange#<minute>#<shard 0-7>       | <ISO time>#<first event id>     |
 *
 * The lists of an account share its partition, so a project's or an account's top is one
 * Query (a page per MB) whatever the number of items; the ranker writes each list at most
 * once per run, so that partition is never hot. The `retire` index (KEYS_ONLY, sparse)
 * lists every part of every top list for the daily recount of rolling windows:
 * `retirepk` never changes after a part's first write, so later writes cost no index write.
 *
 * Change records are written by the counting consumer, one per stream batch, after the
 * batch's counters: a record names the sets and items a batch changed, and per set the
 * earliest day (UTC) of the responses it counted (`from`: what the ranker keeps of past
 * days is stale from then on). They are spread
 * over 8 partitions per minute (by the batch's first event id) and expire after 2 days.
 * The ranker and the alerts job read them in runs from a checkpoint item of their own
 * (`<job>` / `checkpoint`: `readChangesSinceCheckpoint`, `saveChangeCheckpoint`).
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { TOP_PERIODS } from '../../shared/periods';
import { carriesOver, rankedBound, sameTopList, type PeriodScores, type TopList } from '../domain/ranking';
import type { TableClient } from './dynamodb-clients';

export const CHANGE_SHARDS = 8;
const LIST_SHARDS = 8;
const CHANGE_TTL_SECONDS = 2 * 24 * 3600;

export interface ListScope {
  accountId: string;
  projectId: string;
  contentSetId: string;
}

/** The partition of an account's lists, and the sort key prefix of one set's list parts. */
function listPrefix(scope: ListScope) {
  return { pk: `toplist#${scope.accountId}`, prefix: `${scope.projectId}#${scope.contentSetId}#` };
}

const shardOf = (text: string, shards: number) => createHash('sha256').update(text).digest()[0] % shards;

/**
 * A list is stored in up to ITEM_PARTS parts of its items (`...#items#<n>`, by a hash of
 * the item id). A run writes only the parts whose items changed: one response costs one
 * small part, not the whole list (a write costs 1 WRU per KB of the item written, rounded
 * up). Every part written also carries the set's counts and the buckets, and a reader
 * takes them from the latest part (`latestPart`): the set's counts change with every
 * response, and a header item of their own would cost a second write per run. 64 parts
 * hold one or two items each in a list of 100: under 1 KB each, also for pages whose
 * periods all have scores of their own, so a response on one page costs 1 WRU here (16
 * parts cost 2.3 on average for such pages, 32 parts 1.4; a list of 100 is then 35 KB to
 * read, against 26 KB in 16 parts: docs/scaling.md, "Rankings"). Each part names the
 * number of parts it was hashed for (`parts`): a part of another number is of an older
 * layout, rewritten at the list's next write, its items kept (the release before read
 * such parts alike, which keeps a deploy and its rollback whole).
 */
export const ITEM_PARTS = 64;
/** The part an item is stored in. */
export const itemPart = (id: string) => `items#${shardOf(id, ITEM_PARTS)}`;
/** The part that carries a changed set count when no part's items changed. */
const FIRST_PART = 'items#0';

/** A stored list: the list, its scope and the version of each part its conditional rewrite checks. */
export interface StoredTopList {
  scope: ListScope;
  list: TopList;
  versions: Map<string, number>;
  /** The list's write count, carried by the parts each write wrote. */
  writes: number;
  /** The parts written before lists named their schema or for another number of parts: rewritten at the next write, even unchanged. */
  olderLayout: Set<string>;
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

const carriesOverAt = (index: number) => carriesOver(TOP_PERIODS[index]);

/**
 * The ranked periods of lists written before day and lifetime were ranked, in their order.
 * Such a part is read in today's layout: day and lifetime with no count and a stale bucket,
 * so the ranker recounts every member of the list at its next run and writes it anew.
 */
const EARLIER_LAYOUT = ['week', 'month', 'year', 'rolling7d', 'rolling28d', 'rolling12m'];

function inLayout<T>(values: T[], missing: T): T[] {
  if (values.length !== EARLIER_LAYOUT.length || TOP_PERIODS.length === EARLIER_LAYOUT.length) return values;
  return TOP_PERIODS.map((period) => (EARLIER_LAYOUT.includes(period) ? values[EARLIER_LAYOUT.indexOf(period)] : missing));
}

/**
 * The part whose set counts and buckets are the list's: the one whose set counts were read
 * from the most counter writes (`cv`, the list's `setVersion`: the latest counts, whichever
 * run wrote last), then the highest write count (`writes`, one more than the list's at
 * every write: the buckets of a later run with the same counts), then the part's name. No
 * clock decides. Two runs that start from the same list write the same write count, each
 * on parts of its own; ordered by write count alone, the part with the greater name would
 * win, and with it counts read before the other run's, until the set's next change.
 */
function latestPart(parts: Record<string, unknown>[]): Record<string, unknown> | undefined {
  const later = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    Number(a.cv ?? -1) - Number(b.cv ?? -1) ||
    Number(a.writes ?? 0) - Number(b.writes ?? 0) ||
    (String(a.sk) > String(b.sk) ? 1 : String(a.sk) < String(b.sk) ? -1 : 0);
  return parts.reduce<Record<string, unknown> | undefined>((latest, part) => (!latest || later(part, latest) > 0 ? part : latest), undefined);
}

/**
 * One set's list from its parts. The set's counts and the buckets are the latest part's; a
 * part written in an earlier calendar bucket counts 0 there; a rolling window on which the
 * parts disagree is marked stale (empty bucket), so the ranker recounts every member.
 */
function combineParts(scope: ListScope, parts: Record<string, unknown>[]): StoredTopList {
  const prefix = listPrefix(scope).prefix;
  const latest = latestPart(parts);
  const buckets = inLayout(((latest?.buckets ?? []) as string[]).map(String), '');
  const items = new Map<string, number[]>();
  const scores = new Map<string, PeriodScores>();
  const versions = new Map<string, number>();
  const olderLayout = new Set<string>();
  const scored = typeof (latest?.setBounds ?? latest?.setScores) === 'string';
  for (const part of parts) {
    const name = String(part.sk).slice(prefix.length);
    versions.set(name, Number(part.version ?? 0));
    if (part.schema === undefined || part.parts !== ITEM_PARTS) olderLayout.add(name);
    const partBuckets = inLayout(((part.buckets ?? []) as string[]).map(String), '');
    partBuckets.forEach((bucket, index) => {
      // A part written before lists named their schema (and kept scores) is of an older layout: stale, so the ranker recounts every member.
      if (carriesOverAt(index) && (bucket !== buckets[index] || part.schema === undefined)) buckets[index] = '';
    });
    const passed = (index: number) => !carriesOverAt(index) && partBuckets[index] !== buckets[index];
    for (const [id, counts] of Object.entries((part.items ?? {}) as Record<string, string>)) {
      items.set(
        fullId(scope.contentSetId, id),
        inLayout(counts.split('.'), '0').map((count, index) => (passed(index) ? 0 : Number(count))),
      );
    }
    for (const [id, text] of Object.entries((part.bounds ?? part.scores ?? {}) as Record<string, string>)) {
      scores.set(
        fullId(scope.contentSetId, id),
        decodeScores(text).map((score, index) => (passed(index) ? null : score)),
      );
    }
  }
  const list: TopList = {
    buckets,
    set: inLayout(((latest?.set ?? []) as number[]).map(Number), 0),
    ...(latest?.cv === undefined ? {} : { setVersion: Number(latest.cv) }),
    items,
    ...(latest?.schema === undefined ? {} : { schema: String(latest.schema) }),
    ...(scored ? { setScores: decodeScores(String(latest!.setBounds ?? latest!.setScores)), scores } : {}),
  };
  return { scope, list, versions, writes: Number(latest?.writes ?? 0), olderLayout };
}

/**
 * Scores as stored (`bounds`, `setBounds`): one string, the periods in TOP_PERIODS order
 * separated by `;`, each `<low>,<high>`, `=<k>` where it has the bounds of the earlier
 * period k (a page answered only this week has the same score in most periods), or empty
 * where the period has no score. Bounds keep the places rankings compare them to
 * (ranking.ts `rankedBound`, 4 decimals), a leading `0.` written `.`: more would change no
 * rank and weigh on every write. Parts written before keep 8 significant digits (or, as
 * `scores` and `setScores`, full doubles without shorthands) and read alike.
 */
export function encodeScores(scores: PeriodScores): string {
  const bound = (value: number) => String(rankedBound(value)).replace(/^(-?)0\./, '$1.');
  const texts: string[] = [];
  return scores
    .map((score) => {
      const text = score ? `${bound(score.low)},${bound(score.high)}` : '';
      const earlier = text ? texts.indexOf(text) : -1;
      texts.push(text);
      return earlier >= 0 ? `=${earlier}` : text;
    })
    .join(';');
}

export function decodeScores(text: string): PeriodScores {
  const scores: PeriodScores = [];
  for (const score of text.split(';')) {
    if (score.startsWith('=')) {
      scores.push(scores[Number(score.slice(1))] ?? null);
    } else if (score) {
      const [low, high] = score.split(',').map(Number);
      scores.push({ low, high });
    } else {
      scores.push(null);
    }
  }
  return scores;
}

function scopeOf(pk: string, sk: string): ListScope {
  const [projectId, contentSetId] = sk.split('#');
  return { accountId: pk.slice('toplist#'.length), projectId, contentSetId };
}

async function queryParts(store: TableClient, pk: string, prefix: string, consistent: boolean): Promise<Record<string, unknown>[]> {
  const parts: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await store.documentClient.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: prefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk, ...(prefix ? { ':prefix': prefix } : {}) },
        ConsistentRead: consistent,
        ExclusiveStartKey: start,
      }),
    );
    parts.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return parts;
}

export async function readTopList(store: TableClient, scope: ListScope, options: { consistent?: boolean } = {}): Promise<StoredTopList | undefined> {
  const { pk, prefix } = listPrefix(scope);
  const parts = await queryParts(store, pk, prefix, options.consistent ?? false);
  return parts.length > 0 ? combineParts(scope, parts) : undefined;
}

/**
 * The parts of a list that hold `ids` if they are members (the parts their ids hash to),
 * read consistently, one GetItem each: all a ranker run on members of a list needs to
 * rewrite their counts. Undefined when none of those parts exists.
 */
export async function readTopListParts(store: TableClient, scope: ListScope, ids: Iterable<string>): Promise<StoredTopList | undefined> {
  const { pk, prefix } = listPrefix(scope);
  const names = [...new Set([...ids].map(itemPart))];
  const read = await Promise.all(
    names.map((name) => store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: { pk, sk: `${prefix}${name}` }, ConsistentRead: true }))),
  );
  const parts = read.flatMap(({ Item }) => (Item ? [Item] : []));
  return parts.length > 0 ? combineParts(scope, parts) : undefined;
}

/** The top lists of a project (or of every project of the account): one Query, every page. */
export async function readTopLists(store: TableClient, accountId: string, projectId?: string): Promise<StoredTopList[]> {
  const pk = `toplist#${accountId}`;
  const bySet = new Map<string, Record<string, unknown>[]>();
  for (const part of await queryParts(store, pk, projectId === undefined ? '' : `${projectId}#`, false)) {
    const scope = scopeOf(pk, String(part.sk));
    const key = `${scope.projectId}#${scope.contentSetId}`;
    bySet.set(key, [...(bySet.get(key) ?? []), part]);
  }
  return [...bySet].map(([key, parts]) => combineParts(scopeOf(pk, key), parts));
}

/** The parts of a list as stored (short ids), by part name, without the set's counts (added to those written). */
function emptyPart(list: TopList): Record<string, unknown> {
  return { buckets: list.buckets, items: {}, ...(list.scores ? { bounds: {} } : {}) };
}

function partsOf(scope: ListScope, list: TopList): Map<string, Record<string, unknown>> {
  const parts = new Map<string, Record<string, unknown>>();
  // In id order: DynamoDB keeps no order in a map, and parts are compared as JSON to find those that changed.
  for (const [id, counts] of [...list.items].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    const name = itemPart(id);
    const part = parts.get(name) ?? emptyPart(list);
    // One string per item, its counts in TOP_PERIODS order (`<day>.<week>.<month>.<year>.<lifetime>.<7d>.<28d>.<12m>`): a list of numbers weighs twice as much.
    (part.items as Record<string, string>)[shortId(scope.contentSetId, id)] = counts.join('.');
    const scores = list.scores?.get(id);
    if (scores) (part.bounds as Record<string, string>)[shortId(scope.contentSetId, id)] = encodeScores(scores);
    parts.set(name, part);
  }
  return parts;
}

/**
 * Writes the parts of `list` that differ from `stored`, each on the condition that it is
 * still at the version read (absent when new). `complete` is false when another run changed
 * one first (the parts written are each a consistent recount: the caller reads again and
 * merges); `written` counts the parts this call wrote, which it did even when not complete.
 */
export async function writeTopList(
  store: TableClient,
  scope: ListScope,
  list: TopList,
  stored: StoredTopList | undefined,
): Promise<{ complete: boolean; written: number }> {
  const { pk, prefix } = listPrefix(scope);
  const before = stored ? partsOf(scope, stored.list) : new Map<string, Record<string, unknown>>();
  const after = partsOf(scope, list);
  // A part that lost all its items is written empty (its version goes on), once.
  for (const name of stored?.versions.keys() ?? []) {
    if (!before.has(name)) before.set(name, emptyPart(stored!.list));
    if (!after.has(name)) after.set(name, emptyPart(list));
  }
  const changed = [...after].filter(
    ([name, part]) => JSON.stringify(part) !== JSON.stringify(before.get(name)) || !stored?.versions.has(name) || stored.olderLayout.has(name),
  );
  // The set's counts, the buckets or the counts' version changed with no part's items: the smallest part carries them.
  if (changed.length === 0 && (!stored || !sameTopList(stored.list, list) || stored.list.setVersion !== list.setVersion)) {
    const smallest = [...after].sort(([, a], [, b]) => JSON.stringify(a).length - JSON.stringify(b).length)[0];
    changed.push(smallest ?? [FIRST_PART, emptyPart(list)]);
  }
  const outcomes = await Promise.all(
    changed.map(async ([name, part]) => {
      const seen = stored?.versions.get(name);
      try {
        await store.documentClient.send(
          new PutCommand({
            TableName: store.tableName,
            Item: {
              // No scope attributes: the keys name the account, the project and the set.
              pk,
              sk: `${prefix}${name}`,
              ...part,
              set: list.set,
              ...(list.schema === undefined ? {} : { schema: list.schema }),
              ...(list.setScores ? { setBounds: encodeScores(list.setScores) } : {}),
              ...(list.setVersion === undefined ? {} : { cv: list.setVersion }),
              parts: ITEM_PARTS,
              writes: (stored?.writes ?? 0) + 1,
              version: (seen ?? 0) + 1,
              // Lists the part in the sparse `retire` index, for the daily recount.
              retirepk: `toplists#${shardOf(scope.contentSetId, LIST_SHARDS)}`,
            },
            ...(seen === undefined
              ? { ConditionExpression: 'attribute_not_exists(pk)' }
              : { ConditionExpression: '#version = :seen', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':seen': seen } }),
          }),
        );
        return true;
      } catch (error) {
        if ((error as Error).name === 'ConditionalCheckFailedException') return false;
        throw error;
      }
    }),
  );
  return { complete: outcomes.every(Boolean), written: outcomes.filter(Boolean).length };
}

/** The key of every top list (the daily recount), from the sparse index, every page of every shard. */
export async function allTopListKeys(store: TableClient): Promise<ListScope[]> {
  const scopes = new Map<string, ListScope>();
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
        const scope = scopeOf(String(item.pk), String(item.sk));
        scopes.set(`${item.pk}|${scope.projectId}#${scope.contentSetId}`, scope);
      }
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return [...scopes.values()];
}

/* Change records */

/**
 * What a batch changed: per set, its scope, the items of it whose counts changed and the
 * earliest day (`YYYY-MM-DD`, UTC) of a response counted; '' for a record written before
 * records named it (any day, then).
 */
export type RankingChanges = Map<string, ListScope & { items: Set<string>; from: string }>;

export function minuteKey(at: Date): string {
  return at.toISOString().slice(0, 16);
}

/**
 * Records that a batch changed `changes`: one PutItem, stamped with the time it is sent
 * (not the batch's clock), so that the ranker's window finds it.
 */
export async function recordRankingChanges(store: TableClient, changes: RankingChanges, batchId: string): Promise<void> {
  if (changes.size === 0) return;
  const now = new Date();
  const sets = Object.fromEntries(
    [...changes].map(([contentSetId, change]) => [
      contentSetId,
      { accountId: change.accountId, projectId: change.projectId, items: [...change.items], from: change.from },
    ]),
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

/**
 * The change records written in [from, to], merged per set, except those whose sort key is
 * in `skip` (read by the run before); `read` names the records read.
 */
async function readRankingChanges(
  store: TableClient,
  from: Date,
  to: Date,
  skip: ReadonlySet<string> = new Set(),
): Promise<{ changes: RankingChanges; records: number; read: string[] }> {
  const changes: RankingChanges = new Map();
  const read: string[] = [];
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
            // Eventually consistent (half the read units): a record written too recently to be
            // seen is within the next run's overlap, and is not among the records it skips.
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) {
          read.push(String(item.sk));
          if (skip.has(String(item.sk))) continue;
          records++;
          for (const [contentSetId, change] of Object.entries(
            item.sets as Record<string, { accountId: string; projectId: string; items: string[]; from?: string }>,
          )) {
            const merged = changes.get(contentSetId) ?? {
              accountId: change.accountId,
              projectId: change.projectId,
              contentSetId,
              items: new Set<string>(),
              from: change.from ?? '',
            };
            for (const id of change.items) merged.items.add(id);
            if ((change.from ?? '') < merged.from) merged.from = change.from ?? '';
            changes.set(contentSetId, merged);
          }
        }
        start = page.LastEvaluatedKey;
      } while (start);
    }
  }
  return { changes, records, read };
}

/**
 * A job that reads the change records in runs, each from where its last run ended (the
 * ranker, the alerts job): its checkpoint item and how much a run reads.
 */
export interface ChangeReader {
  checkpointKey: { pk: string; sk: string };
  /** How much of a backlog a run takes on (the next runs take the rest). */
  maxMinutesPerRun: number;
  /** Where a reader with no checkpoint starts reading. */
  firstRunLookbackMs: number;
}

/**
 * How far a run reads back before the last one's end: a consumer stamps its record just
 * before writing it, and clocks differ. The checkpoint keeps the records read in that
 * margin, so the next run skips them and none is counted twice.
 */
export const CHANGE_READ_OVERLAP_MS = 15_000;

export interface ChangeRun {
  /** The checkpoint item as the last run left it (undefined before the first run), with the job's own fields. */
  checkpoint: Record<string, unknown> | undefined;
  from: Date;
  to: Date;
  changes: RankingChanges;
  /** Change records read and not skipped. */
  records: number;
  /** Sort keys of every record read. */
  read: string[];
}

/** The changes since `reader`'s checkpoint, at most its `maxMinutesPerRun`, up to `now`. */
export async function readChangesSinceCheckpoint(store: TableClient, reader: ChangeReader, now: Date): Promise<ChangeRun> {
  const { Item: checkpoint } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: reader.checkpointKey, ConsistentRead: true }));
  const through = checkpoint?.through ? new Date(String(checkpoint.through)) : new Date(now.getTime() - reader.firstRunLookbackMs);
  const from = new Date(through.getTime() - CHANGE_READ_OVERLAP_MS);
  const to = new Date(Math.min(now.getTime(), from.getTime() + reader.maxMinutesPerRun * 60_000));
  const seen = new Set<string>(((checkpoint?.seen ?? []) as string[]).map(String));
  return { checkpoint, from, to, ...(await readRankingChanges(store, from, to, seen)) };
}

/** Moves `reader`'s checkpoint past `run`, with the job's own `fields` (what it did once a day). */
export async function saveChangeCheckpoint(
  store: TableClient,
  reader: ChangeReader,
  run: ChangeRun,
  now: Date,
  fields: Record<string, unknown>,
): Promise<void> {
  await store.documentClient.send(
    new PutCommand({
      TableName: store.tableName,
      Item: {
        ...reader.checkpointKey,
        through: run.to.toISOString(),
        // The records the next run reads again (its overlap), so that it skips them.
        seen: run.read.filter((sk) => sk >= new Date(run.to.getTime() - CHANGE_READ_OVERLAP_MS).toISOString()),
        ...fields,
        updatedAt: now.toISOString(),
      },
    }),
  );
}
