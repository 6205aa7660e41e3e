/**
 * The event seam: what a DynamoDB stream record means in the domain (domain/events.ts).
 * Every stream consumer reads records through `eventsOf` instead of inspecting keys and
 * images itself, so the table's layout is known here once and a consumer only says which
 * events it wants.
 *
 * Pure: no I/O, no clock. The records are Lambda's DynamoDB event records (the local
 * stream reader delivers the same shape).
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as LambdaAttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { AlertImage } from '../domain/alerts';
import type { ContentItemImage, DigestImage, DomainEvent, ResponseImage } from '../domain/events';

/**
 * Partition key prefixes of the items events are made of (store/entities.ts key templates;
 * alerts and digests: store/alerts.ts, one partition per account, any sort key).
 */
export const RECORD_KEY_PREFIXES = { response: 'response#', contentItem: 'content#', alert: 'alerts#', digest: 'digests#' } as const;
const SORT_KEYS: Record<keyof typeof RECORD_KEY_PREFIXES, string | undefined> = {
  response: 'response',
  contentItem: 'content',
  alert: undefined,
  digest: undefined,
};

function image<T>(attributes: Record<string, LambdaAttributeValue> | undefined): T | undefined {
  return attributes ? (unmarshall(attributes as never) as T) : undefined;
}

const KEY_ATTRIBUTES = ['pk', 'sk', 'expiresAt'];

/** An alert's or digest's image without its keys. */
function recordOf<T>(attributes: Record<string, LambdaAttributeValue>): T {
  const item = unmarshall(attributes as never);
  for (const name of KEY_ATTRIBUTES) delete item[name];
  return item as T;
}

function kindOf(record: DynamoDBRecord): keyof typeof RECORD_KEY_PREFIXES | undefined {
  const keys = record.dynamodb?.Keys;
  for (const kind of Object.keys(RECORD_KEY_PREFIXES) as (keyof typeof RECORD_KEY_PREFIXES)[]) {
    if (keys?.pk?.S?.startsWith(RECORD_KEY_PREFIXES[kind]) && (SORT_KEYS[kind] === undefined || keys.sk?.S === SORT_KEYS[kind])) return kind;
  }
  return undefined;
}

/** The event of a change of a response's stored image by its states (a release aside). */
function responseChangeType(
  before: ResponseImage,
  after: ResponseImage,
): 'response.revoked' | 'response.quarantined' | 'response.discarded' | 'response.updated' {
  if (before.state === 'active' && after.state === 'revoked') return 'response.revoked';
  if (before.state === 'active' && after.state === 'quarantined') return 'response.quarantined';
  if (before.state === 'quarantined' && after.state === 'discarded') return 'response.discarded';
  return 'response.updated';
}

/**
 * The domain events of one stream record: none for items that are not responses or content
 * items (counters, markers, keys), one otherwise. An active-to-revoked change is a
 * revocation, active-to-quarantined a quarantine, quarantined-to-active a release (a
 * `response.created`: the response arrives now), quarantined-to-discarded a discard, and any
 * other change an update: among them a visitor's second response of the
 * day replacing the first (`onePerVisitor`), also one that the visitor had revoked, whose
 * count then comes back with the new value (stream/counting.ts counts active images only).
 */
export function eventsOf(record: DynamoDBRecord): DomainEvent[] {
  const kind = kindOf(record);
  const eventId = record.eventID;
  const sequenceNumber = record.dynamodb?.SequenceNumber;
  if (!kind || !eventId || !sequenceNumber) return [];
  const base = { eventId, sequenceNumber };
  if (kind === 'response') {
    const before = image<ResponseImage>(record.dynamodb?.OldImage);
    const after = image<ResponseImage>(record.dynamodb?.NewImage);
    if (before && after) {
      // A release is the response's arrival, as late as it is: counted and announced as new.
      if (before.state === 'quarantined' && after.state === 'active') return [{ ...base, type: 'response.created', after }];
      return [{ ...base, type: responseChangeType(before, after), before, after }];
    }
    if (after) return [{ ...base, type: 'response.created', after }];
    if (before) return [{ ...base, type: 'response.deleted', before }];
    return [];
  }
  if (kind === 'alert' || kind === 'digest') {
    // Only their insertion is an event: they are written once and expire by TTL.
    if (record.dynamodb?.OldImage || !record.dynamodb?.NewImage) return [];
    return kind === 'alert'
      ? [{ ...base, type: 'stats.alert', after: recordOf<AlertImage>(record.dynamodb.NewImage) }]
      : [{ ...base, type: 'digest.weekly', after: recordOf<DigestImage>(record.dynamodb.NewImage) }];
  }
  const before = image<ContentItemImage>(record.dynamodb?.OldImage);
  const after = image<ContentItemImage>(record.dynamodb?.NewImage);
  if (before && after) return [{ ...base, type: 'content.updated', before, after }];
  if (after) return [{ ...base, type: 'content.created', after }];
  return [];
}

/** Whether a record's item is one a consumer asked for (the same test as its event source filter on AWS). */
export function matchesKeyPrefixes(record: DynamoDBRecord, prefixes: readonly string[]): boolean {
  const pk = record.dynamodb?.Keys?.pk?.S;
  return pk !== undefined && prefixes.some((prefix) => pk.startsWith(prefix));
}

export type StreamEventName = NonNullable<DynamoDBRecord['eventName']>;

/**
 * A consumer's whole record filter: a key prefix it asked for, and for prefixes with
 * `eventNames`, one of those kinds of record (lib/stream-consumer.ts builds the same filter).
 */
export function matchesRecordFilter(
  record: DynamoDBRecord,
  filter: { keyPrefixes: readonly string[]; eventNames?: Readonly<Record<string, readonly StreamEventName[]>> },
): boolean {
  const pk = record.dynamodb?.Keys?.pk?.S;
  const prefix = pk === undefined ? undefined : filter.keyPrefixes.find((candidate) => pk.startsWith(candidate));
  if (prefix === undefined) return false;
  const names = filter.eventNames?.[prefix];
  return !names || (record.eventName !== undefined && names.includes(record.eventName));
}
