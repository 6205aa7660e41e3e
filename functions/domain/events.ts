/**
 * The domain events the stream's records mean, and the item images they carry. Types only:
 * `stream/events.ts` makes them of stream records (the seam); the consumers and the webhook
 * engine's payloads read them without knowing about records.
 */
import type { Contribution } from './aggregation';
import type { AlertImage } from './alerts';
import type { ProjectDigest } from './digest';
import type { QuarantineRecord } from './quarantine';
import type { ResponseState } from './states';

/** A response as stored (the attributes events carry; the revoke token hash is never read). */
export interface ResponseImage {
  id: string;
  accountId: string;
  projectId: string;
  contentSetId: string;
  contentItemId: string;
  schema: string;
  state: ResponseState;
  value: unknown;
  contribution: Contribution;
  context?: Record<string, unknown>;
  profiling?: Record<string, unknown>;
  revokeExpiresAt?: string;
  /** Set on responses written by responses/import: their creation is history, not news. */
  importId?: string;
  /** An anonymous response's visitor hash of the day on its item (domain/visitor-hash.ts); keyed calls have none. */
  visitor?: string;
  /** Its address hash of the day on its item (domain/visitor-hash.ts `addressHash`); keyed calls have none. */
  address?: string;
  /** Why and when it was held (state `quarantined`, `discarded`, and after its release). */
  quarantine?: QuarantineRecord;
  /** Held by the screening before it was counted: the contribution of its creation, which no counter took (stream/counting.ts). */
  uncounted?: Contribution;
  createdAt: string;
  updatedAt: string;
}

export interface ContentItemImage {
  id: string;
  accountId: string;
  projectId: string;
  contentSetId: string;
  key: string;
  title?: string;
  description?: string;
  url?: string;
  state: string;
  createdAt: string;
  updatedAt: string;
}

/** A weekly digest as stored when it is sent (store/alerts.ts): what the `digest.weekly` event carries. */
export interface DigestImage {
  id: string;
  accountId: string;
  projectId: string;
  digest: ProjectDigest;
  createdAt: string;
}

interface EventBase {
  /** The stream record's id: stable across redeliveries of the record. */
  eventId: string;
  /** Position in its shard; a consumer reports the first one it failed on. */
  sequenceNumber: string;
}

export type DomainEvent =
  | (EventBase & { type: 'response.created'; after: ResponseImage })
  /** A new value (an edit), or any other change of an active response. */
  | (EventBase & { type: 'response.updated'; before: ResponseImage; after: ResponseImage })
  | (EventBase & { type: 'response.revoked'; before: ResponseImage; after: ResponseImage })
  /** Held back by the screening (stream/screening.ts): active -> quarantined. Its release is a `response.created`. */
  | (EventBase & { type: 'response.quarantined'; before: ResponseImage; after: ResponseImage })
  /** A held response thrown away by an admin: quarantined -> discarded. */
  | (EventBase & { type: 'response.discarded'; before: ResponseImage; after: ResponseImage })
  /** The item is gone (erasure). */
  | (EventBase & { type: 'response.deleted'; before: ResponseImage })
  | (EventBase & { type: 'content.created'; after: ContentItemImage })
  | (EventBase & { type: 'content.updated'; before: ContentItemImage; after: ContentItemImage })
  /** An alert was raised (its record inserted by the alerts job). */
  | (EventBase & { type: 'stats.alert'; after: AlertImage })
  /** A weekly digest was made (its record inserted by the digest job or `npm run digest`). */
  | (EventBase & { type: 'digest.weekly'; after: DigestImage });
