/**
 * The screening of new responses (docs/api.md "Quarantine"): floods (domain/quarantine.ts)
 * and spam in messages (domain/spam.ts) are held back as `quarantined`, off the write path.
 *
 * It runs in the webhooks consumer, before it queues anything, because that consumer must
 * not announce a held response's creation; the counting consumer needs nothing from it: it
 * counts active images only, so a held response is counted on its creation and taken out
 * again by its quarantine's record (`response.quarantined`), exactly once like every change,
 * and a release counts it again. Between its creation and its quarantine (the consumers'
 * latency, about a second) a held response is in the counts.
 *
 * Per batch, for each set with new responses to screen: one BatchGetItem of the sets, the
 * set's responses of the last SCREENING_WINDOW_MS (its list index, RECENT_PER_SHARD a
 * shard), and for the surge rule one Query of each item's day counters of the last
 * BASELINE_DAYS days. A held response is one conditional UpdateItem (still active, never
 * held before: a redelivered batch or a released response is not held again).
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
import { daySk, itemCountersOf, readCounterItems } from '../store/counters';
import type { TableClient } from '../store/dynamodb-clients';
import { keys } from '../store/items';
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

/** Holds a response: on the condition that it is active and was never held. False when it was not (a redelivery, a release). */
async function hold(store: TableClient, response: ResponseImage, reason: QuarantineReason, now: Date): Promise<boolean> {
  const at = now.toISOString();
  try {
    await store.documentClient.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.response(response.id),
        UpdateExpression: 'SET #state = :quarantined, #quarantine = :record, #updatedAt = :at',
        ConditionExpression: '#state = :active AND attribute_not_exists(#quarantine)',
        ExpressionAttributeNames: { '#state': 'state', '#quarantine': 'quarantine', '#updatedAt': 'updatedAt' },
        ExpressionAttributeValues: { ':quarantined': 'quarantined', ':active': 'active', ':record': { reason, at }, ':at': at },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Screens the new responses of a batch's events and holds those that trip a rule. Answers
 * the ids of the new responses not to announce: those held now, and those a previous
 * delivery of the batch held (the rules give the same answer again; the write is refused).
 */
export async function screenNewResponses(store: TableClient, events: DomainEvent[], now: Date): Promise<Set<string>> {
  const created = events.filter(isScreened).map((event) => event.after);
  const notAnnounced = new Set<string>();
  if (created.length === 0) return notAnnounced;
  const perSet = new Map<string, ResponseImage[]>();
  for (const response of created) perSet.set(response.contentSetId, [...(perSet.get(response.contentSetId) ?? []), response]);
  const sets = await getRawItemsChunked(
    store,
    [...perSet.keys()].map((id) => ({ pk: `set#${id}`, sk: 'set' })),
  );
  const settingsOf = new Map(
    sets.filter((set) => set !== undefined).map((set) => [String(set.id), quarantineSettingsOf(set.quarantine as QuarantineSettingsInput | undefined)]),
  );

  await inParallel([...perSet.entries()], 4, async ([contentSetId, batch]) => {
    const settings = settingsOf.get(contentSetId);
    if (!settings) return;
    const messages = new Map(batch.map((response) => [response.id, settings.spamCheck ? messageOf(response.schema, response.value) : undefined]));
    const screened = batch.filter((response) => response.visitor !== undefined || messages.get(response.id) !== undefined);
    if (screened.length === 0) return;
    const earliest = Math.min(...screened.map((response) => Date.parse(response.createdAt)));
    const recent = await recentResponses(store, contentSetId, new Date(earliest - SCREENING_WINDOW_MS).toISOString(), batch);
    const arrivals = recent.map(arrivalOf);
    const recentMessages = recent.flatMap((response) => {
      const message = messageOf(response.schema, response.value);
      return message === undefined ? [] : [{ id: response.id, contentItemId: response.contentItemId, message }];
    });
    const surgeItems =
      settings.surgeFloor > 0 ? [...new Set(screened.filter((response) => response.visitor !== undefined).map((response) => response.contentItemId))] : [];
    const baselines = new Map(await Promise.all(surgeItems.map(async (itemId) => [itemId, await itemCountBefore(store, itemId, now)] as const)));
    const admissions = await addressAdmissions(store, screened, settings);

    for (const response of screened) {
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
      if (reason === undefined) continue;
      await hold(store, response, reason, now);
      notAnnounced.add(response.id);
    }
  });
  return notAnnounced;
}
