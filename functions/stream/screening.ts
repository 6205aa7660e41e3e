/**
 * The screening of new responses (docs/api.md "Quarantine"): floods (domain/quarantine.ts)
 * and spam in messages (domain/spam.ts) are held back as `quarantined`, off the write path.
 *
 * It runs in the counting consumer, on each batch before it is counted, so that a held
 * response is in no count at any moment (docs/architecture.md, "Screening before counting"):
 * a response held at its creation carries `uncounted` (its creation's contribution), the
 * counting consumer leaves its creation out and counts its hold as taking out only what it
 * counted since. The verdict is the hold's write itself, so a redelivered batch finds it
 * (the write is refused, and the refusal shows the hold). What it let through is recognised
 * on a redelivery by the shard's watermark on its counters (it was counted: it passes
 * again), whatever the rules would say this time.
 *
 * The webhooks consumer announces a new response that a rule may hold (`mayBeHeld`) only
 * once its verdict is in the table (`screeningVerdicts`): held (`quarantine` on the item),
 * or counted (the shard's watermark on its item's day counter at or past its creation's
 * record). One that no rule may hold is announced at once.
 *
 * Per batch, for each set with new responses to screen: one BatchGetItem of the sets, the
 * set's responses of the last SCREENING_WINDOW_MS (its list index, RECENT_PER_SHARD a
 * shard), for the surge rule one Query of the day counters of the last BASELINE_DAYS days of
 * each item with more recent responses than the rule's floor, and one conditional UpdateItem of the address's record per anonymous
 * response (store/address-visitors.ts). For responses a rule would hold: one BatchGetItem
 * of their counter items (the redelivery check), and one conditional UpdateItem each (still
 * active, never held before: a released response is not held again).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { addBuckets, bucketKey } from '../../shared/periods';
import type { DomainEvent, ResponseImage } from '../domain/events';
import {
  type AddressAdmission,
  BASELINE_DAYS,
  floodReason,
  quarantineSettingsOf,
  type Arrival,
  type QuarantineReason,
  type QuarantineSettings,
  type QuarantineSettingsInput,
} from '../domain/quarantine';
import { saltDay } from '../domain/visitor-hash';
import { messageOf, spamReason } from '../domain/spam';
import { inParallel } from '../jobs/parallel';
import { admitVisitor } from '../store/address-visitors';
import { getRawItemsChunked } from '../store/batch';
import { isConditionFailure } from '../store/conditions';
import { counterItemId, counterSlots, daySk, itemCountersOf, readCounterItems, watermarkAdmits, watermarkName } from '../store/counters';
import type { TableClient } from '../store/dynamodb-clients';
import { type ItemKey, keys } from '../store/items';
import { listPartitions, readResponsePartition } from '../store/response-lists';

/** How far back the set's responses are read: the rates' minute, and the same message across items. */
export const SCREENING_WINDOW_MS = 10 * 60_000;
/** Responses read of each list shard of a set: 800 a set at most, the newest. */
export const RECENT_PER_SHARD = 100;

type Created = DomainEvent & { type: 'response.created' };

/** A new response the rules apply to: written by create (not imported, not released), still active. */
const isScreened = (event: DomainEvent): event is Created =>
  event.type === 'response.created' && event.after.state === 'active' && event.after.importId === undefined && event.after.quarantine === undefined;

const arrivalOf = (response: ResponseImage): Arrival => ({
  id: response.id,
  contentItemId: response.contentItemId,
  ...(response.visitor === undefined ? {} : { visitor: response.visitor }),
  ...(response.address === undefined ? {} : { address: response.address }),
  createdAt: Date.parse(response.createdAt),
});

/** The set's responses since `since`, newest first per shard, with the batch's own (the list index lags). */
async function recentResponses(store: TableClient, contentSetId: string, since: string, batch: ResponseImage[]): Promise<ResponseImage[]> {
  const pages = await Promise.all(
    listPartitions('gsi2', contentSetId).map((partition) => readResponsePartition(store, { index: 'gsi2', partition, from: since, limit: RECENT_PER_SHARD })),
  );
  const byId = new Map<string, ResponseImage>();
  for (const item of pages.flatMap((page) => page.items)) byId.set(String(item.id), item as unknown as ResponseImage);
  for (const response of batch) byId.set(response.id, response);
  return [...byId.values()];
}

