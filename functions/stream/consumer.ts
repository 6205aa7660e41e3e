import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as LambdaAttributeValue, DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { addContribution, emptyCounter, type Counter } from '../domain/aggregation';
import type { Contribution } from '../domain/schemas';
import { logger } from '../api/logger';
import { applyCounted, counterTargets, markerKey, type CounterDelta, type ResponseScope } from '../store/aggregates';
import type { TableClient } from '../store/dynamo';

/** Partition key prefix of response items (store/entities.ts): the only records that change counts. */
export const RESPONSE_KEY_PREFIX = 'response#';

/** What one stream record changes in the counters: the contribution it removes and the one it adds. */
export interface ResponseChange {
  eventId: string;
  sequenceNumber: string;
  scope: ResponseScope;
  createdAt: Date;
  removed?: Contribution;
  added?: Contribution;
}

interface ResponseImage extends ResponseScope {
  state: string;
  contribution: Contribution;
  createdAt: string;
}

function image(attributes: Record<string, LambdaAttributeValue> | undefined): ResponseImage | undefined {
  return attributes ? (unmarshall(attributes as never) as ResponseImage) : undefined;
}

const counted = (response: ResponseImage | undefined) => (response?.state === 'active' ? response.contribution : undefined);

function sameContribution(a: Contribution | undefined, b: Contribution | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * The counter change of a stream record, or null when it changes no count: records of
 * other items (the counters' own writes among them), or a response update that leaves its
 * counted value as it was. An insert adds its value, an edit moves its weight from the old
 * value to the new one, a revocation (or deletion) takes it out.
 */
export function responseChange(record: DynamoDBRecord): ResponseChange | null {
  const keys = record.dynamodb?.Keys;
  if (!keys?.pk?.S?.startsWith(RESPONSE_KEY_PREFIX) || !record.eventID || !record.dynamodb?.SequenceNumber) return null;
  const before = image(record.dynamodb.OldImage);
  const after = image(record.dynamodb.NewImage);
  const removed = counted(before);
  const added = counted(after);
  if (sameContribution(removed, added)) return null;
  const source = (after ?? before)!;
  return {
    eventId: record.eventID,
    sequenceNumber: record.dynamodb.SequenceNumber,
    scope: { accountId: source.accountId, projectId: source.projectId, contentSetId: source.contentSetId, contentItemId: source.contentItemId },
    createdAt: new Date(source.createdAt),
    removed,
    added,
  };
}

function changeDelta(change: ResponseChange): Counter {
  let delta = emptyCounter(0);
  if (change.removed) delta = addContribution(delta, change.removed, -1);
  if (change.added) delta = addContribution(delta, change.added, 1);
  return delta;
}

/**
 * Merges changes per counter item: N responses on one item in one batch cost one update per
 * bucket, not N. Project counters span sets of several schemas, so they keep no per-option
 * counts (their option indexes would mean different things).
 */
export function coalesce(changes: ResponseChange[], now: Date): CounterDelta[] {
  const merged = new Map<string, CounterDelta>();
  for (const change of changes) {
    const delta = changeDelta(change);
    for (const target of counterTargets(change.scope, change.createdAt, now)) {
      const key = `${target.pk}\u0000${target.sk}`;
      const ownDelta = target.attributes.entity === 'project' ? { ...delta, options: [] } : delta;
      const existing = merged.get(key);
      merged.set(key, { target, delta: existing ? addCounters(existing.delta, ownDelta) : ownDelta });
    }
  }
  return [...merged.values()];
}

function addCounters(a: Counter, b: Counter): Counter {
  const length = Math.max(a.options.length, b.options.length);
  return {
    count: a.count + b.count,
    options: Array.from({ length }, (_, index) => (a.options[index] ?? 0) + (b.options[index] ?? 0)),
    sentimentSum: a.sentimentSum + b.sentimentSum,
    sentimentCount: a.sentimentCount + b.sentimentCount,
    intensitySum: a.intensitySum + b.intensitySum,
    intensityCount: a.intensityCount + b.intensityCount,
    ratingSum: a.ratingSum + b.ratingSum,
  };
}

/** DynamoDB transactions hold at most 100 items: markers plus distinct counter items. */
const TRANSACTION_LIMIT = 100;

/** Consecutive changes whose markers and coalesced counters fit one transaction. */
export function chunkChanges(changes: ResponseChange[], now: Date): ResponseChange[][] {
  const chunks: ResponseChange[][] = [];
  let current: ResponseChange[] = [];
  let targets = new Set<string>();
  for (const change of changes) {
    const own = counterTargets(change.scope, change.createdAt, now).map((target) => `${target.pk}\u0000${target.sk}`);
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
  const changes = records.map(responseChange).filter((change): change is ResponseChange => change !== null);
  for (const chunk of chunkChanges(changes, now)) {
    try {
      let pending = chunk;
      for (let attempt = 1; pending.length > 0; attempt++) {
        const outcome = await applyCounted(store, pending.map((change) => change.eventId), coalesce(pending, now), now);
        if (outcome === 'applied') break;
        const done = await alreadyCounted(store, pending.map((change) => change.eventId));
        pending = pending.filter((change) => !done.has(change.eventId));
        if (attempt > 3) throw new Error('stream records could not be marked as counted');
      }
    } catch (error) {
      logger.error('counting stream records failed', { error: error as Error, firstSequenceNumber: chunk[0].sequenceNumber, records: chunk.length });
      return { batchItemFailures: [{ itemIdentifier: chunk[0].sequenceNumber }] };
    }
  }
  return { batchItemFailures: [] };
}
