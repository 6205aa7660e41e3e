/**
 * responses/create: a visitor's response, written with its content item when the key is new.
 *
 * DynamoDB round trips (anonymous caller; a keyed caller adds the GetItem of its key):
 *
 * | target                                  | warm instance (target-cache.ts)  | remembered > 10 s ago    | cold instance              |
 * |-----------------------------------------|----------------------------------|--------------------------|----------------------------|
 * | contentSetId + key of an existing item  | 1: PutItem                       | 2: BatchGetItem + PutItem | 3: BatchGetItem x2 + PutItem |
 * | contentSetId + a new key                | 2: BatchGetItem (key) + TransactWriteItems | 2         | 3                          |
 * | contentId                               | 1                                | 2                        | 3: item and set, project, PutItem |
 *
 * A response on an existing item is one conditional PutItem (its id is new), with no
 * check of its targets: their states come from what the instance remembers, trusted for
 * TARGET_MAX_AGE_MS (10 s) and then read again, so an archived or deactivated project, set
 * or item refuses new responses within 10 s (the documented `conflict`). A new key is one
 * transaction writing key item, content item and response, with checks that the project
 * and set are active. A revoke token needs the set's revoke window, remembered the same way.
 */
import { hashSecret, type Caller } from '../api/auth';
import { ApiError } from '../api/errors';
import type { ResponseCreateModel } from '../api/response-models';
import { deriveProfiling, type Profiling } from '../domain/profiling';
import { newId } from '../domain/text';
import { onePerVisitorOf } from '../domain/schemas';
import type { PutCommandInput } from '@aws-sdk/lib-dynamodb';
import { putPlainItem, type TableClient, updatePlainItem } from '../store/dynamodb-clients';
import {
  createResponse as createResponseWrite,
  keptAfter,
  keptByStored,
  type NewResponse,
  userIndexAttributes,
  visitorResponseCreation,
  visitorResponseReplacement,
  visitorResponseUpdate,
} from '../store/items';
import { conflictPause } from '../store/transactions';
import { isConditionFailure } from '../store/conditions';
import { autoMetadata, insertContentItem, newContentItem } from './contents';
import { issueRevokeToken, resolveTarget, stateChecks, validValue } from './response-targets';
import { rememberItem, rememberKey } from './target-cache';
import { rememberedVisitorResponse, rememberVisitorResponse, type VisitorIdentity, visitorIdentityOf } from './visitor-identity';

export interface ResponseWriteResult {
  responseId: string;
  /** The same id under the name the published widgets read. */
  feelbackId: string;
  revokable?: { token: string; expireAt: string };
}

/**
 * Attempts of one create with a new key: a transaction another one held is retried after a
 * short pause; a failed check (a state changed, or a concurrent first response took the
 * key) sends the next attempt through a fresh read of what it relied on.
 */
const ATTEMPTS = 6;

/**
 * A visitor's response on an existing item (onePerVisitor), as PutItems where it can: when
 * this instance wrote the visitor's response today, the PutItem that replaces it (store/items.ts
 * `visitorResponseReplacement`); else the PutItem of a new response (`visitorResponseCreation`),
 * which, refused because another instance wrote it today, returns the stored one to replace
 * the same way. Put for put, the write units are those of the UpdateItem that creates or
 * replaces it (`visitorResponseUpdate`), which stays the answer to anything else refused
 * (erased since, a hold record, a concurrent change); a refused put costs the stored item's
 * units (at least 1 WRU) and a round trip, but only on a visitor's second response of a day
 * that reaches another instance. A held one stays held, and the widget learns nothing
 * (docs/api.md, "One vote per visitor").
 */
