import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { logger } from '../functions/observability/logger';
import type { DynamoDBWindowedEvent } from '../functions/stream/counting-handler';

export interface StreamReaderOptions {
  client: DynamoDBClient;
  tableName: string;
  /** The Lambda handler to feed, exactly as the event source mapping would. */
  handle(event: DynamoDBWindowedEvent): Promise<DynamoDBBatchResponse | undefined>;
  /** The event source's filter: records it refuses are passed over, as Lambda drops filtered-out records. */
  accepts?(record: DynamoDBRecord): boolean;
  /** Where the position in the stream is kept across restarts; omitted = in memory. */
  positionFile?: string;
  batchSize?: number;
  pollIntervalMs?: number;
  /** How long the table's stream and its shards, once described, are taken as current (default 5 s). */
  describeEveryMs?: number;
  /**
   * The event source mapping's tumbling window: events then carry what Lambda adds with one
   * (`shardId`, `window`, `state`, `isFinalInvokeForWindow`), the shard id the real one.
   */
  tumblingWindowSeconds?: number;
}

/** The longest pause between reads of an idle stream (a consumer's own interval, when longer, stays). */
const IDLE_POLL_MS = 1000;

/** The tumbling window containing `now`: windows of `seconds` aligned on the epoch, as Lambda's are. */
function windowOf(seconds: number, now: Date): { start: string; end: string } {
  const start = Math.floor(now.getTime() / (seconds * 1000)) * seconds * 1000;
  return { start: new Date(start).toISOString(), end: new Date(start + seconds * 1000).toISOString() };
}

/** The table's current stream and its shards, as last described. */
interface DescribedStream {
  streamArn: string;
  shardIds: string[];
  describedAt: number;
}

interface Position {
  streamArn: string;
  /** Last sequence number handled per shard. */
  shards: Record<string, string>;
}

/** Lambda delivers binary attribute values base64-encoded, where the SDK gives bytes. */
function lambdaAttribute(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(lambdaAttribute);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, lambdaAttribute(inner)]));
  return value;
}

/** The stream API's record in the shape Lambda's DynamoDB event source delivers. */
export function lambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const { ApproximateCreationDateTime, ...dynamodb } = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion,
    eventSource: record.eventSource,
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(ApproximateCreationDateTime ? { ApproximateCreationDateTime: Math.floor(new Date(ApproximateCreationDateTime).getTime() / 1000) } : {}),
      ...(lambdaAttribute(dynamodb) as DynamoDBRecord['dynamodb']),
    },
  };
}

/**
 * Plays the part of Lambda's DynamoDB event source locally: reads DynamoDB Local's stream
 * and hands batches to the consumer's handler. A batch that reports a failure is read
 * again from its first failed record, and the position only moves past records the
 * handler accepted, so a restart neither skips nor (thanks to the consumer's markers)
 * double counts.
 */
