/**
 * Audit entries (domain/audit.ts): one item per entry, raw DocumentClient (the adapter
 * writes them, and the widgets' bundles carry no ElectroDB).
 *
 * | Access pattern                                   | Index | Partition key        | Sort key      |
 * |--------------------------------------------------|-------|----------------------|---------------|
 * | Audit entries of an account, newest first        | table | audit#<accountId>    | <at>#<id>     |
 * | Refused calls of an actor in a minute (counter)  | table | audit#<accountId>#refused#<actor id> | <minute> |
 *
 * An aggregate of refused calls (domain/audit.ts `count`) is an entry like the others,
 * under `<minute start>#<id derived from actor, operation, outcome and minute>`, so every
 * refused call beyond an actor's first few in a minute adds 1 to the same item. The
 * counter items sit in a partition per actor (one actor's flood stays in its own
 * partition): no audit read ever sees them, and they expire after a day.
 *
 * The sort key is the entry's time (ISO 8601, UTC, fixed width: it sorts as it reads)
 * and its random id, so entries of the same millisecond stay distinct and a cursor names
 * one exactly. A time range is a key condition on it; actor, operation, target id and outcome are
 * filters on the read, bounded like the other filtered lists (batch.ts `queryWithinBudget`). Each item
 * carries `expiresAt` (the table's TTL attribute, store/table.ts) 400 days after `at`. The
 * `audit#` prefix is neither stream consumer's (`response#`, `content#`): writing an entry
 * invokes no one.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AUDIT_RETENTION_SECONDS, type AuditEntry } from '../domain/audit';
import { queryWithinBudget } from './batch';
import type { TableClient } from './dynamodb-clients';
import { TABLE_KEYS } from './table';

export const auditPartition = (accountId: string) => `audit#${accountId}`;
export const auditSortKey = (entry: Pick<AuditEntry, 'at' | 'id'>) => `${entry.at}#${entry.id}`;

/** The stored item of an entry: its keys, the entry, and its expiry. */
export function auditItem(accountId: string, entry: AuditEntry): Record<string, unknown> {
  const { count: _count, ...fields } = entry;
  return {
    pk: auditPartition(accountId),
    sk: auditSortKey(entry),
    ...fields,
    [TABLE_KEYS.timeToLiveAttribute]: Math.floor(Date.parse(entry.at) / 1000) + AUDIT_RETENTION_SECONDS,
  };
}

export function auditEntryOf(item: Record<string, unknown>): AuditEntry {
  const { id, at, actor, operation, targetIds, sourceIp, outcome, requestId, count, counts } = item as unknown as AuditEntry;
  return {
    id,
    at,
    actor,
    operation,
    targetIds,
    ...(sourceIp === undefined ? {} : { sourceIp }),
    outcome,
    requestId,
    ...(count === undefined ? {} : { count: Number(count) }),
    ...(counts === undefined ? {} : { counts: Object.fromEntries(Object.entries(counts).map(([name, value]) => [name, Number(value)])) }),
  };
}

/** Counter items outlive their minute by a day (the table's TTL removes them later still). */
const REFUSAL_COUNTER_SECONDS = 24 * 3600;

/** Counts one refused call of an actor in the minute `minute` (ISO, the minute's start); answers the count so far, this call included. */
export async function countRefusal(store: TableClient, accountId: string, actorId: string, minute: string): Promise<number> {
  const { Attributes } = await store.documentClient.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { pk: `${auditPartition(accountId)}#refused#${actorId}`, sk: minute },
      UpdateExpression: 'ADD #calls :one SET #expiresAt = if_not_exists(#expiresAt, :expiresAt)',
      ExpressionAttributeNames: { '#calls': 'calls', '#expiresAt': TABLE_KEYS.timeToLiveAttribute },
      ExpressionAttributeValues: { ':one': 1, ':expiresAt': Math.floor(Date.parse(minute) / 1000) + REFUSAL_COUNTER_SECONDS },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.calls ?? 1);
}

/**
 * Adds one call to an aggregate entry (`entry.count` is ignored): created by the first
 * call it counts, with that call's address and request id; every later one adds 1.
 */