/** The item's counted responses of the BASELINE_DAYS days before `now`'s day. */
async function itemCountBefore(store: TableClient, contentItemId: string, now: Date): Promise<number> {
  const from = daySk(bucketKey('day', addBuckets('day', now, -BASELINE_DAYS)));
  const to = daySk(bucketKey('day', addBuckets('day', now, -1)));
  const items = await readCounterItems(store, 'contentItem', contentItemId, { from, to });
  return items.reduce((sum, item) => sum + itemCountersOf(item).total.count, 0);
}

/** Arrival order: by time, then by id (domain/quarantine.ts orders a burst the same way). */
const byArrival = (a: ResponseImage, b: ResponseImage) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/**
 * Whether each anonymous response's visitor is among the first `addressLimit` of its address
 * on the item that day (store/address-visitors.ts): one conditional update per response, in
 * arrival order per address, addresses in parallel.
 */
async function addressAdmissions(store: TableClient, responses: ResponseImage[], settings: QuarantineSettings): Promise<Map<string, AddressAdmission>> {
  const admissions = new Map<string, AddressAdmission>();
  if (settings.addressLimit === 0) return admissions;
  const perAddress = new Map<string, ResponseImage[]>();
  for (const response of responses) {
    if (response.address === undefined || response.visitor === undefined) continue;
    perAddress.set(response.address, [...(perAddress.get(response.address) ?? []), response]);
  }
  await inParallel([...perAddress.values()], 16, async (arrivals) => {
    for (const response of arrivals.sort(byArrival)) {
      const day = saltDay(new Date(response.createdAt));
      admissions.set(response.id, await admitVisitor(store, response.address!, response.visitor!, settings.addressLimit, day));
    }
  });
  return admissions;
}

/** A new response a rule would hold, with the stream record of its creation. */
interface Candidate {
  event: Created;
  reason: QuarantineReason;
}

/**
 * Holds a response at its creation: its state becomes `quarantined`, with the record of why,
 * and `uncounted`, the contribution of its creation, which the counters never took (the
 * counting consumer counts the hold's record as taking out only what it counted since:
 * stream/counting.ts). On the condition that it is active and was never held. The verdict:
 * `held` when this write held it, or an earlier delivery of the batch did (its hold carries
 * `uncounted`); `counted` otherwise (it is gone, revoked, or held by the screening of the
 * release before this one, which counted it first).
 */
