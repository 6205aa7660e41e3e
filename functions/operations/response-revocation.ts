/**
 * responses/edit and responses/remove: what the holder of a revoke token may do while its window is open.
 *
 * DynamoDB round trips (anonymous caller): remove 2 (the response, then its conditional
 * update); edit 2 (the response with its set in one BatchGetItem, the set's id being part
 * of the token, then a transaction: the conditional update with ConditionChecks that the
 * project, set and item are active). Tokens issued before the set's id was part of them,
 * on a set this instance has not seen, take one BatchGetItem more.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashSecret, secretMatches, type Caller } from '../api/auth';
import { ApiError, notFound } from '../api/errors';
import { getRawItems } from '../store/batch';
import { isConditionFailure } from '../store/conditions';
import type { TableClient } from '../store/dynamodb-clients';
import { contentItemOf, contentSetOf, keys, projectStateOf, responseOf, type StoredResponse, type TransactItem } from '../store/items';
import { conflictPause, isConflict, writeTransaction } from '../store/transactions';
import type { ResponseWriteResult } from './response-collection';
import { refuseInactive, stateChecks, tokenContentSet, validValue, visibleTo } from './response-targets';
import { rememberSet, setFacts, type SetFacts } from './target-cache';

/**
 * A response that the token holder may change: right token, still active, window open.
 * Read with the set the token names (when it names one this instance does not know).
 */
async function loadRevocable(
  table: TableClient,
  caller: Caller,
  responseId: string,
  revokeToken: string,
  now: Date,
  withSet: boolean,
): Promise<{ response: StoredResponse; set?: SetFacts }> {
  const namedSet = withSet ? tokenContentSet(revokeToken) : undefined;
  const prefetch = namedSet && !setFacts(namedSet) ? [keys.contentSet(namedSet)] : [];
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
  return { response, set: setFacts(response.contentSetId) };
}

/** Reads the project, set and item of a response and answers the documented error of the first inactive one. */
async function refuseInactiveTarget(table: TableClient, response: StoredResponse): Promise<void> {
  const [setRaw, projectRaw, itemRaw] = await getRawItems(table, [
    keys.contentSet(response.contentSetId),
    keys.project(response.projectId),
    keys.contentItem(response.contentItemId),
  ]);
  const contentSet = contentSetOf(setRaw);
  const project = projectStateOf(projectRaw);
  const item = contentItemOf(itemRaw);
  if (!contentSet || !project || !item) throw notFound('Content set', response.contentSetId);
  refuseInactive({ project, contentSet, item });
}

const EDIT_ATTEMPTS = 6;

export async function editResponse(
  table: TableClient,
  caller: Caller,
  input: { responseId: string; revokeToken: string; value: unknown },
  now: Date,
): Promise<ResponseWriteResult> {
  const { response, set: known } = await loadRevocable(table, caller, input.responseId, input.revokeToken, now, true);
  let set = known;
  if (!set) {
    const [setRaw] = await getRawItems(table, [keys.contentSet(response.contentSetId)]);
    const contentSet = contentSetOf(setRaw);
    if (!contentSet) throw notFound('Content set', response.contentSetId);
    rememberSet(contentSet, now.getTime());
    set = setFacts(contentSet.id)!;
  }
  let value: ReturnType<typeof validValue>;
  try {
    value = validValue(set, input.value);
  } catch (error) {
    // A new value is refused wherever create would refuse one, and states come first.
    await refuseInactiveTarget(table, response);
    throw error;
  }
  const update: TransactItem = {
    Update: {
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
    },
  };
  const checks = stateChecks(table.tableName, { projectId: response.projectId, contentSetId: response.contentSetId, itemId: response.contentItemId });
  for (let attempt = 1; ; attempt++) {
    const outcome = await writeTransaction(table, [update, ...checks]);
    if (!outcome.canceled) break;
    if (isConflict(outcome.reasons) && attempt < EDIT_ATTEMPTS) {
      await conflictPause(attempt);
      continue;
    }
    if (outcome.reasons[0]?.code === 'ConditionalCheckFailed')
      throw new ApiError('conflict', 'The response was removed meanwhile', { responseId: response.id });
    // A check failed: the documented error of the entity that is no longer active.
    await refuseInactiveTarget(table, response);
    if (attempt >= EDIT_ATTEMPTS) throw new ApiError('conflict', 'The response is being written concurrently; retry', { responseId: response.id });
  }
  return {
    responseId: response.id,
    feelbackId: response.id,
    revokable: { token: input.revokeToken, expireAt: response.revokeExpiresAt! },
  };
}

export async function removeResponse(table: TableClient, caller: Caller, input: { responseId: string; revokeToken: string }, now: Date): Promise<void> {
  const { response } = await loadRevocable(table, caller, input.responseId, input.revokeToken, now, false);
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
