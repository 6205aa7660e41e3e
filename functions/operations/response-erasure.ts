/**
 * responses/erase: deletes responses of the caller's account for good (GDPR art. 17), by
 * id or every response of a person (userId).
 *
 * Each response is one DeleteItem conditioned on the caller's account, so another
 * account's id, an unknown id and an id erased before all count 0 alike (idempotent, and
 * nothing about other accounts is revealed). The aggregate counters are corrected by the
 * stream consumer, which takes a deleted active response out of every counter it was in
 * (functions/stream/consumer.ts, REMOVE records), exactly once like any other change.
 *
 * A person may have more responses than one call should delete: a call by userId erases
 * at most ERASE_BATCH of them within a time budget and answers `more: true` while some
 * remain; the caller repeats it until `more` is false.
 */
import { ERASE_BATCH, type ResponseEraseModel } from '../api/response-models';
import { conditionHolds } from '../store/conditions';
import { deleteItem, requestThemesSync, themeKeys } from '../store/themes';
import type { Store } from '../store/entities';
import { walkIndex } from './paging';
import { responseListing } from './response-queries';

export const ERASE_TIME_BUDGET_MS = 5000;
const ERASE_CONCURRENCY = 16;
const ERASE_CHUNK = 100;

export interface EraseResult {
  erased: number;
  /** By userId only: whether responses of the person remain (call again). */
  more?: boolean;
}

/**
 * Deletes one response if it belongs to the account; true when it did. The themes job's copy
 * of its text (store/themes.ts) goes with it at once, not at the job's next run.
 */
async function eraseOne(store: Store, accountId: string, responseId: string): Promise<boolean> {
  let erased: { contentSetId: string; createdAt: string } | null = null;
  const held = await conditionHolds(
    store.entities.Response.delete({ id: responseId })
      .where((attributes, { eq }) => eq(attributes.accountId, accountId))
      .go({ response: 'all_old' })
      .then((result) => {
        erased = result.data;
      }),
  );
  const old = erased as { contentSetId: string; createdAt: string } | null;
  if (held && old) {
    await deleteItem(store, themeKeys.message(old.contentSetId, old.createdAt, responseId));
    // Its day's counts follow once the stream took it out of the counters, whatever the day.
    await requestThemesSync(store, old.contentSetId, new Date(), { full: true });
  }
  return held;
}

async function eraseAll(store: Store, accountId: string, responseIds: string[]): Promise<number> {
  let next = 0;
  let erased = 0;
  await Promise.all(
    Array.from({ length: Math.min(ERASE_CONCURRENCY, responseIds.length) }, async () => {
      while (next < responseIds.length) {
        if (await eraseOne(store, accountId, responseIds[next++])) erased++;
      }
    }),
  );
  return erased;
}

export async function eraseResponses(store: Store, accountId: string, input: ResponseEraseModel, clock: () => number = Date.now): Promise<EraseResult> {
  if (input.responseIds) return { erased: await eraseAll(store, accountId, [...new Set(input.responseIds)]) };
  const started = clock();
  const { source } = await responseListing(store, accountId, { userId: input.userId, state: 'all' }, 'responses/erase');
  let erased = 0;
  const walked = await walkIndex(source!, {
    start: null,
    limit: ERASE_BATCH,
    chunk: ERASE_CHUNK,
    visit: async (responses) => {
      if (erased > 0 && clock() - started > ERASE_TIME_BUDGET_MS) return 0;
      erased += await eraseAll(
        store,
        accountId,
        responses.map((response) => response.id),
      );
      return responses.length;
    },
  });
  return { erased, more: walked.more };
}
