/**
 * The themes job (issue 40 §4): keeps each message set's themes and phrases, off the write
 * path. Every minute on AWS (twice a minute in one invocation), every THEMES_INTERVAL_SECONDS
 * under `npm start`; one run:
 *
 * 1. reads the counting consumer's change records since its checkpoint (as the ranker and
 *    the alerts job do): the sets whose counts changed, with the sets asked for
 *    (`themesdue`: curated, or imported into or erased from, which changes past days), and on
 *    its first run of a UTC day every set that has themes;
 * 2. syncs each set's days: a day is read again when the set's counter day item was written
 *    since (its write count `v` differs from the one the day's record saw). The counters move
 *    with every change of an active response (new, edited, revoked, quarantined, released,
 *    erased), so the job follows the response states, not the time: a day read again keeps
 *    exactly its active messages. New messages are placed in the current themes
 *    (`assignMessage`), their phrases kept; the day's counts are written per scope, tag and
 *    day (store/themes.ts). The last 35 days each run; every day of the retention once a day;
 *    and, once, when the phrase keys' words changed (`WORD_KEYS_VERSION`), every day with its
 *    messages keyed anew (then a discovery, so curated phrases take the new keys too);
 * 3. discovers the set's themes again when enough new messages came (at least 20, and a tenth
 *    of the last discovery's), people curated, or a day passed: the newest DISCOVERY_SAMPLE
 *    messages, the last model (`previous`, so themes keep their ids) and every curation record;
 *    messages whose theme changed are rewritten and their days recounted.
 *
 * Two runs at once are kept apart on AWS by a reserved concurrency of 1 and locally by the
 * repeating job; a run that fails leaves the checkpoint, so the next one reads the same changes.
 */
import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { messageOf } from '../domain/spam';
import { ALL_TAGS, dayCounts, MESSAGE_SCHEMAS, phrasesOf, type ThemedMessage } from '../domain/theme-counts';
import {
  assignMessage,
  discoverThemes,
  type Embedder,
  type ThemeModel,
  type WordVectors,
  shippedWordVectors,
  WORD_KEYS_VERSION,
  wordVectorEmbedder,
} from '../domain/themes';
import { logger } from '../observability/logger';
import { aggregatePk, daySk } from '../store/counters';
import { queryAll } from '../store/batch';
import type { TableClient } from '../store/dynamodb-clients';
import { keys } from '../store/items';
import { listPartitions, readResponsePartition } from '../store/response-lists';
import {
  deleteMessages,
  deleteOtherModels,
  putDays,
  putMessages,
  readCurations,
  readDays,
  readMessages,
  readModel,
  readNewestMessages,
  registerThemeSet,
  readThemeState,
  setMessageThemes,
  settleThemesDue,
  type StoredDay,
  type StoredMessage,
  themeSets,
  themesDue,
  type ThemeState,
  THEMES_RETENTION_DAYS,
  writeModel,
  writeThemeState,
} from '../store/themes';
import { readChangesSinceCheckpoint, saveChangeCheckpoint, type ChangeReader } from '../store/top-lists';
import { inParallel } from './parallel';

const CHANGE_READER: ChangeReader = { checkpointKey: { pk: 'themes', sk: 'checkpoint' }, maxMinutesPerRun: 60, firstRunLookbackMs: 10 * 60_000 };
/** Days compared with the counters at every run (older ones once a day). */
const RECENT_DAYS = 35;
/** A discovery reads at most this many of the newest messages (whole days): it fits one Lambda (docs/bench-themes-job.json). */
export const DISCOVERY_SAMPLE = 20_000;
/** A set's first discovery waits for this many messages. */
const FIRST_DISCOVERY = 10;
const DAY_MS = 86_400_000;

export interface ThemesResult {
  from: string;
  to: string;
  changeRecords: number;
  daily: boolean;
  sets: number;
  /** Days read again. */
  days: number;
  /** Messages placed by assignment. */
  assigned: number;
  discoveries: number;
}

interface Vectors {
  lexicon: WordVectors;
  embedder: Embedder;
}

let shippedVectors: Vectors | undefined;

