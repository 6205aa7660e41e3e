/**
 * The stream consumers: what differs between them, declared once. The CDK construct
 * (lib/stream-consumer.ts) makes one function, event source mapping, dead-letter queue and
 * set of alarms per entry; `npm start` runs one local stream reader per entry, each with
 * its own persisted position. Adding a consumer is one entry here, its entry module and
 * its table access (lib/table-access.ts).
 *
 * A DynamoDB stream serves at most two simultaneous readers per shard (more are
 * throttled). A third consumer should not get a third event source mapping: either it
 * shares a reader (one function that hands `eventsOf` output to several consumers, since
 * each consumer here is a function of events), or the stream fans out once through
 * EventBridge Pipes (DynamoDB stream -> event bus, any number of rules) or Kinesis Data
 * Streams for DynamoDB. docs/architecture.md explains the choice.
 *
 * Pure declarations: the CDK app reads them without loading any consumer code.
 */
import { RECORD_KEY_PREFIXES, type StreamEventName } from './events';

export interface StreamConsumerDeclaration {
  /** Short id: construct ids, the local position file (`stream-position.<name>.json`), logs. */
  name: string;
  description: string;
  /** The Lambda entry module (exports `handler`), relative to the repository root. */
  entry: string;
  /** Items whose records the consumer receives, by partition key prefix (the event source filter). */
  keyPrefixes: readonly string[];
  /** For some prefixes, the only kinds of record wanted (default: every kind). */
  eventNames?: Readonly<Record<string, readonly StreamEventName[]>>;
  /** Its table permissions: a key of lib/table-access.ts TABLE_ACTIONS. */
  access: 'counting' | 'webhooks';
  /** Records per batch at most (BatchSize; `npm start` reads up to this many per poll). Default 100. */
  batchSize?: number;
  /**
   * How long the event source gathers records before invoking (MaximumBatchingWindowInSeconds;
   * `npm start` polls this often). Default 1 s.
   */
  batchingWindowSeconds?: number;
  /**
   * A tumbling window (TumblingWindowInSeconds): the only way Lambda's DynamoDB event names
   * the shard (`shardId`); the handler then answers with a `state`.
   */
  tumblingWindowSeconds?: number;
}

/**
 * A consumer function's timeout (the longest a batch may take). `npm start` gives its handlers
 * the same time: there middy ends a batch that outlasts it, which is then redelivered.
 */
export const STREAM_CONSUMER_TIMEOUT_SECONDS = 60;

export const STREAM_CONSUMERS = [
  {
    name: 'counting',
    description: 'DynamoDB Streams consumer: maintains the aggregate counters',
    entry: 'functions/stream/counting-handler.ts',
    // Only responses change counts; without the filter it would be invoked for its own counter writes.
    keyPrefixes: [RECORD_KEY_PREFIXES.response],
    access: 'counting',
    // Coalescing: responses to one counter item (a page's day, its year) within a batch cost
    // one update, so a busy stream is counted in the largest batches Lambda makes: 10,000
    // records (the most it allows) or its 6 MB payload limit, whichever comes first (about
    // 4,000 imported responses). An imported history spreads over many day items, which only
    // large batches share (docs/scaling.md, "Imported history"). The size does not delay live
    // traffic: a batch goes when the batching window ends, full or not. Write-to-counted is at
    // most about the batching window plus the batch's work (goal: p95 <= 5 s).
    batchSize: 10_000,
    batchingWindowSeconds: 3,
    // Its watermarks are per shard (stream/counting.ts); the window carries no state. The
    // longest window: a window's end costs one extra (usually empty) invocation per shard.
    tumblingWindowSeconds: 900,
  },
  {
    name: 'webhooks',
    description:
      'DynamoDB Streams consumer: screens new responses, queues webhook deliveries of response, content, alert and digest events and makes their first attempts',
    entry: 'functions/stream/webhooks-handler.ts',
    keyPrefixes: [RECORD_KEY_PREFIXES.response, RECORD_KEY_PREFIXES.contentItem, RECORD_KEY_PREFIXES.alert, RECORD_KEY_PREFIXES.digest],
    // Of content items only creations are events (content.created); their edits are not delivered.
    // Alerts and digests are written once (their TTL removes them): their insertion is the event.
    eventNames: {
      [RECORD_KEY_PREFIXES.contentItem]: ['INSERT'],
      [RECORD_KEY_PREFIXES.alert]: ['INSERT'],
      [RECORD_KEY_PREFIXES.digest]: ['INSERT'],
    },
    access: 'webhooks',
    // Adaptive batches: a quiet stream's records come a few at a time, a burst's backlog in
    // one batch of up to 1,000, whose per-batch work (the webhooks and verdicts read, a wait for
    // the screening) serves all of it while its deliveries go out concurrently: batches of 100,
    // one at a time per shard, fell behind a burst (docs/scaling.md "Webhooks under a burst").
    batchSize: 1000,
    // For the shard id: it reads the counting consumer's screening verdicts from that shard's
    // watermarks (stream/screening.ts `screeningVerdicts`). The window carries no state.
    tumblingWindowSeconds: 900,
  },
] as const satisfies readonly StreamConsumerDeclaration[];

export type StreamConsumerName = (typeof STREAM_CONSUMERS)[number]['name'];
