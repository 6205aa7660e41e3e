/**
 * responses/edit and responses/remove: what the holder of a revoke token may do while its window is open.
 *
 * DynamoDB round trips (anonymous caller): remove 2 (the response, then its conditional
 * update); edit 2 on a warm instance (the response with its set in one BatchGetItem, the
 * set's id being part of the token, then a conditional UpdateItem), 3 when the states of
 * its project and item are not remembered (target-cache.ts: one BatchGetItem more). Like
 * responses/create, edit takes the states of project, set and item as remembered for at
 * most 10 s: an archive refuses edits within that bound, with the same `conflict`.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashSecret, secretMatches, type Caller } from '../api/auth';
import { ApiError, notFound } from '../api/errors';
import { getRawItems } from '../store/batch';
import { isConditionFailure } from '../store/conditions';
import type { TableClient } from '../store/dynamodb-clients';
import { contentSetOf, keys, responseOf, type StoredResponse } from '../store/items';
import type { ResponseWriteResult } from './response-collection';
import { resolveTarget, tokenContentSet, validValue, visibleTo } from './response-targets';
import { freshSet, rememberSet } from './target-cache';

/**
 * A response that the token holder may change: right token, still active, window open.
 * Read with the set the token names (when this instance does not know it from the last 10 s).
 */
async function loadRevocable(
  table: TableClient,
  caller: Caller,
  responseId: string,
  revokeToken: string,
  now: Date,
  withSet: boolean,
): Promise<StoredResponse> {
  const namedSet = withSet ? tokenContentSet(revokeToken) : undefined;
  const prefetch = namedSet && !freshSet(namedSet, now.getTime()) ? [keys.contentSet(namedSet)] : [];
  const [raw, setRaw] = await getRawItems(table, [keys.response(responseId), ...prefetch]);
  const response = responseOf(raw);
  if (!response || !visibleTo(caller, response.accountId)) throw notFound('Response', responseId);
  const tokenHash = response.revokeTokenHash;
  if (typeof tokenHash !== 'string' || !secretMatches(revokeToken, tokenHash)) {
    throw new ApiError('forbidden', 'The revoke token does not match this response', { responseId });
  }
  if (response.state !== 'active') throw new ApiError('conflict', 'The response was already removed', { responseId, state: response.state });
  if (!response.revokeExpiresAt || response.revokeExpiresAt <= now.toISOString()) {
    throw new ApiError('forbidden', 'The revocation window of this response has closed', { responseId, expiredAt: response.revokeExpiresAt });
  }
  const prefetched = contentSetOf(setRaw);
  if (prefetched) rememberSet(prefetched, now.getTime());
  return response;
}

export async function editResponse(
  table: TableClient,
  caller: Caller,
  input: { responseId: string; revokeToken: string; value: unknown },
  now: Date,
): Promise<ResponseWriteResult> {
  const response = await loadRevocable(table, caller, input.responseId, input.revokeToken, now, true);
  // A new value is refused wherever create would refuse one, and states come first.
  const target = await resolveTarget(table, caller, { contentId: response.contentItemId }, now.getTime());
  const value = validValue(target.contentSet, input.value);
  try {
    await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.response(response.id),
        UpdateExpression: 'SET #value = :value, #contribution = :contribution, #updatedAt = :updatedAt',
        ConditionExpression: 'attribute_exists(#pk) AND #state = :active AND #revokeTokenHash = :tokenHash',
        ExpressionAttributeNames: {
          '#pk': 'pk',
          '#state': 'state',
          '#revokeTokenHash': 'revokeTokenHash',
          '#value': 'value',
          '#contribution': 'contribution',
          '#updatedAt': 'updatedAt',
        },
        ExpressionAttributeValues: {
          ':active': 'active',
          ':tokenHash': hashSecret(input.revokeToken),
          ':value': value.value,
          ':contribution': value.contribution,
          ':updatedAt': now.toISOString(),
        },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new ApiError('conflict', 'The response was removed meanwhile', { responseId: response.id });
    throw error;
  }
  return {
    responseId: response.id,
    feelbackId: response.id,
    revokable: { token: input.revokeToken, expireAt: response.revokeExpiresAt! },
  };
}

export async function removeResponse(table: TableClient, caller: Caller, input: { responseId: string; revokeToken: string }, now: Date): Promise<void> {
  const response = await loadRevocable(table, caller, input.responseId, input.revokeToken, now, false);
  try {
    await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: keys.response(response.id),
        UpdateExpression: 'SET #state = :revoked, #updatedAt = :updatedAt',
        ConditionExpression: 'attribute_exists(#pk) AND #state = :active',
        ExpressionAttributeNames: { '#pk': 'pk', '#state': 'state', '#updatedAt': 'updatedAt' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':active': 'active', ':updatedAt': now.toISOString() },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new ApiError('conflict', 'The response was already removed', { responseId: response.id });
    throw error;
  }
}
