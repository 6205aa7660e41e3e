/**
 * The counting consumer: keeps the aggregate counters (store/counters.ts) exactly, from the
 * response events of the stream (stream/events.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { inParallel } from '../jobs/parallel';
import { logger } from '../observability/logger';
import type { Contribution } from '../domain/schemas';
import {
  changesAfter,
  changesPerItem,
  counterUpdate,
  staleWatermarks,
  sumChanges,
  watermarkName,
  watermarkPrune,
  type ItemChanges,
  type ResponseChange,
  type WatermarkGuard,
} from '../store/counters';
import { conditionHolds, isConditionFailure } from '../store/conditions';
import type { TableClient } from '../store/dynamodb-clients';
import { recordRankingChanges, type RankingChanges } from '../store/top-lists';
import type { DomainEvent, ResponseImage } from '../domain/events';
import { eventsOf } from './events';
import { screenNewResponses } from './screening';

const counted = (response: ResponseImage | undefined) => (response?.state === 'active' ? response.contribution : undefined);

/** Whether an event is the creation of a response the screening held before it was counted (stream/screening.ts). */
const isUncountedCreation = (event: DomainEvent, uncounted: ReadonlySet<string>) =>
  event.type === 'response.created' && event.after.quarantine === undefined && uncounted.has(event.after.id);

