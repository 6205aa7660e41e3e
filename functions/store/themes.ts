/**
 * What a set's theme discovery stores (issue 40 §4), raw items (no ElectroDB: day records
 * hold dynamic maps of theme ids and phrase keys, and the model is a gzipped binary). Written
 * only by the themes job (functions/jobs/themes.ts) and the curation operations; read by the
 * themes operations and `responses/list` by theme or phrase.
 *
 * | Access pattern                                   | Index | Partition key                  | Sort key                       |
 * |--------------------------------------------------|-------|--------------------------------|--------------------------------|
 * | A set's discovery: themes, labels, state         | table | themes#<setId>                 | state                          |
 * | A set's model, in parts of at most 300 KB gzip   | table | themes#<setId>                 | model#<modelId>#<part>         |
 * | A set's curation records, oldest first           | table | themes#<setId>                 | curation#<at>#<id>             |
 * | A set's active messages by time (theme, phrases) | table | thememsg#<setId>               | <createdAt>#<responseId>       |
 * | A scope's counts per tag and day                 | table | themeday#<set|item>#<id>       | <tag or *>#<YYYY-MM-DD>        |
 * | The sets that have themes (the daily pass)       | table | themesets                      | <setId>                        |
 * | A project's sets that have themes                | table | themesets#<projectId>          | <setId>                        |
 *
 * Sizes: a day record holds at most PHRASES_PER_DAY phrases and a few ids per theme (a few
 * KB whatever the day's messages), so a themes call reads a bounded number of bounded items.
 * The model (about 7 KB per theme, most of it member samples) is split into parts so no item
 * nears DynamoDB's 400 KB limit. Messages and day records expire 400 days after their day
 * (`expiresAt`): themes describe the last 400 days.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DayCounts, ThemedMessage } from '../domain/theme-counts';
import type { Curation, ThemeModel } from '../domain/themes';
import { queryAll, sendUntilProcessed } from './batch';
import type { TableClient } from './dynamodb-clients';

export const THEMES_RETENTION_DAYS = 400;
const MODEL_PART_BYTES = 300_000;

export type ThemeScope = 'set' | 'item';

export const themeKeys = {
  state: (setId: string) => ({ pk: `themes#${setId}`, sk: 'state' }),
  messages: (setId: string) => `thememsg#${setId}`,
  message: (setId: string, createdAt: string, responseId: string) => ({ pk: `thememsg#${setId}`, sk: `${createdAt}#${responseId}` }),
  days: (scope: ThemeScope, id: string) => `themeday#${scope}#${id}`,
  day: (scope: ThemeScope, id: string, tag: string, day: string) => ({ pk: `themeday#${scope}#${id}`, sk: `${tag}#${day}` }),
};

/** What a theme is called, whatever discovery it came from. */
export interface ThemeLabel {
  label: string;
  terms: string[];
  curated: boolean;
}

/** A set's discovery header. */
export interface ThemeState {
  accountId: string;
  projectId: string;
  contentSetId: string;
  /** The current themes, largest first, by id. */
  themes: Array<ThemeLabel & { id: string; count: number }>;
  /** Every theme id its day records may name (current and earlier), with its label. */
  labels: Record<string, ThemeLabel>;
  modelId?: string;
  modelParts?: number;
  discoveredAt?: string;
  /** Messages the last discovery read. */
  discoveredMessages?: number;
  /** Messages assigned since (the job discovers again when enough came). */
  newSince: number;
  /** When every day of the retention was last compared with the counters. */
  fullSyncAt?: string;
  /** How many times people curated: moves the state item so a discovery sees it. */
  curations?: number;
  /** The WORD_KEYS_VERSION its stored messages' phrase keys were made with (absent: 1). */
  wordKeys?: number;
}

export const expiresAtOfDay = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + THEMES_RETENTION_DAYS * 86_400;

export async function readThemeState(store: TableClient, setId: string, consistent = true): Promise<ThemeState | undefined> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: themeKeys.state(setId), ConsistentRead: consistent }));
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, ...state } = Item;
  return state as ThemeState;
}

export async function writeThemeState(store: TableClient, setId: string, state: ThemeState): Promise<void> {
  await store.documentClient.send(new PutCommand({ TableName: store.tableName, Item: { ...themeKeys.state(setId), ...state } }));
}