async function writeVisitorResponse(table: TableClient, response: NewResponse): Promise<void> {
  let kept = rememberedVisitorResponse(response.id);
  if (!kept) {
    const refused = await refusedPut(table, visitorResponseCreation(table.tableName, response));
    if (refused === 'written') {
      rememberVisitorResponse(response.id, keptAfter(response, undefined));
      return;
    }
    if (isHeld(refused?.state?.S)) return;
    kept = keptByStored(refused);
  }
  if (kept) {
    const refused = await refusedPut(table, visitorResponseReplacement(table.tableName, response, kept));
    if (refused === 'written') {
      rememberVisitorResponse(response.id, keptAfter(response, kept));
      return;
    }
    if (isHeld(refused?.state?.S)) return;
  }
  try {
    const stored = await updatePlainItem(table, { ...visitorResponseUpdate(table.tableName, response), ReturnValues: 'UPDATED_NEW' });
    // What the item keeps, as the update left it (the first version's, when it replaced one).
    if (typeof stored?.createdAt === 'string') {
      rememberVisitorResponse(response.id, { createdAt: stored.createdAt, ...(typeof stored.userSort === 'string' ? { userSort: stored.userSort } : {}) });
    }
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** A conditional PutItem: 'written', or the item as it was when refused (marshalled; undefined if none). */
async function refusedPut(table: TableClient, put: PutCommandInput): Promise<'written' | Record<string, { S?: string }> | undefined> {
  try {
    await putPlainItem(table, put);
    return 'written';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (error as { Item?: Record<string, { S?: string }> }).Item;
  }
}

const isHeld = (state: string | undefined) => state === 'quarantined' || state === 'discarded';

export async function createResponse(
  table: TableClient,
  caller: Caller,
  input: ResponseCreateModel,
  request: { headers: Record<string, string | undefined>; sourceIp?: string },
  now: Date,
): Promise<ResponseWriteResult> {
  const clock = now.getTime();
  const wantsToken = input.revokable === true;
  const context = input.context ?? undefined;
  const profiling: Profiling = deriveProfiling(input.profiling ?? undefined, { headers: request.headers, context });
  const timestamp = now.toISOString();

  let reread = false;
  for (let attempt = 1; ; attempt++) {
    const target = await resolveTarget(table, caller, input, clock, reread);
    const set = target.contentSet;
    // After the target's own errors (states first), as a full read orders them.
    const value = validValue(set, input.value);
    const revokeWindow = set.revokeWindowSeconds ?? 0;
    const revokable = wantsToken && revokeWindow > 0 ? issueRevokeToken(set.id, revokeWindow, now) : undefined;
    const record = (contentItemId: string, identity: VisitorIdentity | undefined, id = newId()): NewResponse => ({
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
      visitor: identity?.visitor,
      address: identity?.address,
      createdAt: timestamp,
      updatedAt: timestamp,
      // The person the response is about, when the caller named one: found and erased by it.
      ...userIndexAttributes({ accountId: set.accountId, userId: profiling.userId || undefined, createdAt: timestamp, id }),
    });
    const written = (response: NewResponse) => ({ responseId: response.id, feelbackId: response.id, ...(revokable ? { revokable } : {}) });

    // An anonymous response carries the visitor's and the address's hashes of the day on the
    // item, for the flood rules (stream/screening.ts). One vote per visitor: a set with
    // onePerVisitor takes the visitor's as the id its responses on the item share today,
    // replacing the earlier one (docs/api.md).
    const oncePerVisitor = caller.level === 'anonymous' && onePerVisitorOf(set);
    const identityOf = (contentItemId: string) =>
      caller.level === 'anonymous' ? visitorIdentityOf(table, request, { contentSetId: set.id, contentItemId }, now) : Promise.resolve(undefined);

    if (target.item) {
      const identity = await identityOf(target.item.id);
      if (identity && oncePerVisitor) {
        const response = record(target.item.id, identity, identity.visitor);
        await writeVisitorResponse(table, response);
        return written(response);
      }
      // A new id: the condition (attribute_not_exists) never fails but on a collision of 128 random bits.
      const response = record(target.item.id, identity);
      await putPlainItem(table, createResponseWrite(table.tableName, response).Put!);
      return written(response);
    }
    const item = newContentItem(set, input.key!, autoMetadata(input.key!), now);
    // A new item has no earlier response: the visitor's id is written as any new one.
    const identity = await identityOf(item.id);
    const response = record(item.id, identity, (oncePerVisitor ? identity?.visitor : undefined) ?? newId());
    const outcome = await insertContentItem(table, item, [
      createResponseWrite(table.tableName, response),
      ...stateChecks(table.tableName, { projectId: set.projectId, contentSetId: set.id, itemId: null }),
    ]);
    if (outcome.inserted) {
      if (oncePerVisitor && identity) rememberVisitorResponse(response.id, keptAfter(response, undefined));
      rememberItem(item, clock);
      rememberKey(set.id, item.key, item.id, clock);
      return written(response);
    }
    if (attempt >= ATTEMPTS) {
      throw new ApiError('conflict', 'The content item is being written concurrently; retry', { contentSetId: set.id, key: input.key ?? undefined });
    }
    // A transaction another one held: the same again after a pause. A failed check (a
    // concurrent first response took the key, or a state changed): read it all afresh.
    if (outcome.conflict) await conflictPause(attempt);
    else reread = true;
  }
}
