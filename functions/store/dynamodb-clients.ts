import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_TABLE_NAME } from './table';

export interface StoreSettings {
  /** DynamoDB endpoint; unset means the AWS endpoint of the region (Lambda, key CLI on a deployed table). */
  endpoint?: string;
  tableName: string;
  region?: string;
}

/** Settings shared by the Lambdas, `npm start`, the key CLI and the tests. */
export function storeSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): StoreSettings {
  return {
    endpoint: env.DYNAMODB_ENDPOINT || undefined,
    tableName: env.TABLE_NAME || DEFAULT_TABLE_NAME,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined,
  };
}

export function createDynamoClient(settings: StoreSettings): DynamoDBClient {
  const local = settings.endpoint !== undefined;
  const client = new DynamoDBClient({
    endpoint: settings.endpoint,
    region: settings.region ?? (local ? 'local' : undefined),
    // DynamoDB Local accepts any credentials; real endpoints use the default provider chain.
    credentials: local && !process.env.AWS_ACCESS_KEY_ID ? { accessKeyId: 'local', secretAccessKey: 'local' } : undefined,
    maxAttempts: 4,
  });
  return client;
}

export function createDocumentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

/**
 * What code that writes raw DynamoDB requests needs: the stream consumer, the ranker
 * and the counter store. It does not load ElectroDB, which keeps the consumer's bundle small.
 */
export interface TableClient {
  documentClient: DynamoDBDocumentClient;
  tableName: string;
}

let cached: (TableClient & { client: DynamoDBClient; settings: StoreSettings }) | undefined;

/** One client per process (per Lambda container), created on first use. */
export function defaultTableClient() {
  if (!cached) {
    const settings = storeSettingsFromEnv();
    const client = createDynamoClient(settings);
    cached = { client, documentClient: createDocumentClient(client), tableName: settings.tableName, settings };
  }
  return cached;
}