/** Registers a set as having themes (idempotent): the job's daily pass and project reads find it. */
export async function registerThemeSet(store: TableClient, set: { accountId: string; projectId: string; contentSetId: string }): Promise<void> {
  const item = { accountId: set.accountId, projectId: set.projectId };
  await store.documentClient.send(
    new BatchWriteCommand({
      RequestItems: {
        [store.tableName]: [
          { PutRequest: { Item: { pk: 'themesets', sk: set.contentSetId, ...item } } },
          { PutRequest: { Item: { pk: `themesets#${set.projectId}`, sk: set.contentSetId, ...item } } },
        ],
      },
    }),
  );
}

export async function themeSets(store: TableClient, projectId?: string): Promise<Array<{ contentSetId: string; accountId: string; projectId: string }>> {
  const items = await queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': projectId === undefined ? 'themesets' : `themesets#${projectId}` },
  });
  return items.map((item) => ({ contentSetId: String(item.sk), accountId: String(item.accountId), projectId: String(item.projectId) }));
}

/* Sets the job should sync at once */

export const THEMES_DUE_PK = 'themesdue';
/** How long after an import or an erasure the job keeps comparing every day of the set: the stream counts the change a little later. */
const FULL_SYNC_WINDOW_MS = 120_000;

export interface ThemesDue {
  contentSetId: string;
  /** Compare every day of the retention (not only the recent ones) until then. */
  fullUntil?: string;
  /** People curated: discover again. */
  discover?: boolean;
}

/**
 * Asks the themes job to sync a set at its next runs: after an import or an erasure, which
 * change past days (`full`), or after a curation (`discover`). One PutItem, or an UpdateItem.
 */
export async function requestThemesSync(store: TableClient, contentSetId: string, now: Date, what: { full?: boolean; discover?: boolean }): Promise<void> {
  const sets: string[] = ['expiresAt = :expires'];
  const values: Record<string, unknown> = { ':expires': Math.floor(now.getTime() / 1000) + 86_400 };
  if (what.full) {
    sets.push('fullUntil = :until');
    values[':until'] = new Date(now.getTime() + FULL_SYNC_WINDOW_MS).toISOString();
  }
  if (what.discover) {
    sets.push('discover = :yes');
    values[':yes'] = true;
  }
  await store.documentClient.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { pk: THEMES_DUE_PK, sk: contentSetId },
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeValues: values,
    }),
  );
}

export async function themesDue(store: TableClient): Promise<ThemesDue[]> {
  const items = await queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': THEMES_DUE_PK },
    ConsistentRead: true,
  });
  return items.map((item) => ({
    contentSetId: String(item.sk),
    ...(item.fullUntil === undefined ? {} : { fullUntil: String(item.fullUntil) }),
    ...(item.discover === true ? { discover: true } : {}),
  }));
}

/** What a run did of a request: the discovery is done; a full sync's window may still be open (then the item stays, without `discover`). */
export async function settleThemesDue(store: TableClient, due: ThemesDue, now: Date): Promise<void> {
  const key = { pk: THEMES_DUE_PK, sk: due.contentSetId };
  const open = due.fullUntil !== undefined && due.fullUntil > now.toISOString();
  try {
    await store.documentClient.send(
      open
        ? new UpdateCommand({ TableName: store.tableName, Key: key, UpdateExpression: 'REMOVE discover', ConditionExpression: 'attribute_exists(pk)' })
        : new DeleteCommand({
            TableName: store.tableName,
            Key: key,
            // A request made meanwhile stays.
            ConditionExpression: due.fullUntil === undefined ? 'attribute_not_exists(fullUntil)' : 'fullUntil = :until',
            ...(due.fullUntil === undefined ? {} : { ExpressionAttributeValues: { ':until': due.fullUntil } }),
          }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
  }
}

/* The model */

export async function writeModel(store: TableClient, setId: string, modelId: string, model: ThemeModel): Promise<number> {
  const packed = gzipSync(JSON.stringify(model));
  const parts = Math.max(1, Math.ceil(packed.length / MODEL_PART_BYTES));
  for (let part = 0; part < parts; part++) {
    await store.documentClient.send(
      new PutCommand({
        TableName: store.tableName,
        Item: { pk: `themes#${setId}`, sk: `model#${modelId}#${part}`, b: packed.subarray(part * MODEL_PART_BYTES, (part + 1) * MODEL_PART_BYTES) },
      }),
    );
  }
  return parts;
}

export async function readModel(store: TableClient, setId: string, modelId: string): Promise<ThemeModel | undefined> {
  const items = await queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `themes#${setId}`, ':prefix': `model#${modelId}#` },
  });
  if (items.length === 0) return undefined;
  const parts = items
    .map((item) => ({ part: Number(String(item.sk).slice(String(item.sk).lastIndexOf('#') + 1)), bytes: item.b as Uint8Array }))
    .sort((a, b) => a.part - b.part);
  return JSON.parse(gunzipSync(Buffer.concat(parts.map((part) => part.bytes))).toString('utf8')) as ThemeModel;
}

