import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { join } from 'node:path';
import { STREAM_CONSUMER_TIMEOUT_SECONDS, STREAM_CONSUMERS, type StreamConsumerDeclaration, type StreamConsumerName } from '../functions/stream/consumers';
import { matchesRecordFilter } from '../functions/stream/events';
import { localLambdaContext } from './lambda-context';
import { LocalStreamReader, type StreamReaderOptions } from './stream-reader';

type StreamHandler = (event: DynamoDBStreamEvent, context: ReturnType<typeof localLambdaContext>) => Promise<DynamoDBBatchResponse | undefined>;

/**
 * Each consumer's Lambda handler, loaded at its first batch: whoever imports this module
 * without a stream to read (the test files whose table has none) loads none of the
 * consumers' code. The mapped type makes the compiler reject a declared consumer without one.
 */
const HANDLERS: { readonly [Name in StreamConsumerName]: () => StreamHandler } = {
  counting: () =>
    (require('../functions/stream/counting-handler') as typeof import('../functions/stream/counting-handler')).handler as unknown as StreamHandler,
  webhooks: () =>
    (require('../functions/stream/webhooks-handler') as typeof import('../functions/stream/webhooks-handler')).handler as unknown as StreamHandler,
};

/** What a consumer's event source mapping declares, as reader options: its batch size, tumbling window, and batching window as the poll interval. */
export function readerSettings(declaration: StreamConsumerDeclaration): Pick<StreamReaderOptions, 'batchSize' | 'pollIntervalMs' | 'tumblingWindowSeconds'> {
  return {
    ...(declaration.batchSize ? { batchSize: declaration.batchSize } : {}),
    ...(declaration.batchingWindowSeconds ? { pollIntervalMs: declaration.batchingWindowSeconds * 1000 } : {}),
    ...(declaration.tumblingWindowSeconds ? { tumblingWindowSeconds: declaration.tumblingWindowSeconds } : {}),
  };
}

export interface LocalStreamConsumers {
  readers: ReadonlyMap<StreamConsumerName, LocalStreamReader>;
  /** Until every consumer has handled every write made before the call. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Every stream consumer of functions/stream/consumers.ts, each fed from DynamoDB Local's
 * stream by its own reader, as its own event source mapping would on AWS: its record
 * filter, its batching and tumbling windows, its own position (`stream-position.<name>.json` in the data folder).
 */
export function startStreamConsumers(client: DynamoDBClient, tableName: string, dataDir?: string): LocalStreamConsumers {
  const readers = new Map<StreamConsumerName, LocalStreamReader>();
  for (const declaration of STREAM_CONSUMERS) {
    const reader = new LocalStreamReader({
      client,
      tableName,
      positionFile: dataDir ? join(dataDir, `stream-position.${declaration.name}.json`) : undefined,
      accepts: (record) => matchesRecordFilter(record, declaration),
      ...readerSettings(declaration),
      handle: (event) =>
        HANDLERS[declaration.name]()(event, localLambdaContext(`local-stream-${declaration.name}`, undefined, STREAM_CONSUMER_TIMEOUT_SECONDS * 1000)),
    });
    reader.start();
    readers.set(declaration.name, reader);
  }
  return {
    readers,
    drain: async () => {
      for (const reader of readers.values()) await reader.drain();
    },
    stop: async () => {
      await Promise.all([...readers.values()].map((reader) => reader.stop()));
    },
  };
}
