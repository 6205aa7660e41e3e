/**
 * The webhooks consumer: turns the stream's response and content events into deliveries,
 * one per (event, endpoint), then makes their first attempts right away.
 *
 * Exactly-once queueing on at-least-once records: a delivery's id is derived from the
 * stream record's id and the webhook's id, and a batch queues only the deliveries a
 * consistent read does not find. A redelivered batch (Lambda retries, bisection, a replay,
 * the local reader after a restart) finds its deliveries and queues nothing twice; the
 * delivery record is this consumer's marker. The read and the write are not one conditional
 * write: that takes a request per delivery, and made this consumer fall behind a burst
 * (docs/scaling.md); they need not be, since a record is handed to one invocation at a time
 * (its event source keeps one batch per shard, or per partition key, in flight).
 *
 * Erasure: a `response.deleted` event (the REMOVE record of `responses/erase`) comes after
 * the same response's earlier events in stream order, so by then every delivery of them that
 * an earlier batch made is stored, each with its pointer (store/webhooks.ts); the consumer
 * deletes those deliveries, whose bodies hold the erased response, whether or not any
 * endpoint still subscribes. Earlier events in the same batch are not announced at all. The
 * `response.deleted` deliveries themselves carry ids only and stay. A replay of a response's
 * earlier record in a batch before the replayed REMOVE record (a stream is replayed forward
 * from a position) sends and stores its delivery again, and the REMOVE deletes it again, as
 * any replayed event may go out again.
 *
 * First attempts run in the same invocation, bounded by a time budget, up to the endpoint's
 * cap of requests at once (webhooks/attempts.ts), before their deliveries are stored: each
 * delivery is written once, with its first attempt's outcome, 25 to a BatchWriteItem as the
 * outcomes come, or as queued (due now, for the sweeper) when it could not be attempted in
 * time. Storing it before the attempt, leased, and again after it wrote each delivery (its
 * body, its gsi1 entry, its due entry) twice, and that second write was most of this
 * consumer's work under a burst (docs/scaling.md, "Webhooks under a burst"). Nothing can send
 * a delivery before it is stored but this invocation: the sweeper and `webhooks/redeliver`
 * see only stored ones, and the stream hands the record to no other invocation meanwhile.
 * A request that left before the invocation died goes out again with the batch, and one whose
 * outcome's write failed goes out again from the sweeper (it is stored queued instead) or
 * with the batch, each time with the same `webhook-id`: deliveries are at least once. The
 * batch's success depends on storing only: attempts' failures are retried by the sweeper on
 * the schedule. A response write never waits for, nor fails because of, a webhook: this runs
 * on the stream.
 *
 * New responses are screened by the counting consumer before it counts them
 * (stream/screening.ts); this one announces a new response that a rule may hold (a
 * visitor's, or one with a message) only once that verdict is in the table
 * (`screeningVerdicts`), waiting for it within a budget (the counting consumer reads every
 * 3 s), and one that no rule may hold (a site's server answering without a message) at once:
 * the floods and spam it holds back are announced as `response.quarantined`
 * only, never as created, nor are their changes before their hold. At each read of the
 * verdicts, the batch's events before the first one still waiting go out at once, so a
 * batch's early events need not wait for the verdicts of its late ones.
 *
 * The console's live preview answers on the item keyed by its embed page's address; its
 * events are queued for no webhook (`isPreviewEvent`), so a test click posts nowhere.
 */
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import pLimit, { type Limit } from 'p-limit';
import { logger } from '../observability/logger';
import { isPreviewKey, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../domain/webhooks';
import { BATCH_WRITE_LIMIT, getRawItemsChunked, putItemsBatched } from '../store/batch';
import type { TableClient } from '../store/dynamodb-clients';
import {
  accountWebhooks,
  deliveryItem,
  deliveryKey,
  eraseResponseDeliveries,
  pendingDelivery,
  putDeliveryPointers,
  type DeliveryRecord,
  type WebhookRecord,
} from '../store/webhooks';
import { attemptDelivery, inParallel, type OutcomeRecorder } from '../webhooks/attempts';
import {
  contentItemSubject,
  contentSetSubject,
  eventBody,
  eventScope,
  formatBody,
  projectSubject,
  subjectIds,
  type Subjects,
  type WebhookBody,
} from '../webhooks/payloads';
import type { DomainEvent } from '../domain/events';
import { derivedId } from '../domain/text';
import { HELD_STATES, type ResponseState } from '../domain/states';
import { eventsOf } from './events';
import { screeningVerdicts } from './screening';

/** Erasures run at once. */
const ERASURE_CONCURRENCY = 25;
/**
 * Requests an invocation has in flight at once, over all endpoints (each endpoint's are
 * capped apart: WEBHOOK_ENDPOINT_CONCURRENCY). Only the request holds a place, not the
 * outcome's write (gathered 25 to a BatchWriteItem): places held through that wait set the
 * consumer's pace (docs/scaling.md "Webhooks under a burst").
 */
const REQUESTS_AT_ONCE = 64;

export interface DeliverOptions {
  clock?: () => Date;
  /** First attempts start only within this many ms of the invocation's start (default 20 s); 0 queues only. */
  attemptBudgetMs?: number;
  /**
   * How long the invocation waits for the screening's verdicts on new responses it would
   * announce (default 20 s); the records from the first one still unscreened are then
   * reported failed, and come again.
   */
  verdictWaitMs?: number;
}

/** How often the verdicts still pending are read again. */
const VERDICT_POLL_MS = 500;
/**
 * When a new response's verdict is first looked for again after its write: the counting
 * consumer gathers records for up to 3 s (its batching window) and then screens them, so
 * most verdicts are in by then, and reading earlier would mostly find them pending.
 */
const VERDICT_EXPECTED_MS = 1_500;

/**
 * Reads the screening's verdicts on the events to announce until none is pending or the wait
 * is over (only the pending ones again), telling `round` after each read which are still
 * pending and which responses it found held, so what is screened need not wait for the rest.
 * Answers the events still pending. The counting consumer screens each batch before it counts
 * it, so a verdict follows the write by about that consumer's batching window.
 */
async function awaitVerdicts(
  store: TableClient,
  shardId: string,
  events: DomainEvent[],
  waitMs: number,
  round: (pending: ReadonlySet<DomainEvent>, held: ReadonlySet<string>) => void,
): Promise<DomainEvent[]> {
  const deadline = Date.now() + waitMs;
  let checked = events;
  for (let reads = 0; ; reads++) {
    const { pending, held } = await screeningVerdicts(store, shardId, checked);
    round(new Set<DomainEvent>(pending), held);
    if (pending.length === 0) return pending;
    const soonest = Math.min(...pending.map((event) => Date.parse(event.after.createdAt))) + VERDICT_EXPECTED_MS;
    const pause = reads === 0 ? Math.max(VERDICT_POLL_MS / 2, soonest - Date.now()) : VERDICT_POLL_MS;
    if (Date.now() + pause > deadline) return pending;
    await new Promise((wait) => setTimeout(wait, pause));
    checked = pending;
  }
}

/** Whether the screening held the response an event is about before the event: not announced (its hold is `response.quarantined`). */
function isOfResponseHeldAtCreation(event: DomainEvent, held: ReadonlySet<string>): boolean {
  if (event.type === 'response.created') return event.after.quarantine === undefined && held.has(event.after.id);
  if (event.type === 'response.updated' || event.type === 'response.revoked') return event.after.quarantine === undefined && held.has(event.after.id);
  return false;
}

/** Whether an event is about a response held back (quarantined or discarded) other than by its quarantine: nothing of it is announced. */
function isOfHeldResponse(event: DomainEvent): boolean {
  if (event.type === 'response.quarantined') return false;
  const images = ['before' in event ? event.before : undefined, 'after' in event ? event.after : undefined];
  return (
    event.type.startsWith('response.') && images.some((image) => image !== undefined && 'state' in image && HELD_STATES.includes(image.state as ResponseState))
  );
}

/**
 * The events webhooks are sent: their types, but not the creation of an imported response
 * (responses/import): a history of months would flood receivers with `response.created`;
 * nor any change of a held response (its quarantine is `response.quarantined`, its release a `response.created`).
 */
const isWebhookEvent = (event: DomainEvent): event is DomainEvent & { type: WebhookEventType } =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(event.type) &&
  !(event.type === 'response.created' && event.after.importId !== undefined) &&
  !isOfHeldResponse(event);

/** The webhooks an event goes to: enabled, subscribed to its type, and of its project if they name one. */
export function subscribers(event: DomainEvent & { type: WebhookEventType }, webhooks: readonly WebhookRecord[]): WebhookRecord[] {
  const { projectId } = eventScope(event);
  return webhooks.filter((webhook) => webhook.enabled && webhook.events.includes(event.type) && (!webhook.projectId || webhook.projectId === projectId));
}

/** The content item an event is on (its key when the event carries it), with its set. */
function eventItem(event: DomainEvent): { contentItemId: string; contentSetId: string; key?: string } | undefined {
  if (event.type === 'content.created') return { contentItemId: event.after.id, contentSetId: event.after.contentSetId, key: event.after.key };
  if (event.type === 'content.updated' || event.type === 'stats.alert' || event.type === 'digest.weekly') return undefined;
  const response = event.type === 'response.deleted' ? event.before : event.after;
  return { contentItemId: response.contentItemId, contentSetId: response.contentSetId };
}

/** An event of the console's live preview (domain/webhooks.ts `isPreviewKey`): announced to no webhook. */
function isPreviewEvent(event: DomainEvent, subjects: Subjects): boolean {
  const item = eventItem(event);
  const key = item && (item.key ?? subjects.contentItems.get(item.contentItemId)?.key);
  return item !== undefined && key !== undefined && isPreviewKey(key, item.contentSetId);
}

async function loadSubjects(store: TableClient, events: DomainEvent[]): Promise<Subjects> {
  const subjects: Subjects = { projects: new Map(), contentSets: new Map(), contentItems: new Map() };
  const keys = new Map<string, { pk: string; sk: string }>();
  for (const event of events) {
    // An erased response's item too: whether it was the preview's.
    if (event.type === 'response.deleted') {
      const itemId = event.before.contentItemId;
      keys.set(`content#${itemId}`, { pk: `content#${itemId}`, sk: 'content' });
    }
    const ids = subjectIds(event);
    if (!ids) continue;
    keys.set(`project#${ids.projectId}`, { pk: `project#${ids.projectId}`, sk: 'project' });
    keys.set(`set#${ids.contentSetId}`, { pk: `set#${ids.contentSetId}`, sk: 'set' });
    if (ids.contentItemId) keys.set(`content#${ids.contentItemId}`, { pk: `content#${ids.contentItemId}`, sk: 'content' });
  }
  const items = await getRawItemsChunked(store, [...keys.values()]);
  for (const item of items) {
    if (!item) continue;
    if (item.sk === 'project') subjects.projects.set(String(item.id), projectSubject(item));
    else if (item.sk === 'set') subjects.contentSets.set(String(item.id), contentSetSubject(item));
    else if (item.sk === 'content') subjects.contentItems.set(String(item.id), contentItemSubject(item as never));
  }
  return subjects;
}

/** The response whose value, context and profiling an event's body holds (all response events but `response.deleted`). */
function heldResponseId(event: DomainEvent): string | undefined {
  return event.type === 'response.created' || event.type === 'response.updated' || event.type === 'response.revoked' || event.type === 'response.quarantined'
    ? event.after.id
    : undefined;
}

interface Planned {
  event: DomainEvent;
  webhook: WebhookRecord;
  delivery: DeliveryRecord;
}

function planDelivery(event: DomainEvent, body: WebhookBody, webhook: WebhookRecord, subjects: Subjects, now: Date): Planned {
  const setId = subjectIds(event)?.contentSetId;
  const responseId = heldResponseId(event);
  return {
    event,
    webhook,
    delivery: pendingDelivery(
      {
        id: derivedId(event.eventId, webhook.id),
        webhookId: webhook.id,
        accountId: webhook.accountId,
        eventId: `evt_${derivedId(event.eventId)}`,
        eventType: body.type,
        body: formatBody(webhook.format, body, setId ? subjects.contentSets.get(setId)?.schemaConfig : undefined),
        ...(responseId ? { responseId } : {}),
      },
      now,
    ),
  };
}

/** Outcomes gathered at most this long before they are written (25 to a BatchWriteItem). */
const OUTCOME_GATHER_MS = 20;

/**
 * Stores the deliveries of one invocation with their first attempts' outcomes, 25 to a
 * BatchWriteItem, as they come: unconditionally, since nothing else writes a delivery before
 * it is stored (the sweeper and redeliver see only stored ones; erasures of its responses come
 * after it, on the same shard, and the batch before them is done by then).
 */
function outcomeBatches(store: TableClient, stored: Set<string>): OutcomeRecorder {
  let gathered: { id: string; item: Record<string, unknown>; written: (recorded: boolean) => void; failed: (error: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const chunk = gathered;
    gathered = [];
    putItemsBatched(
      store,
      chunk.map(({ item }) => item),
    ).then(
      () => {
        for (const { id, written } of chunk) {
          stored.add(id);
          written(true);
        }
      },
      (error: unknown) => {
        for (const { failed } of chunk) failed(error);
      },
    );
  };
  return (settled, _lease, now) =>
    new Promise<boolean>((written, failed) => {
      gathered.push({ id: settled.id, item: deliveryItem(settled, now), written, failed });
      if (gathered.length >= BATCH_WRITE_LIMIT) flush();
      else timer ??= setTimeout(flush, OUTCOME_GATHER_MS);
    });
}

/** What the deliveries of one invocation share. */
interface Invocation {
  store: TableClient;
  now: Date;
  clock: () => Date;
  /** The latest time a first attempt may start. */
  leaveBy: number;
  /** Responses erased in this batch: their earlier events are not announced (their bodies hold them). */
  erasedHere: ReadonlySet<string>;
  record: OutcomeRecorder;
  /** The deliveries this invocation has stored (`record` adds them). */
  stored: Set<string>;
  inRequestTurn: Limit;
}

/**
 * Attempts and stores the deliveries of screened events; answers whether all of them are
 * stored (attempts' failures are the sweeper's).
 *
 * Exactly once per (record, endpoint): a consistent read of the deliveries, then only the
 * missing ones attempted and stored. A redelivered batch finds what an earlier delivery of
 * its records stored; no other invocation has these records meanwhile (one batch of a shard
 * at a time: Lambda's mapping and the local reader's). Once each: a batch may hold a record
 * twice, and a batch request refuses a key twice.
 */
async function deliverScreened(invocation: Invocation, matched: { event: DomainEvent & { type: WebhookEventType }; to: WebhookRecord[] }[]): Promise<boolean> {
  const { store, now, clock, leaveBy, erasedHere, record, stored, inRequestTurn } = invocation;
  let unsent: Planned[];
  try {
    const subjects = await loadSubjects(
      store,
      matched.map(({ event }) => event),
    );
    const plans = matched
      .filter(({ event }) => !isPreviewEvent(event, subjects))
      .flatMap(({ event, to }) => {
        const body = eventBody(event, subjects, now)!;
        return to.map((webhook) => planDelivery(event, body, webhook, subjects, now));
      })
      .filter(({ delivery }) => !(delivery.responseId && erasedHere.has(delivery.responseId)));
    const unique = [...new Map(plans.map((planned) => [planned.delivery.id, planned])).values()];
    const pointers = unique.flatMap(({ delivery }) => (delivery.responseId ? [{ responseId: delivery.responseId, deliveryId: delivery.id }] : []));
    // The pointers (unconditional: a redelivered batch rewrites them harmlessly) beside the
    // read, both before any delivery is sent or stored: a failure leaves no delivery without one.
    const [, found] = await Promise.all([
      putDeliveryPointers(store, pointers, now),
      getRawItemsChunked(
        store,
        unique.map(({ delivery }) => deliveryKey(delivery.id)),
      ),
    ]);
    unsent = unique.filter((_, index) => found[index] === undefined);
  } catch (error) {
    logger.error('preparing webhook deliveries failed', { error: error as Error, events: matched.length });
    return false;
  }
  // What cannot leave within the budget is stored as queued, due now: the sweeper's.
  const attempt = async ({ delivery, webhook }: Planned): Promise<boolean> => {
    try {
      await attemptDelivery(store, delivery, webhook, clock, { leaveBy, record, requestTurn: inRequestTurn });
      return true;
    } catch (error) {
      logger.error('first webhook attempt failed', { error: error as Error, deliveryId: delivery.id });
    }
    if (stored.has(delivery.id)) return true;
    // Failed before its outcome was stored (opening the endpoint's secret, a write): queued for the sweeper instead.
    try {
      await record(delivery, undefined, clock());
      return true;
    } catch {
      return false;
    }
  };
  const outcomes = await Promise.all(unsent.map(attempt));
  return outcomes.every(Boolean);
}

/**
 * Attempts and stores the deliveries of a batch of stream records, those of each round of
 * screening verdicts as soon as it is in (while the rest wait for theirs), then deletes those
 * of erased responses. On a failure to store or to erase, reports the first record whose work
 * is not all done (`batchItemFailures`): the batch is retried from there, what is stored
 * already is not sent or stored again, and erasing again is harmless.
 */
export async function deliverStreamRecords(
  store: TableClient,
  shardId: string,
  records: DynamoDBRecord[],
  options: DeliverOptions = {},
): Promise<DynamoDBBatchResponse> {
  const clock = options.clock ?? (() => new Date());
  const now = clock();
  const events = records.flatMap(eventsOf).filter(isWebhookEvent);
  if (events.length === 0) return { batchItemFailures: [] };
  const firstEvent = events[0].sequenceNumber;
  const stored = new Set<string>();
  const invocation: Invocation = {
    store,
    now,
    clock,
    leaveBy: now.getTime() + (options.attemptBudgetMs ?? 20_000),
    erasedHere: new Set(events.flatMap((event) => (event.type === 'response.deleted' ? [event.before.id] : []))),
    record: outcomeBatches(store, stored),
    stored,
    inRequestTurn: pLimit(REQUESTS_AT_ONCE),
  };

  /** The deliveries under way, a group per round of verdicts; each answers whether it stored all of its own. */
  const groups: Promise<boolean>[] = [];
  let pending: DomainEvent[];
  try {
    const accounts = [...new Set(events.map((event) => eventScope(event).accountId))];
    const webhooks = new Map(await Promise.all(accounts.map(async (accountId) => [accountId, await accountWebhooks(store, accountId)] as const)));
    const recipients = new Map(
      events.flatMap((event) => {
        const to = subscribers(event, webhooks.get(eventScope(event).accountId) ?? []);
        return to.length > 0 ? [[event as DomainEvent, { event, to }] as const] : [];
      }),
    );
    // Only what would be announced waits for the screening: an account without webhooks waits
    // for nothing. After each read of verdicts, the events before the first one still pending
    // go out, while the rest wait: in stream order, so that no change of a response goes
    // before its creation's verdict (a held response's changes are not announced).
    const candidates = [...recipients.keys()];
    const held = new Set<string>();
    let released = 0;
    pending = await awaitVerdicts(store, shardId, candidates, options.verdictWaitMs ?? 20_000, (waiting, heldNow) => {
      for (const id of heldNow) held.add(id);
      const before = candidates.findIndex((event) => waiting.has(event));
      const screened = candidates.slice(released, before === -1 ? candidates.length : before);
      released += screened.length;
      const matched = screened.filter((event) => !isOfResponseHeldAtCreation(event, held)).map((event) => recipients.get(event)!);
      if (matched.length > 0) groups.push(deliverScreened(invocation, matched));
    });
  } catch (error) {
    await Promise.all(groups);
    logger.error('reading webhooks or screening verdicts for stream records failed', { error: error as Error, records: records.length });
    return { batchItemFailures: [{ itemIdentifier: firstEvent }] };
  }
  if (!(await Promise.all(groups)).every(Boolean)) return { batchItemFailures: [{ itemIdentifier: firstEvent }] };

  // The record of the first new response still unscreened: it and what follows come again
  // (what of them was screened is stored already, and is not sent or stored twice).
  const unscreened = pending[0]?.sequenceNumber;
  const handled =
    unscreened === undefined
      ? events
      : events.slice(
          0,
          events.findIndex((event) => event.sequenceNumber === unscreened),
        );
  // After storing: the deliveries of an erased response's events from earlier batches are deleted (this batch made none).
  const failedEvents = new Set<string>();
  const erasures = handled.filter((event) => event.type === 'response.deleted');
  await inParallel(erasures, ERASURE_CONCURRENCY, async (event) => {
    const responseId = event.before.id;
    try {
      const deliveries = await eraseResponseDeliveries(store, responseId);
      if (deliveries > 0) logger.info('deliveries of an erased response deleted', { responseId, deliveries });
    } catch (error) {
      logger.error('deleting the deliveries of an erased response failed', { error: error as Error, responseId });
      failedEvents.add(event.eventId);
    }
  });

  const firstFailed = handled.find((event) => failedEvents.has(event.eventId))?.sequenceNumber ?? unscreened;
  if (unscreened !== undefined && firstFailed === unscreened) logger.warn('new responses not screened yet: their records come again', { shardId, unscreened });
  return { batchItemFailures: firstFailed ? [{ itemIdentifier: firstFailed }] : [] };
}
