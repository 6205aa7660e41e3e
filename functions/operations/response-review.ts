/**
 * responses/release and responses/discard: an admin's verdict on held responses (docs/api.md
 * "Quarantine"), by id or every held response of an item.
 *
 * Each response is one conditional UpdateItem: of the caller's account and still
 * `quarantined`, so another account's id, an unknown id and one already judged count 0
 * alike (idempotent, nothing revealed). The stream does the rest: a release
 * (quarantined -> active) is a `response.created` (stream/events.ts), counted and announced
 * as new; a discard (-> discarded) is neither, and the response stays stored for the audit,
 * like a revoked one, until erased.
 *
 * By item, a call judges at most REVIEW_BATCH held responses and answers `more: true` while
 * some remain; the caller repeats it until `more` is false.
 */
import { REVIEW_BATCH, type ResponseReviewModel } from '../api/response-models';
import { conditionHolds } from '../store/conditions';
import type { Store } from '../store/entities';
import { walkIndex } from './paging';
import { responseListing } from './response-queries';

const REVIEW_CONCURRENCY = 16;

export type Verdict = 'release' | 'discard';

export interface ReviewResult {
  /** Responses this call released or discarded. */
  changed: number;
  /** By contentId only: whether held responses of the item remain (call again). */
  more?: boolean;
}

const STATE_AFTER: Record<Verdict, 'active' | 'discarded'> = { release: 'active', discard: 'discarded' };

/** Judges one response if it is the account's and held; true when it did. */
function judgeOne(store: Store, accountId: string, responseId: string, verdict: Verdict, now: Date): Promise<boolean> {
  return conditionHolds(
    store.entities.Response.patch({ id: responseId })
      .set({ state: STATE_AFTER[verdict], updatedAt: now.toISOString() })
      .where((attributes, { eq }) => `${eq(attributes.accountId, accountId)} AND ${eq(attributes.state, 'quarantined')}`)
      .go({ response: 'none' }),
  );
}

async function judgeAll(store: Store, accountId: string, responseIds: string[], verdict: Verdict, now: Date, touched: string[]): Promise<number> {
  let next = 0;
  let changed = 0;
  await Promise.all(
    Array.from({ length: Math.min(REVIEW_CONCURRENCY, responseIds.length) }, async () => {
      while (next < responseIds.length) {
        const responseId = responseIds[next++];
        if (await judgeOne(store, accountId, responseId, verdict, now)) {
          changed++;
          touched.push(responseId);
        }
      }
    }),
  );
  return changed;
}

export async function reviewResponses(
  store: Store,
  accountId: string,
  input: ResponseReviewModel,
  verdict: Verdict,
  now: Date,
  /** The audit entry's ids of what changed, for a call by item. */
  touched: string[] = [],
): Promise<ReviewResult> {
  if (input.responseIds) return { changed: await judgeAll(store, accountId, [...new Set(input.responseIds)], verdict, now, []) };
  const { source } = await responseListing(store, accountId, { contentId: input.contentId, state: 'quarantined' }, `responses/${verdict}`);
  let changed = 0;
  const walked = await walkIndex(source!, {
    start: null,
    limit: REVIEW_BATCH,
    chunk: REVIEW_BATCH,
    visit: async (responses) => {
      changed += await judgeAll(
        store,
        accountId,
        responses.map((response) => response.id),
        verdict,
        now,
        touched,
      );
      return responses.length;
    },
  });
  return { changed, more: walked.more };
}