export class LocalStreamReader {
  private readonly streams: DynamoDBStreamsClient;
  /** Its own client: polling is the event source's work, not the handlers' (benchmarks count the handlers' requests). */
  private readonly tables: DynamoDBClient;
  private position: Position | undefined;
  private described: DescribedStream | undefined;
  private iterators = new Map<string, string | undefined>();
  /** Closed shards read to their end: nothing more can come from them. */
  private finished = new Set<string>();
  private running: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: StreamReaderOptions) {
    const { endpoint, region, credentials } = options.client.config;
    this.streams = new DynamoDBStreamsClient({ endpoint, region, credentials });
    this.tables = new DynamoDBClient({ endpoint, region, credentials });
  }

  start(): void {
    this.stopped = false;
    const busy = this.options.pollIntervalMs ?? 250;
    let wait = busy;
    const loop = async () => {
      if (this.stopped) return;
      let handled = 0;
      try {
        handled = await this.exclusive(() => this.pollOnce(false));
      } catch (error) {
        this.described = undefined;
        logger.error('reading the local stream failed', { error: error as Error });
      }
      // An idle stream is read less and less often, down to once every IDLE_POLL_MS, and the
      // first records bring the interval back: an idle `npm start` (and every test file's
      // server) spent most of its CPU polling an empty stream 4 times a second per consumer.
      wait = handled > 0 ? busy : Math.max(busy, Math.min(wait * 2, IDLE_POLL_MS));
      if (!this.stopped) this.timer = setTimeout(loop, wait);
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running.catch(() => undefined);
    this.streams.destroy();
    this.tables.destroy();
  }

  /** Reads until the stream has nothing more: every write made before the call is counted. */
  async drain(): Promise<void> {
    for (let pass = 0; pass < 1000; pass++) {
      // The first pass describes the stream afresh, so that no shard that existed at the call is missed.
      if ((await this.exclusive(() => this.pollOnce(pass === 0))) === 0) return;
    }
    throw new Error('the local stream did not drain');
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.running.catch(() => undefined).then(work);
    this.running = next;
    return next;
  }

  private loadPosition(streamArn: string): Position {
    const file = this.options.positionFile;
    if (!this.position && file && existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as Position;
      if (saved.streamArn === streamArn) this.position = saved;
    }
    if (this.position?.streamArn !== streamArn) {
      this.position = { streamArn, shards: {} };
      this.iterators.clear();
      this.finished.clear();
    }
    return this.position;
  }

  private savePosition(): void {
    const file = this.options.positionFile;
    if (!file || !this.position) return;
    writeFileSync(`${file}.tmp`, JSON.stringify(this.position), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  }

  /**
   * The table's current stream and shards. Described again after `describeEveryMs` (a table
   * deleted and created again has a new stream; shards are added over time), after an
   * error or a closed shard, or when `fresh`; in between, a poll is one GetRecords per shard.
   */
  private async currentStream(fresh: boolean): Promise<DescribedStream | undefined> {
    const now = Date.now();
    if (fresh || !this.described || now - this.described.describedAt >= (this.options.describeEveryMs ?? 5000)) {
      this.described = undefined;
      const table = await this.tables.send(new DescribeTableCommand({ TableName: this.options.tableName }));
      const streamArn = table.Table?.LatestStreamArn;
      if (!streamArn) return undefined;
      const stream = await this.streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
      this.described = { streamArn, shardIds: (stream.StreamDescription?.Shards ?? []).map((shard) => shard.ShardId!), describedAt: now };
    }
    return this.described;
  }

  private eventOf(records: DynamoDBRecord[], streamArn: string, shardId: string): DynamoDBWindowedEvent {
    const seconds = this.options.tumblingWindowSeconds;
    if (!seconds) return { Records: records };
    return {
      Records: records,
      shardId,
      eventSourceARN: streamArn,
      window: windowOf(seconds, new Date()),
      state: {},
      isFinalInvokeForWindow: false,
      isWindowTerminatedEarly: false,
    };
  }

  private readPage(iterator: string) {
    return this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: this.options.batchSize ?? 100 }));
  }

  /** One pass over every shard; returns how many records were handled. */
  private async pollOnce(fresh: boolean): Promise<number> {
    const described = await this.currentStream(fresh);
    if (!described) return 0;
    const { streamArn } = described;
    const position = this.loadPosition(streamArn);
    let handled = 0;
    for (const shardId of described.shardIds) {
      if (this.finished.has(shardId)) continue;
      let iterator = this.iterators.get(shardId);
      if (!iterator) {
        const last = position.shards[shardId];
        iterator = (
          await this.streams.send(
            new GetShardIteratorCommand({
              StreamArn: streamArn,
              ShardId: shardId,
              ShardIteratorType: last ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
              SequenceNumber: last,
            }),
          )
        ).ShardIterator;
      }
      if (!iterator) continue;
      let page: Awaited<ReturnType<typeof this.readPage>>;
      try {
        page = await this.readPage(iterator);
      } catch (error) {
        // An iterator expires (ExpiredIteratorException; 15 minutes on AWS) when handling or a
        // pause outlasts it: the next pass asks for a new one after the saved position.
        this.iterators.delete(shardId);
        throw error;
      }
      const records = page.Records ?? [];
      // A closed shard (no next iterator): its successor is found by describing the stream again.
      if (!page.NextShardIterator) {
        this.described = undefined;
        if (records.length === 0) this.finished.add(shardId);
      }
      if (records.length === 0) {
        this.iterators.set(shardId, page.NextShardIterator);
        continue;
      }
      const delivered = records.map((record) => lambdaRecord(record, streamArn)).filter((record) => this.options.accepts?.(record) ?? true);
      const result = delivered.length > 0 ? await this.options.handle(this.eventOf(delivered, streamArn, shardId)) : undefined;
      const failed = result?.batchItemFailures?.[0]?.itemIdentifier;
      const accepted = failed
        ? records.slice(
            0,
            records.findIndex((record) => record.dynamodb?.SequenceNumber === failed),
          )
        : records;
      if (accepted.length > 0) {
        position.shards[shardId] = accepted.at(-1)!.dynamodb!.SequenceNumber!;
        this.savePosition();
      }
      handled += accepted.length;
      // After a failure, read again from the first failed record; otherwise continue where the page ended.
      this.iterators.set(shardId, failed ? undefined : page.NextShardIterator);
      if (failed) throw new Error(`the stream consumer failed at sequence number ${failed}; retrying`);
    }
    return handled;
  }
}