async function hold(store: TableClient, response: ResponseImage, reason: QuarantineReason, now: Date): Promise<Verdict> {
  const at = now.toISOString();
  try {
    await store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.response(response.id),
        UpdateExpression: 'SET #state = :quarantined, #quarantine = :record, #uncounted = :uncounted, #updatedAt = :at',
        ConditionExpression: '#state = :active AND attribute_not_exists(#quarantine)',
        ExpressionAttributeNames: { '#state': 'state', '#quarantine': 'quarantine', '#uncounted': 'uncounted', '#updatedAt': 'updatedAt' },
        ExpressionAttributeValues: {
          ':quarantined': 'quarantined',
          ':active': 'active',
          ':record': { reason, at },
          ':uncounted': response.contribution,
          ':at': at,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'held';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The item as the refusal found it, as DynamoDB sends it (not unmarshalled): only its attributes' presence is read.
    const stored = (error as { Item?: Record<string, unknown> }).Item;
    return stored?.quarantine !== undefined && stored.uncounted !== undefined ? 'held' : 'counted';
  }
}

type Verdict = 'held' | 'counted';

/**
 * Whether a delivery of this shard's records before this one counted the creation already:
 * one of its counter items (store/counters.ts `counterSlots`) carries a watermark of the
 * shard at or past the creation's record. Then it passed the screening then, and must pass
 * it now (a retried batch, a replayed stream), whatever the rules say this time (the list
 * index may show more of a burst than it did).
 */
function countedBefore(event: Created, shardId: string, counterItems: ReadonlyMap<string, Record<string, unknown>>): boolean {
  const watermark = watermarkName(shardId);
  return counterSlots(event.after, new Date(event.after.createdAt)).some((slot) => {
    const stored = counterItems.get(counterItemId(slot))?.[watermark];
    return typeof stored === 'string' && !watermarkAdmits(stored, event.sequenceNumber);
  });
}

/** Holds what the rules would hold, unless an earlier delivery counted it; the ids held at their creation. */
async function holdCandidates(store: TableClient, shardId: string, candidates: Candidate[], now: Date): Promise<Set<string>> {
  const uncounted = new Set<string>();
  if (candidates.length === 0) return uncounted;
  const slots = new Map<string, ItemKey>();
  for (const { event } of candidates) {
    for (const slot of counterSlots(event.after, new Date(event.after.createdAt))) slots.set(counterItemId(slot), { pk: slot.pk, sk: slot.sk });
  }
  const stored = await getRawItemsChunked(store, [...slots.values()]);
  const counterItems = new Map(stored.flatMap((item) => (item ? [[counterItemId(item), item] as const] : [])));
  await inParallel(candidates, 16, async ({ event, reason }) => {
    if (countedBefore(event, shardId, counterItems)) return;
    if ((await hold(store, event.after, reason, now)) === 'held') uncounted.add(event.after.id);
  });
  return uncounted;
}

/**
 * Screens the new responses of a batch of one shard's events (the counting consumer's, before
 * it counts them) and holds those that trip a rule. Answers the ids of the new responses held
 * at their creation: their creation is counted nowhere (stream/counting.ts) and announced to
 * no webhook (stream/webhooks.ts reads the same verdict from the response: `screeningVerdicts`).
 */
export async function screenNewResponses(store: TableClient, shardId: string, events: DomainEvent[], now: Date): Promise<Set<string>> {
  const created = events.filter(isScreened);
  if (created.length === 0) return new Set();
  const perSet = new Map<string, Created[]>();
  for (const event of created) perSet.set(event.after.contentSetId, [...(perSet.get(event.after.contentSetId) ?? []), event]);
  const sets = await getRawItemsChunked(
    store,
    [...perSet.keys()].map((id) => keys.contentSet(id)),
  );
  const settingsOf = new Map(
    sets.filter((set) => set !== undefined).map((set) => [String(set.id), quarantineSettingsOf(set.quarantine as QuarantineSettingsInput | undefined)]),
  );

  const candidates: Candidate[] = [];
  await inParallel([...perSet.entries()], 4, async ([contentSetId, events]) => {
    const settings = settingsOf.get(contentSetId);
    if (!settings) return;
    const batch = events.map((event) => event.after);
    const messages = new Map(batch.map((response) => [response.id, settings.spamCheck ? messageOf(response.schema, response.value) : undefined]));
    const screened = events.filter((event) => mayBeHeld(event.after, messages.get(event.after.id)));
    if (screened.length === 0) return;
    const earliest = Math.min(...screened.map((event) => Date.parse(event.after.createdAt)));
    const recent = await recentResponses(store, contentSetId, new Date(earliest - SCREENING_WINDOW_MS).toISOString(), batch);
    const arrivals = recent.map(arrivalOf);
    const recentMessages = recent.flatMap((response) => {
      const message = messageOf(response.schema, response.value);
      return message === undefined ? [] : [{ id: response.id, contentItemId: response.contentItemId, message }];
    });
    // An item's history is read only when its recent responses reach the floor: below it, no
    // threshold (never under the floor) can be reached, whatever the history.
    const recentOn = new Map<string, number>();
    for (const arrival of arrivals) recentOn.set(arrival.contentItemId, (recentOn.get(arrival.contentItemId) ?? 0) + 1);
    const surgeItems =
      settings.surgeFloor > 0
        ? [
            ...new Set(
              screened
                .filter((event) => event.after.visitor !== undefined && (recentOn.get(event.after.contentItemId) ?? 0) > settings.surgeFloor)
                .map((event) => event.after.contentItemId),
            ),
          ]
        : [];
    const baselines = new Map(await Promise.all(surgeItems.map(async (itemId) => [itemId, await itemCountBefore(store, itemId, now)] as const)));
    const admissions = await addressAdmissions(
      store,
      screened.map((event) => event.after),
      settings,
    );

    for (const event of screened) {
      const response = event.after;
      const message = messages.get(response.id);
      const reason =
        floodReason(arrivalOf(response), arrivals, settings, baselines.get(response.contentItemId) ?? 0, admissions.get(response.id)) ??
        (message === undefined
          ? undefined
          : spamReason(
              message,
              response.contentItemId,
              recentMessages.filter((other) => other.id !== response.id),
            ));
      if (reason !== undefined) candidates.push({ event, reason });
    }
  });
  return holdCandidates(store, shardId, candidates, now);
}

/**
 * Whether a rule may hold a new response: the flood rules judge a visitor's (one carrying
 * `visitor`), the spam rules its `message`, the one the set's spam check reads (the
 * screening passes none when the set checks no messages; the webhooks consumer, which does
 * not read the set, passes the response's). One with neither, such as a site's server
 * answering without a message, is never held: the webhooks consumer announces it without
 * waiting for a verdict.
 */
export function mayBeHeld(response: ResponseImage, message: string | undefined): boolean {
  return response.visitor !== undefined || message !== undefined;
}

/** What the screening decided of a response's events, as the webhooks consumer needs it. */
export interface ScreeningVerdicts {
  /** New responses the counting consumer has not screened yet, by the record of their creation, in stream order. */
  pending: Created[];
  /** Responses held by the screening (now or since): their creation, and changes before their hold, are not announced. */
  held: Set<string>;
}

/**
 * The screening's verdicts on a batch's response events, read from the table by the webhooks
 * consumer (the counting consumer screens: `screenNewResponses`). A new response's verdict is
 * in once the counting consumer has counted the record of its creation, which it does only
 * after screening it (and holding it, if so): the content item's day counter carries the
 * shard's watermark at or past that record. Then the response's item says whether it was
 * held (`quarantine`). So the counters are read first (eventually consistent: a stale read
 * only finds the verdict pending), then, strongly consistent, the responses whose verdict is
 * in: a hold written before the counters is then seen.
 *
 * `events` are those to be announced: new responses (`isScreened`; pending only if a rule
 * may hold them) and changes of active responses (a held response's changes before its hold
 * are not announced: `held`).
 */
export async function screeningVerdicts(store: TableClient, shardId: string, events: DomainEvent[]): Promise<ScreeningVerdicts> {
  const created = events.filter(isScreened).filter(({ after }) => mayBeHeld(after, messageOf(after.schema, after.value)));
  const slotOf = (event: Created) => {
    const slot = counterSlots(event.after, new Date(event.after.createdAt)).find(
      (candidate) => candidate.entity === 'contentItem' && candidate.sk.startsWith('d#'),
    )!;
    return { pk: slot.pk, sk: slot.sk };
  };
  const itemSlots = new Map(created.map((event) => [counterItemId(slotOf(event)), slotOf(event)]));
  const counters = await getRawItemsChunked(store, [...itemSlots.values()], { consistent: false });
  const counted = new Map(counters.flatMap((item) => (item ? [[counterItemId(item), item] as const] : [])));
  const watermark = watermarkName(shardId);
  const isPending = (event: Created) => {
    const stored = counted.get(counterItemId(slotOf(event)))?.[watermark];
    return typeof stored !== 'string' || watermarkAdmits(stored, event.sequenceNumber);
  };
  const pending = created.filter(isPending);
  const responseIds = new Set([
    ...created.filter((event) => !isPending(event)).map((event) => event.after.id),
    ...events.flatMap((event) =>
      (event.type === 'response.updated' || event.type === 'response.revoked') && event.after.quarantine === undefined ? [event.after.id] : [],
    ),
  ]);
  const responses = await getRawItemsChunked(
    store,
    [...responseIds].map((id) => keys.response(id)),
  );
  const held = new Set(responses.flatMap((item) => (item?.quarantine === undefined ? [] : [String(item.id)])));
  return { pending, held };
}