/** The shipped word vectors, parsed on first use (a run without messages never loads them). */
function vectors(): Vectors {
  shippedVectors ??= { lexicon: shippedWordVectors(), embedder: wordVectorEmbedder() };
  return shippedVectors;
}

const dayOf = (iso: string) => iso.slice(0, 10);
const addDays = (day: string, count: number) => new Date(Date.parse(`${day}T00:00:00Z`) + count * DAY_MS).toISOString().slice(0, 10);

interface SetFacts {
  contentSetId: string;
  accountId: string;
  projectId: string;
  schema: string;
}

/** One run at `now` (see the header). */
export async function runThemes(store: TableClient, now: Date): Promise<ThemesResult> {
  const run = await readChangesSinceCheckpoint(store, CHANGE_READER, now);
  const today = dayOf(now.toISOString());
  const daily = run.checkpoint?.syncedDay !== today;
  const targets = new Map<string, boolean>();
  for (const contentSetId of run.changes.keys()) targets.set(contentSetId, false);
  const due = await themesDue(store);
  for (const request of due) targets.set(request.contentSetId, targets.get(request.contentSetId) || request.fullUntil !== undefined);
  if (daily) for (const set of await themeSets(store)) targets.set(set.contentSetId, true);

  const result: ThemesResult = {
    from: run.from.toISOString(),
    to: run.to.toISOString(),
    changeRecords: run.records,
    daily,
    sets: 0,
    days: 0,
    assigned: 0,
    discoveries: 0,
  };
  await inParallel([...targets], 2, async ([contentSetId, full]) => {
    const done = await syncSet(
      store,
      contentSetId,
      full,
      now,
      due.some((request) => request.contentSetId === contentSetId && request.discover),
    );
    if (!done) return;
    result.sets += 1;
    result.days += done.days;
    result.assigned += done.assigned;
    result.discoveries += done.discovered ? 1 : 0;
  });
  for (const request of due) await settleThemesDue(store, request, now);
  await saveChangeCheckpoint(store, CHANGE_READER, run, now, { syncedDay: today });
  if (result.days > 0 || result.discoveries > 0) logger.info('themes synced', { ...result });
  return result;
}

async function setFacts(store: TableClient, contentSetId: string): Promise<SetFacts | undefined> {
  const { Item } = await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: keys.contentSet(contentSetId) }));
  if (!Item || !MESSAGE_SCHEMAS.has(String(Item.schema))) return undefined;
  return { contentSetId, accountId: String(Item.accountId), projectId: String(Item.projectId), schema: String(Item.schema) };
}

/**
 * Brings one set's messages, counts and themes up to date: its changed days, then a
 * discovery if one is due. Undefined for a set without free text.
 */
