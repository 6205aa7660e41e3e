import { fnv1a } from './text';

/**
 * Write shards of the responses' list indexes (gsi1 by item, gsi2 by set, gsi3 by project).
 *
 * Each list partition key ends in `#<shard>`, the shard derived from the response's id, so
 * one page or one project taking every response spreads its index writes over
 * RESPONSE_LIST_SHARDS partitions (1/8 WRU per response on the hottest, against DynamoDB's
 * 1,000 WCU/s per partition). Readers query every shard below their cursor and merge
 * (operations/response-lists.ts). Responses written before shards carry the unsharded key
 * (`legacyListPartition`), read as one more source of the merge.
 */
export const RESPONSE_LIST_SHARDS = 8;

/** The shard of a response: FNV-1a of its id (ids are random; this spread does not depend on their alphabet). */
export function responseShard(responseId: string): string {
  return String(fnv1a(responseId) % RESPONSE_LIST_SHARDS);
}

export const RESPONSE_SHARDS: readonly string[] = Array.from({ length: RESPONSE_LIST_SHARDS }, (_, shard) => String(shard));