export async function addToAggregate(store: TableClient, accountId: string, entry: AuditEntry): Promise<void> {
  const item = auditItem(accountId, entry);
  const fields = [
    'id',
    'at',
    'actor',
    'operation',
    'targetIds',
    'outcome',
    'requestId',
    ...(entry.sourceIp === undefined ? [] : ['sourceIp']),
    TABLE_KEYS.timeToLiveAttribute,
  ];
  await store.documentClient.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: { pk: item.pk, sk: item.sk },
      UpdateExpression: `SET ${fields.map((_, index) => `#f${index} = if_not_exists(#f${index}, :f${index})`).join(', ')} ADD #count :one`,
      ExpressionAttributeNames: { ...Object.fromEntries(fields.map((field, index) => [`#f${index}`, field])), '#count': 'count' },
      ExpressionAttributeValues: { ...Object.fromEntries(fields.map((field, index) => [`:f${index}`, item[field]])), ':one': 1 },
    }),
  );
}

/** One PutItem. The id is random, so a write never replaces another entry. */
export async function putAuditEntry(store: TableClient, accountId: string, entry: AuditEntry): Promise<void> {
  await store.documentClient.send(
    new PutCommand({ TableName: store.tableName, Item: auditItem(accountId, entry), ConditionExpression: 'attribute_not_exists(pk)' }),
  );
}

export interface AuditFilter {
  /** The actor's key id or membership id. */
  actor?: string;
  operation?: string;
  targetId?: string;
  /** `ok`, or `refused`: any error code. */
  outcome?: 'ok' | 'refused';
  /** Inclusive lower bound of `at`. */
  from?: string;
  /** Exclusive upper bound of `at`. */
  to?: string;
}

function keyCondition(accountId: string, filter: AuditFilter) {
  const values: Record<string, unknown> = { ':pk': auditPartition(accountId) };
  // `<at>#<id>` >= from exactly when at >= from; `<at>#<id>` < to exactly when at < to
  // (the same `at` followed by `#` sorts after `to` itself).
  let range = '';
  if (filter.from !== undefined && filter.to !== undefined) {
    range = ' AND sk BETWEEN :from AND :to';
    Object.assign(values, { ':from': filter.from, ':to': filter.to });
  } else if (filter.from !== undefined) {
    range = ' AND sk >= :from';
    values[':from'] = filter.from;
  } else if (filter.to !== undefined) {
    range = ' AND sk < :to';
    values[':to'] = filter.to;
  }
  return { expression: `pk = :pk${range}`, values };
}

function filterExpression(filter: AuditFilter) {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filter.actor !== undefined) {
    conditions.push('(#actor.#keyId = :actor OR #actor.#memberId = :actor)');
    Object.assign(names, { '#actor': 'actor', '#keyId': 'keyId', '#memberId': 'memberId' });
    values[':actor'] = filter.actor;
  }
  if (filter.operation !== undefined) {
    conditions.push('#operation = :operation');
    names['#operation'] = 'operation';
    values[':operation'] = filter.operation;
  }
  if (filter.targetId !== undefined) {
    conditions.push('contains(#targetIds, :target)');
    names['#targetIds'] = 'targetIds';
    values[':target'] = filter.targetId;
  }
  if (filter.outcome !== undefined) {
    conditions.push(filter.outcome === 'ok' ? '#outcome = :ok' : '#outcome <> :ok');
    names['#outcome'] = 'outcome';
    values[':ok'] = 'ok';
  }
  return conditions.length === 0 ? undefined : { expression: conditions.join(' AND '), names, values };
}

/**
 * Up to `count` entries of an account, newest first, after the item whose keys are
 * `start`; fewer when the partition ends or a filtered read spends its budget (then
 * `resume` holds the keys where it stopped).
 */
export async function readAuditEntries(
  store: TableClient,
  accountId: string,
  filter: AuditFilter,
  options: { start?: Record<string, unknown>; count: number },
): Promise<{ items: Record<string, unknown>[]; resume?: Record<string, unknown> }> {
  const key = keyCondition(accountId, filter);
  const filtered = filterExpression(filter);
  return queryWithinBudget(
    store,
    {
      TableName: store.tableName,
      KeyConditionExpression: key.expression,
      ExpressionAttributeValues: { ...key.values, ...filtered?.values },
      ...(filtered ? { FilterExpression: filtered.expression, ExpressionAttributeNames: filtered.names } : {}),
      ScanIndexForward: false,
    },
    options,
  );
}