export async function syncSet(
  store: TableClient,
  contentSetId: string,
  full: boolean,
  now: Date,
  curated = false,
): Promise<{ days: number; assigned: number; discovered: boolean } | undefined> {
  const set = await setFacts(store, contentSetId);
  if (!set) return undefined;
  let state = await readThemeState(store, contentSetId);
  // Messages keyed with other word keys (the spelling folds changed; WORD_KEYS_VERSION): every
  // day of the retention is read again, its messages keyed anew, and the themes found again.
  const rekey = (state?.wordKeys ?? 1) !== WORD_KEYS_VERSION;
  const fullSync = full || !state?.fullSyncAt || rekey;
  if (!state) {
    await registerThemeSet(store, set);
    state = { accountId: set.accountId, projectId: set.projectId, contentSetId, themes: [], labels: {}, newSince: 0 };
  }
  const today = dayOf(now.toISOString());
  const fromDay = addDays(today, fullSync ? -(THEMES_RETENTION_DAYS - 1) : -(RECENT_DAYS - 1));
  const toDay = addDays(today, 1);
  const counters = await queryAll(store, {
    TableName: store.tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': aggregatePk('contentSet', contentSetId), ':from': daySk(fromDay), ':to': daySk(toDay) },
    ProjectionExpression: '#sk, #v',
    ExpressionAttributeNames: { '#sk': 'sk', '#v': 'v' },
  });
  const counterVersions = new Map(counters.map((item) => [String(item.sk).slice(2), Number(item.v ?? 0)]));
  const synced = new Map(
    (await readDays(store, 'set', contentSetId, ALL_TAGS, fromDay, toDay, { consistent: true, versionsOnly: true })).map((day) => [day.day, day.cv]),
  );
  const stale = [...new Set([...counterVersions.keys(), ...synced.keys()])].filter((day) => rekey || counterVersions.get(day) !== synced.get(day)).sort();

  let model: ThemeModel | undefined;
  const loadModel = async () => {
    if (model === undefined && state.modelId) model = await readModel(store, contentSetId, state.modelId);
    return model;
  };
  let assigned = 0;
  for (const day of stale) {
    const current = await activeMessagesOfDay(store, set, day);
    const stored = await readMessagesOfDay(store, contentSetId, day);
    const storedById = new Map(stored.map((message) => [message.responseId, message]));
    const fresh: StoredMessage[] = [];
    const kept: StoredMessage[] = [];
    for (const message of current) {
      const prior = storedById.get(message.responseId);
      if (prior && prior.text === message.text && prior.tag === message.tag) {
        const phrases = rekey ? phrasesOf(prior.text).map((phrase) => phrase.key) : prior.phrases;
        if (phrases.join('\n') === prior.phrases.join('\n')) kept.push(prior);
        else fresh.push({ ...prior, phrases });
        continue;
      }
      const placed = await loadModel();
      const { embedder } = vectors();
      fresh.push({
        ...message,
        theme: placed ? assignMessage(placed, message.text, embedder) : null,
        phrases: phrasesOf(message.text).map((phrase) => phrase.key),
      });
    }
    const currentIds = new Set(current.map((message) => message.responseId));
    await deleteMessages(
      store,
      contentSetId,
      stored.filter((message) => !currentIds.has(message.responseId)),
    );
    await putMessages(store, contentSetId, fresh);
    assigned += fresh.filter((message) => !storedById.has(message.responseId)).length;
    await writeDayRecords(store, contentSetId, day, [...kept, ...fresh], stored, counterVersions.get(day) ?? 0);
  }
  state.newSince += assigned;
  if (fullSync) state.fullSyncAt = now.toISOString();
  state.wordKeys = WORD_KEYS_VERSION;

  const discovered = await discoverIfDue(store, state, now, curated || (rekey && state.discoveredAt !== undefined), loadModel);
  if (!discovered && (assigned > 0 || stale.length > 0 || fullSync)) await writeThemeState(store, contentSetId, state);
  return { days: stale.length, assigned, discovered };
}

/** Whether a discovery is due, and if so runs it and saves the state. */
async function discoverIfDue(
  store: TableClient,
  state: ThemeState,
  now: Date,
  curated: boolean,
  loadModel: () => Promise<ThemeModel | undefined>,
): Promise<boolean> {
  const known = state.discoveredMessages ?? 0;
  const due = state.discoveredAt
    ? curated ||
      (state.newSince >= 20 && state.newSince * 10 >= known) ||
      (now.getTime() - Date.parse(state.discoveredAt) >= DAY_MS && state.newSince + known > 0)
    : state.newSince >= FIRST_DISCOVERY;
  if (!due) return false;
  await discover(store, state, now, await loadModel());
  return true;
}