/** Deletes the parts of models other than `keep` (after the header points at it). */
export async function deleteOtherModels(store: TableClient, setId: string, keep: string): Promise<void> {
  const items = await queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `themes#${setId}`, ':prefix': 'model#' },
    ProjectionExpression: '#pk, #sk',
    ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
  });
  await deleteItems(
    store,
    items.filter((item) => !String(item.sk).startsWith(`model#${keep}#`)).map((item) => ({ pk: item.pk, sk: item.sk })),
  );
}

/* Curation */

export interface CurationEntry {
  id: string;
  at: string;
  record: Curation;
}

export async function readCurations(store: TableClient, setId: string): Promise<CurationEntry[]> {
  const items = await queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `themes#${setId}`, ':prefix': 'curation#' },
    ConsistentRead: true,
  });
  return items.map((item) => ({ id: String(item.id), at: String(item.at), record: item.record as Curation }));
}

export async function writeCuration(store: TableClient, setId: string, entry: CurationEntry): Promise<void> {
  await store.documentClient.send(
    new PutCommand({
      TableName: store.tableName,
      Item: { pk: `themes#${setId}`, sk: `curation#${entry.at}#${entry.id}`, ...entry },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/* Messages */

/** An active message as the job keeps it, with its phrase keys (what `contains(ph, key)` finds). */
export interface StoredMessage extends ThemedMessage {
  phrases: string[];
}

export function messageOfItem(item: Record<string, unknown>): StoredMessage {
  const sk = String(item.sk);
  const cut = sk.lastIndexOf('#');
  const phrases = item.ph instanceof Set ? [...(item.ph as Set<string>)] : [];
  return {
    responseId: sk.slice(cut + 1),
    createdAt: sk.slice(0, cut),
    contentItemId: String(item.ci),
    text: String(item.tx),
    ...(item.tg === undefined ? {} : { tag: String(item.tg) }),
    theme: item.th === undefined ? null : String(item.th),
    phrases,
  };
}

export function messageItem(setId: string, message: StoredMessage): Record<string, unknown> {
  return {
    ...themeKeys.message(setId, message.createdAt, message.responseId),
    ci: message.contentItemId,
    tx: message.text,
    ...(message.tag === undefined ? {} : { tg: message.tag }),
    ...(message.theme === null ? {} : { th: message.theme }),
    ...(message.phrases.length === 0 ? {} : { ph: new Set(message.phrases) }),
    expiresAt: expiresAtOfDay(message.createdAt.slice(0, 10)),
  };
}

/** The set's messages with `createdAt` in [from, to) (ISO prefixes), oldest first. */
export async function readMessages(store: TableClient, setId: string, from: string, to: string): Promise<StoredMessage[]> {
  const items = await queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': themeKeys.messages(setId), ':from': from, ':to': to },
    ConsistentRead: true,
  });
  return items.filter((item) => String(item.sk) < to).map(messageOfItem);
}

/** Which of a set's messages `responses/list` by theme or phrase selects (a filter on the messages' items). */
export interface MessageFilter {
  /** A theme id, or null for those in no theme (`other`). */
  theme?: string | null;
  /** A phrase key (what `phrasesOf` keeps). */
  phrase?: string;
  contentItemId?: string;
  tag?: string;
  /** createdAt from (inclusive) and to (exclusive), ISO prefixes. */
  from?: string;
  to?: string;
}

function messageQuery(store: TableClient, setId: string, filter: MessageFilter) {
  const values: Record<string, unknown> = { ':pk': themeKeys.messages(setId) };
  const names: Record<string, string> = {};
  // Sort keys are `<createdAt>#<responseId>`: a bare `<createdAt>` bound is below every key that starts with it, so BETWEEN excludes `to`.
  let keyCondition = 'pk = :pk';
  if (filter.from !== undefined) values[':from'] = filter.from;
  if (filter.to !== undefined) values[':to'] = filter.to;
  if (filter.from !== undefined && filter.to !== undefined) keyCondition += ' AND sk BETWEEN :from AND :to';
  else if (filter.from !== undefined) keyCondition += ' AND sk >= :from';
  else if (filter.to !== undefined) keyCondition += ' AND sk < :to';
  const conditions: string[] = [];
  if (filter.theme === null) conditions.push('attribute_not_exists(th)');
  else if (filter.theme !== undefined) {
    conditions.push('th = :th');
    values[':th'] = filter.theme;
  }
  if (filter.phrase !== undefined) {
    conditions.push('contains(ph, :ph)');
    values[':ph'] = filter.phrase;
  }
  if (filter.contentItemId !== undefined) {
    conditions.push('ci = :ci');
    values[':ci'] = filter.contentItemId;
  }
  if (filter.tag !== undefined) {
    conditions.push('#tg = :tg');
    names['#tg'] = 'tg';
    values[':tg'] = filter.tag;
  }
  return {
    TableName: store.tableName,
    KeyConditionExpression: keyCondition,
    ...(conditions.length === 0 ? {} : { FilterExpression: conditions.join(' AND ') }),
    ...(Object.keys(names).length === 0 ? {} : { ExpressionAttributeNames: names }),
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
}

/**
 * Up to `limit` of the set's messages examined below the sort key `below`, newest first, those
 * the filter selects; `frontier`: the last sort key examined while more may follow.
 */
export async function readMessagePage(
  store: TableClient,
  setId: string,
  filter: MessageFilter,
  below: string | undefined,
  limit: number,
): Promise<{ items: StoredMessage[]; frontier?: string }> {
  const page = await store.documentClient.send(
    new QueryCommand({
      ...messageQuery(store, setId, filter),
      Limit: limit,
      ...(below === undefined ? {} : { ExclusiveStartKey: { pk: themeKeys.messages(setId), sk: below } }),
    }),
  );
  const last = page.LastEvaluatedKey?.sk;
  return { items: (page.Items ?? []).map(messageOfItem), ...(typeof last === 'string' ? { frontier: last } : {}) };
}

/** How many of the set's messages the filter selects (a Query that returns counts only). */
export async function countMessages(store: TableClient, setId: string, filter: MessageFilter): Promise<number> {
  const query = messageQuery(store, setId, filter);
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await store.documentClient.send(new QueryCommand({ ...query, Select: 'COUNT', ExclusiveStartKey: start }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

/** The newest messages of the set, whole days, until at least `limit` (the discovery's sample of the set). */
export async function readNewestMessages(store: TableClient, setId: string, limit: number): Promise<StoredMessage[]> {
  const found: StoredMessage[] = [];
  let start: Record<string, unknown> | undefined;
  for (;;) {
    const page = await store.documentClient.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': themeKeys.messages(setId) },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    const messages = (page.Items ?? []).map(messageOfItem);
    for (const message of messages) {
      // Whole days: a day is recounted from all of its messages.
      if (found.length >= limit && message.createdAt.slice(0, 10) !== found[found.length - 1].createdAt.slice(0, 10)) return found;
      found.push(message);
    }
    start = page.LastEvaluatedKey;
    if (!start) return found;
  }
}

export async function putMessages(store: TableClient, setId: string, messages: StoredMessage[]): Promise<void> {
  await writeItems(
    store,
    messages.map((message) => ({ PutRequest: { Item: messageItem(setId, message) } })),
  );
}

export async function deleteMessages(store: TableClient, setId: string, messages: Array<Pick<StoredMessage, 'createdAt' | 'responseId'>>): Promise<void> {
  await deleteItems(
    store,
    messages.map((message) => themeKeys.message(setId, message.createdAt, message.responseId)),
  );
}

/** Sets the theme of messages (a discovery's moves): one UpdateItem each, only if the message is still there. */
export async function setMessageThemes(store: TableClient, setId: string, moves: StoredMessage[]): Promise<void> {
  await inBatches(moves, 16, (message) =>
    store.documentClient
      .send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: themeKeys.message(setId, message.createdAt, message.responseId),
          ...(message.theme === null
            ? { UpdateExpression: 'REMOVE th' }
            : { UpdateExpression: 'SET th = :th', ExpressionAttributeValues: { ':th': message.theme } }),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      )
      .catch((error: unknown) => {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      }),
  );
}

/* Day records */

export interface StoredDay extends DayCounts {
  tag: string;
  day: string;
  /** Set scope, all tags: the counter day item's write count it was synced with. */
  cv?: number;
}

function dayOfItem(item: Record<string, unknown>): StoredDay {
  const sk = String(item.sk);
  const cut = sk.lastIndexOf('#');
  return {
    tag: sk.slice(0, cut),
    day: sk.slice(cut + 1),
    n: Number(item.n ?? 0),
    t: (item.t as DayCounts['t']) ?? {},
    p: (item.p as DayCounts['p']) ?? {},
    x: (item.x as DayCounts['x']) ?? {},
    ...(item.i === undefined ? {} : { i: item.i as DayCounts['i'] }),
    ...(item.cv === undefined ? {} : { cv: Number(item.cv) }),
  };
}

export async function putDays(store: TableClient, scope: ThemeScope, id: string, days: StoredDay[]): Promise<void> {
  await writeItems(
    store,
    days.map(({ tag, day, ...counts }) => ({
      PutRequest: { Item: { ...themeKeys.day(scope, id, tag, day), ...counts, expiresAt: expiresAtOfDay(day) } },
    })),
  );
}

/** A scope's day records of one tag for the days in [fromDay, toDay), newest first. `attributes` limits what comes back. */
export async function readDays(
  store: TableClient,
  scope: ThemeScope,
  id: string,
  tag: string,
  fromDay: string,
  toDay: string,
  options: { consistent?: boolean; versionsOnly?: boolean } = {},
): Promise<StoredDay[]> {
  const items = await queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': themeKeys.days(scope, id), ':from': `${tag}#${fromDay}`, ':to': `${tag}#${toDay}` },
    ScanIndexForward: false,
    ConsistentRead: options.consistent ?? false,
    ...(options.versionsOnly ? { ProjectionExpression: '#sk, #cv', ExpressionAttributeNames: { '#sk': 'sk', '#cv': 'cv' } } : {}),
  });
  return items.filter((item) => String(item.sk) < `${tag}#${toDay}`).map(dayOfItem);
}

/* Writes in batches */

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

async function writeItems(store: TableClient, requests: WriteRequest[]): Promise<void> {
  const chunks: WriteRequest[][] = [];
  for (let start = 0; start < requests.length; start += 25) chunks.push(requests.slice(start, start + 25));
  await inBatches(chunks, 8, (chunk) =>
    sendUntilProcessed('BatchWriteItem', chunk, async (pending) => {
      const answer = await store.documentClient.send(new BatchWriteCommand({ RequestItems: { [store.tableName]: pending } }));
      return (answer.UnprocessedItems?.[store.tableName] as WriteRequest[] | undefined) ?? [];
    }),
  );
}

export async function deleteItems(store: TableClient, keys: Array<Record<string, unknown>>): Promise<void> {
  await writeItems(
    store,
    keys.map((key) => ({ DeleteRequest: { Key: key } })),
  );
}

export async function deleteItem(store: TableClient, key: Record<string, unknown>): Promise<void> {
  await store.documentClient.send(new DeleteCommand({ TableName: store.tableName, Key: key }));
}

/** Runs `work` on every value, at most `parallel` at once. */
async function inBatches<T>(values: readonly T[], parallel: number, work: (value: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, values.length) }, async () => {
      while (next < values.length) await work(values[next++]);
    }),
  );
}
