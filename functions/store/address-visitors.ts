/**
 * The address limit's record (docs/api.md "Quarantine", `addressLimit`): per address hash of
 * the day on an item (domain/visitor-hash.ts `addressHash`: item and day are in the hash),
 * one small item, `addressvisitors#<address hash>` / `visitors`, naming the first
 * `addressLimit` visitors of that address on that item: an attribute `v<first 10 characters
 * of the visitor hash>` each (60 bits: a collision among a thousand visitors of one address
 * is about one in a billion), their number `n`, and a TTL at the end of the next day, the
 * lifetime of the day's salt (store/visitor-salts.ts). Nothing else; no index, and no stream
 * consumer reads this prefix.
 *
 * Why an item per address and not a read of the item's responses: the limit is per day, and
 * a popular item's day of responses is too many to read for each new one; this is one
 * conditional UpdateItem per screened response, of an item that stays under 1 KB at the
 * default limit of 3 (about 14 bytes a visitor: 13 KB at the highest limit, 1000).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AddressAdmission } from '../domain/quarantine';
import { isConditionFailure } from './conditions';
import type { TableClient } from './dynamodb-clients';
import type { ItemKey } from './items';
import { saltExpiry } from './visitor-salts';

export const addressVisitorsKey = (address: string): ItemKey => ({ pk: `addressvisitors#${address}`, sk: 'visitors' });

/** The visitor's attribute in its address's record. */
export const visitorAttribute = (visitor: string) => `v${visitor.slice(0, 10)}`;

/**
 * Whether the visitor is one of the first `limit` of the address on the item that day (the
 * day of the salt that made the hashes): a visitor already named is admitted again, a new one
 * while fewer than `limit` are named is added and admitted, any other is over the limit and
 * not added. One conditional UpdateItem; repeating it gives the same answer (a redelivered
 * batch), unless the set's limit changed in between.
 */
export async function admitVisitor(table: TableClient, address: string, visitor: string, limit: number, day: string): Promise<AddressAdmission> {
  try {
    await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: addressVisitorsKey(address),
        UpdateExpression: 'SET #visitor = :one, #expiresAt = :expiresAt ADD #n :one',
        ConditionExpression: 'attribute_not_exists(#visitor) AND (attribute_not_exists(#n) OR #n < :limit)',
        ExpressionAttributeNames: { '#visitor': visitorAttribute(visitor), '#n': 'n', '#expiresAt': 'expiresAt' },
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expiresAt': saltExpiry(day) },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'admitted';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const named = (error as { Item?: Record<string, unknown> }).Item?.[visitorAttribute(visitor)] !== undefined;
    return named ? 'admitted' : 'over-limit';
  }
}
