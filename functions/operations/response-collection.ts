/**
 * responses/create: a visitor's response, written with its content item when the key is new.
 *
 * DynamoDB round trips (anonymous caller; a keyed caller adds the GetItem of its key):
 *
 * | target                                  | warm instance (target-cache.ts)   | cold instance                     |
 * |-----------------------------------------|-----------------------------------|-----------------------------------|
 * | contentSetId + key of an existing item  | 1: TransactWriteItems             | 2: BatchGetItem (set, key) + 1    |
 * | contentSetId + a new key                | 2: BatchGetItem (set, key) + 1    | 2                                 |
 * | contentId                               | 1                                 | 3: item, then its set, then 1     |
 *
 * The transaction is the response's Put with ConditionChecks that its project, set and
 * item are active (and that the item still holds the key), so a response never lands
 * after an archive: the next one after it is refused. A revoke token needs the set's
 * revoke window, read again when older than 60 s (one more BatchGetItem then).
 * Anything the hot path cannot decide alone goes through a full read (freshTarget), which
 * answers the documented error.
 */
import { hashSecret, type Caller } from '../api/auth';
import { ApiError } from '../api/errors';
import type { ResponseCreateModel } from '../api/response-models';
import { deriveProfiling, type Profiling } from '../domain/profiling';
import { newId } from '../domain/text';
import type { TableClient } from '../store/dynamodb-clients';
import { createResponse as createResponseWrite, type NewResponse, userIndexAttributes } from '../store/items';
import { conflictPause, isConflict, writeTransaction } from '../store/transactions';
import { autoMetadata, insertContentItem, newContentItem } from './contents';
import { freshTarget, issueRevokeToken, planOf, planWrite, stateChecks, validValue, type WritePlan } from './response-targets';
import { forgetTarget, rememberItem, rememberKey } from './target-cache';

export interface ResponseWriteResult {
  responseId: string;
  /** The same id under the name the published widgets read. */
  feelbackId: string;
  revokable?: { token: string; expireAt: string };
}

/**
 * Attempts of one create: a check that failed (something changed since it was
 * remembered, or a concurrent first response took the key) sends the next attempt
 * through a full read; a transaction another one held is retried after a short pause.
 */
const ATTEMPTS = 6;

export async function createResponse(
  table: TableClient,
  caller: Caller,
  input: ResponseCreateModel,
  request: { headers: Record<string, string | undefined> },
  now: Date,
): Promise<ResponseWriteResult> {
  const clock = now.getTime();
  const wantsToken = input.revokable === true;
  const context = input.context ?? undefined;
  const profiling: Profiling = deriveProfiling(input.profiling ?? undefined, { headers: request.headers, context });
  const timestamp = now.toISOString();

  let plan: WritePlan | undefined = await planWrite(table, caller, input, clock, wantsToken);
  for (let attempt = 1; ; attempt++) {
    plan ??= planOf(await freshTarget(table, caller, input, clock), input, clock);
    let value: ReturnType<typeof validValue>;
    try {
      value = validValue(plan.set, input.value);
    } catch (error) {
      // An invalid value is reported after the target's own errors (states first), as a full read orders them.
      if (!plan.fresh) {
        plan = undefined;
        continue;
      }
      throw error;
    }
    const { set } = plan;
    const revokeWindow = plan.settings?.revokeWindowSeconds ?? 0;
    const revokable = wantsToken && revokeWindow > 0 ? issueRevokeToken(set.id, revokeWindow, now) : undefined;
    const record = (contentItemId: string, id = newId()): NewResponse => ({
      id,
      accountId: set.accountId,
      projectId: set.projectId,
      contentSetId: set.id,
      contentItemId,
      schema: set.schema,
      state: 'active',
      value: value.value,
      contribution: value.contribution,
      context: context && Object.keys(context).length > 0 ? context : undefined,
      profiling: Object.keys(profiling).length > 0 ? profiling : undefined,
      revokeTokenHash: revokable ? hashSecret(revokable.token) : undefined,
      revokeExpiresAt: revokable?.expireAt,
      createdAt: timestamp,
      updatedAt: timestamp,
      // The person the response is about, when the caller named one: found and erased by it.
      ...userIndexAttributes({ accountId: set.accountId, userId: profiling.userId || undefined, createdAt: timestamp, id }),
    });
    const checks = { projectId: set.projectId, contentSetId: set.id, key: plan.key };

    let written: { id: string } | undefined;
    let conflict = false;
    if (plan.itemId) {
      const response = record(plan.itemId);
      const outcome = await writeTransaction(table, [
        createResponseWrite(table.tableName, response),
        ...stateChecks(table.tableName, { ...checks, itemId: plan.itemId }),
      ]);
      if (!outcome.canceled) written = response;
      else conflict = isConflict(outcome.reasons);
    } else {
      const item = newContentItem(set, input.key!, autoMetadata(input.key!), now);
      const response = record(item.id);
      const outcome = await insertContentItem(table, item, [
        createResponseWrite(table.tableName, response),
        ...stateChecks(table.tableName, { ...checks, itemId: null }),
      ]);
      if (outcome.inserted) {
        written = response;
        rememberItem(item);
        rememberKey(set.id, item.key, item.id);
      } else conflict = outcome.conflict;
    }
    if (written) return { responseId: written.id, feelbackId: written.id, ...(revokable ? { revokable } : {}) };
    if (attempt >= ATTEMPTS) {
      throw new ApiError('conflict', 'The content item is being written concurrently; retry', { contentSetId: set.id, key: input.key ?? undefined });
    }
    if (conflict) await conflictPause(attempt);
    // The same write again after a conflict on an existing item; anything else (a failed
    // check; a new key, which a concurrent first response may have taken) is read afresh.
    if (!conflict || !plan.itemId) {
      forgetTarget({ contentSetId: set.id, key: input.key ?? undefined, contentItemId: input.contentId ?? undefined });
      plan = undefined;
    }
  }
}
