import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export interface GlobalIndexShape {
  indexName: string;
  partitionKey: string;
  sortKey: string;
  sortKeyType: 'S' | 'N';
  projection: 'ALL' | 'KEYS_ONLY';
}

/**
 * The one table's physical shape. The CDK stack and the local runtime both build the
 * table from this description, so a deployed table and DynamoDB Local cannot drift.
 * Entities overload the generic GSIs (see entities.ts and aggregates.ts).
 */
export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', sortKeyType: 'S', projection: 'ALL' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', sortKeyType: 'S', projection: 'ALL' },
    { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', sortKeyType: 'S', projection: 'ALL' },
    // Sparse: a person's responses (only those with a user id), for data access and erasure.
    // CloudFormation adds one GSI per stack update: deploy a new index on its own.
    { indexName: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk', sortKeyType: 'S', projection: 'ALL' },
    // Unused since rankings became top lists (store/top-lists.ts); nothing writes their keys any more. They
    // stay defined because CloudFormation deletes one GSI per stack update: drop them one per release.
    { indexName: 'rank1', partitionKey: 'rank1pk', sortKey: 'count', sortKeyType: 'N', projection: 'ALL' },
    { indexName: 'rank2', partitionKey: 'rank2pk', sortKey: 'count', sortKeyType: 'N', projection: 'ALL' },
    { indexName: 'rank3', partitionKey: 'rank3pk', sortKey: 'count', sortKeyType: 'N', projection: 'ALL' },
    // Sparse, keys only: every top list's header (`toplists#<n>`), for the ranker's daily recount of rolling
    // windows. A header's key never changes, so its rewrites cost no index write. (Named for its first use.)
    { indexName: 'retire', partitionKey: 'retirepk', sortKey: 'sk', sortKeyType: 'S', projection: 'KEYS_ONLY' },
    // Pending webhook deliveries by due time (store/webhooks.ts). Sparse: only pending deliveries carry
    // the keys. Keys only: a sweeper claims each due delivery with an update that returns the item.
    { indexName: 'due', partitionKey: 'duepk', sortKey: 'duesk', sortKeyType: 'S', projection: 'KEYS_ONLY' },
  ] satisfies GlobalIndexShape[],
  /** Epoch seconds after which DynamoDB may delete an item (stream bookkeeping). */
  timeToLiveAttribute: 'expiresAt',
} as const;

export const DEFAULT_TABLE_NAME = 'feedback';

export function createTableInput(tableName: string): CreateTableCommandInput {
  const keyTypes = new Map<string, 'S' | 'N'>([
    [TABLE_KEYS.partitionKey, 'S'],
    [TABLE_KEYS.sortKey, 'S'],
  ]);
  for (const index of TABLE_KEYS.globalIndexes) {
    keyTypes.set(index.partitionKey, 'S');
    keyTypes.set(index.sortKey, index.sortKeyType);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...keyTypes].map(([name, type]) => ({ AttributeName: name, AttributeType: type })),
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: TABLE_KEYS.globalIndexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: index.projection },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}
