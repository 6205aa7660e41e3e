/** responses/create: a visitor's response, written with its content item when the key is new. */
import { randomBytes } from 'node:crypto';
import { hashSecret, type Caller } from '../api/auth';
import { ApiError } from '../api/errors';
import type { ResponseCreateModel } from '../api/response-models';
import { deriveProfiling, type Profiling } from '../domain/profiling';
import { newId } from '../domain/text';
import { userIndexAttributes, type ContentSetItem, type Store } from '../store/entities';
import { autoMetadata, insertContentItem, newContentItem } from './contents';
import { refuseInactive, resolveTarget, targetBySetKey, validValue } from './response-targets';

export interface ResponseWriteResult {
  responseId: string;
  /** The same id under the name the published widgets read. */
  feelbackId: string;
  revokable?: { token: string; expireAt: string };
}

function issueRevokeToken(contentSet: ContentSetItem, now: Date) {
  const token = randomBytes(24).toString('base64url');
  const expireAt = new Date(now.getTime() + contentSet.revokeWindowSeconds * 1000).toISOString();
  return { token, expireAt };
}

/** Concurrent first responses on one new key: each round either creates the item or finds the winner's. */
const AUTO_CREATE_ATTEMPTS = 5;

export async function createResponse(
  store: Store,
  caller: Caller,
  input: ResponseCreateModel,
  request: { headers: Record<string, string | undefined> },
  now: Date,
): Promise<ResponseWriteResult> {
  let target = await resolveTarget(store, caller, input);
  refuseInactive(target);
  const { value, contribution } = validValue(target.contentSet, input.value);
  const revokable = input.revokable === true && target.contentSet.revokeWindowSeconds > 0 ? issueRevokeToken(target.contentSet, now) : undefined;
  const context = input.context ?? undefined;
  const profiling: Profiling = deriveProfiling(input.profiling ?? undefined, { headers: request.headers, context });
  const timestamp = now.toISOString();
  const record = (contentItemId: string, id = newId()) => ({
    id,
    accountId: target.contentSet.accountId,
    projectId: target.contentSet.projectId,
    contentSetId: target.contentSet.id,
    contentItemId,
    schema: target.contentSet.schema,
    state: 'active' as const,
    value,
    contribution,
    context: context && Object.keys(context).length > 0 ? context : undefined,
    profiling: Object.keys(profiling).length > 0 ? profiling : undefined,
    revokeTokenHash: revokable ? hashSecret(revokable.token) : undefined,
    revokeExpiresAt: revokable?.expireAt,
    createdAt: timestamp,
    updatedAt: timestamp,
    // The person the response is about, when the caller named one: found and erased by it.
    ...userIndexAttributes({ accountId: target.contentSet.accountId, userId: profiling.userId || undefined, createdAt: timestamp, id }),
  });

  let response: ReturnType<typeof record> | undefined;
  for (let attempt = 1; !target.item; attempt++) {
    const item = newContentItem(target.contentSet, input.key!, autoMetadata(input.key!), now);
    const first = record(item.id);
    if (await insertContentItem(store, item, ({ Response }) => [Response.create(first).commit()])) {
      response = first;
      break;
    }
    if (attempt >= AUTO_CREATE_ATTEMPTS) throw new ApiError('conflict', 'The content item is being created concurrently; retry', { key: input.key });
    await new Promise((wait) => setTimeout(wait, 10 * attempt));
    target = await targetBySetKey(store, caller, target.contentSet.id, input.key!);
    refuseInactive(target);
  }
  if (!response) {
    response = record(target.item!.id);
    await store.entities.Response.create(response).go();
  }
  return { responseId: response.id, feelbackId: response.id, ...(revokable ? { revokable } : {}) };
}