/** A discovery of the set's themes (see the header), saved with its model. */
export async function discover(store: TableClient, state: ThemeState, now: Date, previous: ThemeModel | undefined): Promise<void> {
  const { contentSetId } = state;
  const messages = await readNewestMessages(store, contentSetId, DISCOVERY_SAMPLE);
  const curation = (await readCurations(store, contentSetId)).map((entry) => entry.record);
  const { lexicon, embedder } = vectors();
  const discovery = discoverThemes(
    messages.map((message) => ({ id: message.responseId, text: message.text })),
    { previous, curation, embedder, lexicon },
  );
  const themeOf = new Map<string, string>();
  for (const theme of discovery.themes) for (const id of theme.messageIds) themeOf.set(id, theme.id);
  const moved = messages.filter((message) => (themeOf.get(message.responseId) ?? null) !== message.theme);
  for (const message of moved) message.theme = themeOf.get(message.responseId) ?? null;
  await setMessageThemes(store, contentSetId, moved);
  const days = [...new Set(moved.map((message) => dayOf(message.createdAt)))].sort();
  if (days.length > 0) {
    const versions = new Map(
      (await readDays(store, 'set', contentSetId, ALL_TAGS, days[0], addDays(days[days.length - 1], 1), { consistent: true, versionsOnly: true })).map(
        (day) => [day.day, day.cv ?? 0],
      ),
    );
    for (const day of days) {
      const ofDay = messages.filter((message) => dayOf(message.createdAt) === day);
      await writeDayRecords(store, contentSetId, day, ofDay, ofDay, versions.get(day) ?? 0);
    }
  }
  const modelId = `${now.toISOString()}-${createHash('sha256').update(JSON.stringify(discovery.model)).digest('hex').slice(0, 8)}`;
  const modelParts = await writeModel(store, contentSetId, modelId, discovery.model);
  for (const theme of discovery.themes) state.labels[theme.id] = { label: theme.label, terms: theme.terms, curated: theme.curated };
  Object.assign(state, {
    themes: discovery.themes.map((theme) => ({ id: theme.id, label: theme.label, terms: theme.terms, curated: theme.curated, count: theme.messageIds.length })),
    modelId,
    modelParts,
    discoveredAt: now.toISOString(),
    discoveredMessages: messages.length,
    newSince: 0,
  });
  await writeThemeState(store, contentSetId, state);
  await deleteOtherModels(store, contentSetId, modelId);
  logger.info('themes discovered', { contentSetId, messages: messages.length, themes: discovery.themes.length, moved: moved.length });
}

/** The set's active responses with free text created on `day`, from its list index. */
async function activeMessagesOfDay(store: TableClient, set: SetFacts, day: string): Promise<Array<Omit<StoredMessage, 'theme' | 'phrases'>>> {
  const found: Array<Omit<StoredMessage, 'theme' | 'phrases'>> = [];
  for (const partition of listPartitions('gsi2', set.contentSetId)) {
    let below: string | undefined;
    do {
      const page = await readResponsePartition(store, { index: 'gsi2', partition, from: day, to: addDays(day, 1), state: 'active', limit: 1000, below });
      for (const item of page.items) {
        const text = messageOf(String(item.schema), item.value)?.trim();
        if (!text) continue;
        const tag = set.schema === 'tagged-message' ? (item.value as { tag?: unknown })?.tag : undefined;
        found.push({
          responseId: String(item.id),
          contentItemId: String(item.contentItemId),
          createdAt: String(item.createdAt),
          text,
          ...(tag === undefined ? {} : { tag: String(tag) }),
        });
      }
      below = page.frontier;
    } while (below !== undefined);
  }
  return found;
}

function readMessagesOfDay(store: TableClient, contentSetId: string, day: string): Promise<StoredMessage[]> {
  return readMessages(store, contentSetId, day, addDays(day, 1));
}

/**
 * A day's records of the set and of its items, for every tag and for all (`*`): what the
 * day's messages count now. Scopes and tags that had messages before (`before`) and have
 * none now are written empty, so nothing stale remains.
 */
async function writeDayRecords(
  store: TableClient,
  contentSetId: string,
  day: string,
  messages: readonly StoredMessage[],
  before: readonly StoredMessage[],
  counterVersion: number,
): Promise<void> {
  const themed: ThemedMessage[] = messages.map(({ phrases: _phrases, ...message }) => message);
  const tags = [...new Set([...messages, ...before].flatMap((message) => (message.tag === undefined ? [] : [message.tag])))];
  const records = (subset: readonly ThemedMessage[], withItems: boolean, cv?: number): StoredDay[] => [
    { tag: ALL_TAGS, day, ...dayCounts(subset, withItems), ...(cv === undefined ? {} : { cv }) },
    ...tags.map((tag) => ({
      tag: `t=${tag}`,
      day,
      ...dayCounts(
        subset.filter((message) => message.tag === tag),
        withItems,
      ),
    })),
  ];
  await putDays(store, 'set', contentSetId, records(themed, true, counterVersion));
  const items = [...new Set([...messages, ...before].map((message) => message.contentItemId))].sort();
  for (const item of items) {
    await putDays(
      store,
      'item',
      item,
      records(
        themed.filter((message) => message.contentItemId === item),
        false,
      ),
    );
  }
}
