import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
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
  /** The most bytes of records one batch delivers (Lambda's invocation payload limit: 6 MB, the default). */
  payloadLimitBytes?: number;
  pollIntervalMs?: number;
  /** How long the table's stream and its shards, once described, are taken as current (default 5 s). */
  describeEveryMs?: number;
  /**
   * The event source mapping's tumbling window: events then carry what Lambda adds with one
   * (`shardId`, `window`, `state`, `isFinalInvokeForWindow`), the shard id the real one.
   */
  tumblingWindowSeconds?: number;
}

/** The most records one GetRecords returns (the stream API's limit). */
const GET_RECORDS_LIMIT = 1000;

/** Lambda's invocation payload limit: a batch of stream records is cut before it (6 MB). */
const PAYLOAD_LIMIT_BYTES = 6 * 1024 * 1024;

/** The longest pause between reads of an idle stream (a consumer's own interval, when longer, stays). */
const IDLE_POLL_MS = 1000;

/** The tumbling window containing `now`: windows of `seconds` aligned on the epoch, as Lambda's are. */
function windowOf(seconds: number, now: Date): { start: string; end: string } {
  const start = Math.floor(now.getTime() / (seconds * 1000)) * seconds * 1000;
  return { start: new Date(start).toISOString(), end: new Date(start + seconds * 1000).toISOString() };
}

/**
 * Where reading a shard stands: records read but not delivered yet (what the payload limit
 * cut from a batch), then the iterator of what follows (absent: the shard is closed).
 */
interface Cursor {
  buffered: StreamRecord[];
  iterator: string | undefined;
}

/** A batch read from a cursor: its records, those delivered (in Lambda's shape), and where the next batch starts. */
interface Batch {
  records: StreamRecord[];
  delivered: DynamoDBRecord[];
  rest: Cursor;
  /** The shard is closed and this batch ends it. */
  closed: boolean;
  /** The batch stopped at its size or payload limit: more records are likely waiting. */
  full: boolean;
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
  private cursors = new Map<string, Cursor>();
  /**
   * The next batch of a shard, read while the handler works on a full one, as Lambda's poller
   * reads ahead; used if the shard's cursor is still the one it was read from.
   */
  private ahead = new Map<string, { from: Cursor; read: Promise<Batch> }>();
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
    // Nothing read ahead is still in flight when the clients go.
    await Promise.all([...this.ahead.values()].map(({ read }) => read.catch(() => undefined)));
    this.ahead.clear();
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
      this.cursors.clear();
      this.ahead.clear();
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

  /**
   * A batch of a shard's records from `cursor`, gathered as Lambda's poller fills one: page
   * after page (GetRecords returns at most 1000) while records come, until `batchSize`
   * records or the invocation payload limit (`payloadLimitBytes` of delivered records), whose
   * cut keeps the rest of a page for the next batch.
   */
  private async readBatch(cursor: Cursor, streamArn: string): Promise<Batch> {
    const batchSize = this.options.batchSize ?? 100;
    const payloadLimit = this.options.payloadLimitBytes ?? PAYLOAD_LIMIT_BYTES;
    const records: StreamRecord[] = [];
    const delivered: DynamoDBRecord[] = [];
    let bytes = 0;
    let { buffered, iterator } = cursor;
    for (;;) {
      for (const [index, record] of buffered.entries()) {
        const accepted = this.delivery(record, streamArn);
        const size = accepted ? JSON.stringify(accepted).length : 0;
        if (records.length >= batchSize || (delivered.length > 0 && bytes + size > payloadLimit)) {
          return { records, delivered, rest: { buffered: buffered.slice(index), iterator }, closed: false, full: true };
        }
        records.push(record);
        if (accepted) delivered.push(accepted);
        bytes += size;
      }
      const rest = { buffered: [], iterator };
      if (!iterator) return { records, delivered, rest, closed: true, full: false };
      if (records.length >= batchSize) return { records, delivered, rest, closed: false, full: true };
      const page: GetRecordsCommandOutput = await this.streams.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: Math.min(batchSize - records.length, GET_RECORDS_LIMIT) }),
      );
      buffered = page.Records ?? [];
      iterator = page.NextShardIterator;
      if (buffered.length === 0) return { records, delivered, rest: { buffered, iterator }, closed: !iterator, full: false };
    }
  }

  /** The batch read ahead from `cursor`, or a batch read now. */
  private nextBatch(shardId: string, cursor: Cursor, streamArn: string): Promise<Batch> {
    const ahead = this.ahead.get(shardId);
    this.ahead.delete(shardId);
    return ahead?.from === cursor ? ahead.read : this.readBatch(cursor, streamArn);
  }

  /** A record in the shape Lambda delivers it, or undefined when the filter passes over it. */
  private delivery(record: StreamRecord, streamArn: string): DynamoDBRecord | undefined {
    const delivered = lambdaRecord(record, streamArn);
    return (this.options.accepts?.(delivered) ?? true) ? delivered : undefined;
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
      let cursor = this.cursors.get(shardId);
      if (!cursor) {
        const last = position.shards[shardId];
        const { ShardIterator } = await this.streams.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: shardId,
            ShardIteratorType: last ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
            SequenceNumber: last,
          }),
        );
        if (!ShardIterator) continue;
        cursor = { buffered: [], iterator: ShardIterator };
      }
      let page: Batch;
      try {
        page = await this.nextBatch(shardId, cursor, streamArn);
      } catch (error) {
        // An iterator expires (ExpiredIteratorException; 15 minutes on AWS) when handling or a
        // pause outlasts it: the next pass asks for a new one after the saved position.
        this.cursors.delete(shardId);
        throw error;
      }
      const { records, delivered } = page;
      // A closed shard (no next iterator): its successor is found by describing the stream again.
      if (page.closed) {
        this.described = undefined;
        if (records.length === 0) this.finished.add(shardId);
      }
      if (records.length === 0) {
        this.cursors.set(shardId, page.rest);
        continue;
      }
      if (page.full) {
        const read = this.readBatch(page.rest, streamArn);
        // A failed read ahead is read again when its turn comes.
        read.catch(() => undefined);
        this.ahead.set(shardId, { from: page.rest, read });
      }
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
      if (failed) {
        this.cursors.delete(shardId);
        this.ahead.delete(shardId);
      } else this.cursors.set(shardId, page.rest);
      if (failed) throw new Error(`the stream consumer failed at sequence number ${failed}; retrying`);
    }
    return handled;
  }
}
