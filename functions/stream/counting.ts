/**
 * The counting consumer: keeps the aggregate counters (store/counters.ts) exactly, from the
 * response events of the stream (stream/events.ts).
 */
import { BatchGetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { logger } from '../observability/logger';
import type { Contribution } from '../domain/schemas';
import { counterDeltas, counterTargets, counterItemId, counterUpdates, type CounterDelta, type ResponseChange } from '../store/counters';
import type { TableClient } from '../store/dynamodb-clients';
import { recordRankingChanges, type RankingChanges } from '../store/top-lists';
import { eventsOf, type DomainEvent, type ResponseImage } from './events';

/** Stream records are kept 24 h; markers outlive any redelivery. */
export const MARKER_TTL_SECONDS = 3 * 24 * 3600;

/** The item recording that a stream record was counted (see countStreamRecords). */
export function markerKey(eventId: string) {
  return { pk: `counted#${eventId}`, sk: 'counted' };
}

const counted = (response: ResponseImage | undefined) => (response?.state === 'active' ? response.contribution : undefined);

function sameContribution(a: Contribution | undefined, b: Contribution | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The counter change of an event, or null when it changes no count (content events, or a
 * response update that leaves its counted value as it was). A creation adds its value, an
 * edit moves its weight from the old value to the new one, a revocation or deletion takes
 * it out.
 */
export function countedChange(event: DomainEvent): ResponseChange | null {
  if (!event.type.startsWith('response.')) return null;
  const before = 'before' in event ? (event.before as ResponseImage) : undefined;
  const after = 'after' in event ? (event.after as ResponseImage) : undefined;
  const removed = counted(before);
  const added = counted(after);
  if (sameContribution(removed, added)) return null;
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

/** The counter changes of a batch of records, in record order. */
export function countedChanges(records: DynamoDBRecord[]): ResponseChange[] {
  return records
    .flatMap(eventsOf)
    .map(countedChange)
    .filter((change): change is ResponseChange => change !== null);
}

/** DynamoDB transactions hold at most 100 items: markers plus distinct counter items. */
const TRANSACTION_LIMIT = 100;

/** Consecutive changes whose markers and coalesced counters fit one transaction. */
export function chunkChanges(changes: ResponseChange[], now: Date): ResponseChange[][] {
  const chunks: ResponseChange[][] = [];
  let current: ResponseChange[] = [];
  let targets = new Set<string>();
  for (const change of changes) {
    const own = counterTargets(change.scope, change.createdAt, now).map(counterItemId);
    const union = new Set([...targets, ...own]);
    if (current.length > 0 && current.length + 1 + union.size > TRANSACTION_LIMIT) {
      chunks.push(current);
      current = [];
      targets = new Set(own);
    } else {
      targets = union;
    }
    current.push(change);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Applies deltas and records their stream records as counted, atomically: either a
 * record's marker and its share of every counter are written, or nothing is. A marker
 * that already exists cancels the transaction (the caller then drops those records).
 */
async function applyCounted(store: TableClient, eventIds: string[], deltas: CounterDelta[], now: Date): Promise<'applied' | 'already-counted'> {
  const expiresAt = Math.floor(now.getTime() / 1000) + MARKER_TTL_SECONDS;
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
    ...eventIds.map((eventId) => ({
      Put: {
        TableName: store.tableName,
        Item: { ...markerKey(eventId), countedAt: now.toISOString(), expiresAt },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    })),
    ...counterUpdates(store.tableName, deltas, now),
  ];
  try {
    await store.documentClient.send(new TransactWriteCommand({ TransactItems: items }));
    return 'applied';
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    if (reasons?.slice(0, eventIds.length).some((reason) => reason.Code === 'ConditionalCheckFailed')) return 'already-counted';
    throw error;
  }
}

async function alreadyCounted(store: TableClient, eventIds: string[]): Promise<Set<string>> {
  const answer = await store.documentClient.send(
    new BatchGetCommand({ RequestItems: { [store.tableName]: { Keys: eventIds.map(markerKey), ConsistentRead: true, ProjectionExpression: 'pk' } } }),
  );
  return new Set((answer.Responses?.[store.tableName] ?? []).map((item) => String(item.pk).slice('counted#'.length)));
}

/**
 * Counts a batch of stream records exactly once.
 *
 * Lambda delivers records at least once (retried batches, bisected batches, replays). Each
 * record's marker is written in the same transaction as the counters it changes, so a
 * record is either fully counted and marked, or not at all; a redelivered record finds its
 * marker and is dropped. Powertools' idempotency utility keeps its records apart from the
 * work it guards, which cannot make a coalesced counter update and its records atomic, so
 * this is done by hand. On a failure the batch reports the first uncounted record
 * (`batchItemFailures`); Lambda retries from there and the markers skip what was done.
 */
export async function countStreamRecords(store: TableClient, records: DynamoDBRecord[], now: Date): Promise<DynamoDBBatchResponse> {
  const changes = countedChanges(records);
  for (const chunk of chunkChanges(changes, now)) {
    try {
      let pending = chunk;
      for (let attempt = 1; pending.length > 0; attempt++) {
        const outcome = await applyCounted(
          store,
          pending.map((change) => change.eventId),
          counterDeltas(pending, now),
          now,
        );
        if (outcome === 'applied') break;
        const done = await alreadyCounted(
          store,
          pending.map((change) => change.eventId),
        );
        pending = pending.filter((change) => !done.has(change.eventId));
        if (attempt > 3) throw new Error('stream records could not be marked as counted');
      }
    } catch (error) {
      logger.error('counting stream records failed', { error: error as Error, firstSequenceNumber: chunk[0].sequenceNumber, records: chunk.length });
      return { batchItemFailures: [{ itemIdentifier: chunk[0].sequenceNumber }] };
    }
  }
  try {
    // After the counters, so that the ranker recounts what they hold now; a redelivered
    // batch writes its record again, which only makes the ranker recount twice.
    if (changes.length > 0) await recordRankingChanges(store, rankingChangesOf(changes), changes[0].eventId);
  } catch (error) {
    logger.error('recording ranking changes failed', { error: error as Error, firstSequenceNumber: changes[0].sequenceNumber });
    return { batchItemFailures: [{ itemIdentifier: changes[0].sequenceNumber }] };
  }
  return { batchItemFailures: [] };
}

/** The sets and items whose counts the changes moved, for the ranker. */
export function rankingChangesOf(changes: ResponseChange[]): RankingChanges {
  const sets: RankingChanges = new Map();
  for (const { scope } of changes) {
    const set = sets.get(scope.contentSetId) ?? {
      accountId: scope.accountId,
      projectId: scope.projectId,
      contentSetId: scope.contentSetId,
      items: new Set<string>(),
    };
    set.items.add(scope.contentItemId);
    sets.set(scope.contentSetId, set);
  }
  return sets;
}