function sameContribution(a: Contribution | undefined, b: Contribution | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The counter change of an event, or null when it changes no count (content events, or a
 * response update that leaves its counted value as it was). A creation adds its value, an
 * edit moves its weight from the old value to the new one, a revocation or deletion takes
 * it out.
 *
 * A response the screening held at its creation (`uncounted`: the ids `screenNewResponses`
 * answered for the batch) was never counted: its creation adds nothing, and its hold
 * takes out only what was counted since (the edits of the response between its creation and
 * its hold, if any): its image's value less `uncounted`, the creation's value the hold
 * recorded. So a held response is in no count at any moment, and the counts are exact
 * whatever is redelivered, since the verdict is the hold's write itself.
 */
export function countedChange(event: DomainEvent, uncounted: ReadonlySet<string> = NONE): ResponseChange | null {
  if (!event.type.startsWith('response.')) return null;
  const before = 'before' in event ? (event.before as ResponseImage) : undefined;
  const after = 'after' in event ? (event.after as ResponseImage) : undefined;
  const held = isUncountedCreation(event, uncounted);
  const removed = counted(before);
  const added = held ? undefined : event.type === 'response.quarantined' ? after?.uncounted : counted(after);
  // A held creation still changes its counter items by nothing: they exist and carry the
  // shard's watermark past it, as a revoked response's do (and a rebuild makes them).
  if (!held && sameContribution(removed, added)) return null;
  const source = (after ?? before)!;
  return {
    eventId: event.eventId,
    sequenceNumber: event.sequenceNumber,
    scope: { accountId: source.accountId, projectId: source.projectId, contentSetId: source.contentSetId, contentItemId: source.contentItemId },
    createdAt: new Date(source.createdAt),
    removed,
    added,
  };
}

const NONE: ReadonlySet<string> = new Set();

/** The counter changes of a batch of events, in record order. */
export function countedChanges(events: DomainEvent[], uncounted: ReadonlySet<string> = NONE): ResponseChange[] {
  return events.map((event) => countedChange(event, uncounted)).filter((change): change is ResponseChange => change !== null);
}

/** Counter items updated at once by one invocation (each is one UpdateItem). */
export const UPDATE_CONCURRENCY = 32;
/** Refusals of an update whose watermark was read again; more means a second writer on the same shard. */
const MAX_ATTEMPTS = 4;

/** What applying a batch did to one item: updates sent and refused, watermarks pruned. */
export interface ItemOutcome {
  updates: number;
  refused: number;
  pruned: number;
}

/**
 * Applies one item's changes of the batch: ONE UpdateItem that ADDs their sum and moves the
 * shard's watermark to the last of them, on the condition that the watermark is before the
 * first. Refused (a redelivery: some of them were applied before), the item is read, the
 * changes its watermark has seen are dropped and the rest is applied on the condition that
 * the watermark is still exactly what was read. Stale watermarks of other shards are pruned
 * from the item the update returns.
 */
export async function applyItemChanges(store: TableClient, shardId: string, item: ItemChanges, now: Date): Promise<ItemOutcome> {
  const name = watermarkName(shardId);
  const key = { pk: item.pk, sk: item.sk };
  const outcome: ItemOutcome = { updates: 0, refused: 0, pruned: 0 };
  let pending = item.changes;
  let guard: WatermarkGuard = { before: pending[0].sequenceNumber };
  for (let attempt = 1; ; attempt++) {
    // Written even when the changes net to zero (a creation and its removal in one batch):
    // the watermark must pass them, or a redelivered half of them would count.
    const counters = sumChanges(pending);
    outcome.updates++;
    try {
      const answer = await store.documentClient.send(
        counterUpdate(store.tableName, key, counters, { name, lastSequence: pending.at(-1)!.sequenceNumber, guard }, now),
      );
      const stale = staleWatermarks(answer.Attributes ?? {}, now);
      if (Object.keys(stale).length > 0 && (await conditionHolds(store.documentClient.send(watermarkPrune(store.tableName, key, stale))))) {
        outcome.pruned += Object.keys(stale).length;
      }
      return outcome;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      outcome.refused++;
      if (attempt >= MAX_ATTEMPTS) throw new Error(`the watermark of ${item.pk} / ${item.sk} kept moving during ${MAX_ATTEMPTS} attempts`);
    }
    const stored = (await store.documentClient.send(new GetCommand({ TableName: store.tableName, Key: key, ConsistentRead: true }))).Item;
    const seen = typeof stored?.[name] === 'string' ? (stored[name] as string) : undefined;
    pending = changesAfter(seen, item.changes);
    if (pending.length === 0) return outcome;
    guard = { seen };
  }
}

/**
 * Counts a batch of stream records of one shard exactly once.
 *
 * Lambda delivers records at least once (retried batches, bisected batches, replays), but
 * those of a shard in order, one batch at a time (ParallelizationFactor 1), a parent shard
 * before its children. So each counter item carries, per shard, the sequence number of the
 * last record applied to it (its watermark, store/counters.ts), and every item's share of
 * the batch is one conditional UpdateItem that refuses records at or before it: no marker
 * items, no transaction. Items are updated in parallel; one failing leaves the others
 * applied, and the batch reports its first record (`batchItemFailures`): Lambda retries the
 * batch and the watermarks skip what was applied.
 */
export async function countStreamRecords(store: TableClient, shardId: string, records: DynamoDBRecord[], now: Date): Promise<DynamoDBBatchResponse> {
  const first = records[0]?.dynamodb?.SequenceNumber;
  const events = records.flatMap(eventsOf);
  let uncounted: Set<string>;
  try {
    // Before counting: what it holds is never counted (docs/architecture.md, "Screening before counting").
    uncounted = await screenNewResponses(store, shardId, events, now);
  } catch (error) {
    logger.error('screening new responses failed', { error: error as Error, shardId, firstSequenceNumber: first, records: records.length });
    return { batchItemFailures: first ? [{ itemIdentifier: first }] : [] };
  }
  const changes = countedChanges(events, uncounted);
  const items = changesPerItem(changes);
  const failures: unknown[] = [];
  const done: ItemOutcome = { updates: 0, refused: 0, pruned: 0 };
  // Every item is tried, failed ones or not: what is applied is not redone on the retry, and
  // nothing is still in flight when the invocation answers.
  await inParallel(items, UPDATE_CONCURRENCY, async (item) => {
    try {
      const outcome = await applyItemChanges(store, shardId, item, now);
      done.updates += outcome.updates;
      done.refused += outcome.refused;
      done.pruned += outcome.pruned;
    } catch (error) {
      failures.push(error);
    }
  });
  // A refusal is a redelivery the watermarks caught: worth seeing in the logs, not an error.
  if (done.refused > 0 || done.pruned > 0) logger.info('counted a redelivered batch or pruned watermarks', { shardId, records: records.length, ...done });
  if (failures.length > 0) {
    logger.error('counting stream records failed', {
      error: failures[0] as Error,
      failedItems: failures.length,
      shardId,
      firstSequenceNumber: first,
      records: records.length,
    });
    return { batchItemFailures: first ? [{ itemIdentifier: first }] : [] };
  }
  try {
    // After the counters, so that the ranker recounts what they hold now; a redelivered
    // batch writes its record again, which only makes the ranker recount twice.
    if (changes.length > 0) await recordRankingChanges(store, rankingChangesOf(changes), changes[0].eventId);
  } catch (error) {
    logger.error('recording ranking changes failed', { error: error as Error, shardId, firstSequenceNumber: first });
    return { batchItemFailures: first ? [{ itemIdentifier: first }] : [] };
  }
  return { batchItemFailures: [] };
}

/** The sets and items whose counts the changes moved, and the earliest day they moved, for the ranker. */
export function rankingChangesOf(changes: ResponseChange[]): RankingChanges {
  const sets: RankingChanges = new Map();
  for (const { scope, createdAt } of changes) {
    const day = createdAt.toISOString().slice(0, 10);
    const set = sets.get(scope.contentSetId) ?? {
      accountId: scope.accountId,
      projectId: scope.projectId,
      contentSetId: scope.contentSetId,
      items: new Set<string>(),
      from: day,
    };
    set.items.add(scope.contentItemId);
    if (day < set.from) set.from = day;
    sets.set(scope.contentSetId, set);
  }
  return sets;
}
