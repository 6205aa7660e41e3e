import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../observability/logger';
import { defaultTableClient } from '../store/dynamodb-clients';
import { countStreamRecords } from './counting';

/**
 * What Lambda delivers when the event source mapping has a tumbling window
 * (TumblingWindowInSeconds): the records, and the shard they come from, which nothing else
 * in a DynamoDB event names. The counting consumer needs the shard for its watermarks.
 */
export interface DynamoDBWindowedEvent extends DynamoDBStreamEvent {
  shardId?: string;
  eventSourceARN?: string;
  window?: { start: string; end: string };
  state?: Record<string, string>;
  isFinalInvokeForWindow?: boolean;
  isWindowTerminatedEarly?: boolean;
}

/** A windowed invocation answers with the window's state (nothing is carried between invocations here). */
export type DynamoDBWindowedResponse = DynamoDBBatchResponse & { state: Record<string, string> };

/** The counting consumer's Lambda entry; `npm start` feeds the same function from DynamoDB Local's stream. */
export const handler = middy<DynamoDBWindowedEvent, DynamoDBWindowedResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event) => {
    if (!event.shardId) {
      throw new Error(
        'the counting consumer needs the stream shard id (its watermarks are per shard): configure its event source mapping with a tumbling window (TumblingWindowInSeconds), which makes Lambda send shardId',
      );
    }
    // Every invocation writes what it got; the final invocation of a window usually has no records.
    const result = await countStreamRecords(defaultTableClient(), event.shardId, event.Records ?? [], new Date());
    return { ...result, state: {} };
  });
