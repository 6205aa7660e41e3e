import {
  DynamoDBClient,
  type DynamoDBClientConfig,
  PutItemCommand,
  type PutItemCommandInput,
  UpdateItemCommand,
  type UpdateItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type PutCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { marshall, type marshallOptions, unmarshall } from '@aws-sdk/util-dynamodb';
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

function clientConfig(settings: StoreSettings): DynamoDBClientConfig {
  const local = settings.endpoint !== undefined;
  return {
    endpoint: settings.endpoint,
    region: settings.region ?? (local ? 'local' : undefined),
    // DynamoDB Local accepts any credentials; real endpoints use the default provider chain.
    credentials: local && !process.env.AWS_ACCESS_KEY_ID ? { accessKeyId: 'local', secretAccessKey: 'local' } : undefined,
    maxAttempts: 4,
  };
}

/**
 * A client without the SDK's logger middleware: with no SDK logger configured (as here) it
 * still walks every input and output to hide sensitive fields, a few per cent of a request's
 * CPU in the SDK (profiled).
 */
function clientWithoutLogger(config: DynamoDBClientConfig): DynamoDBClient {
  const client = new DynamoDBClient(config);
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

/** The client under the document client (ElectroDB's path). */
export function createDynamoClient(settings: StoreSettings): DynamoDBClient {
  return clientWithoutLogger(clientConfig(settings));
}

/**
 * The hot path's bare client, doing less per request than the SDK's default (together
 * about 0.15 ms of CPU a PutItem, measured by hand with DynamoDB answering at once;
 * docs/scaling.md section 2): no logger middleware, and `cacheMiddleware`: the middleware
 * stack is resolved once per command class, not at every request. Middleware added after
 * the first request is ignored; the document client refuses such a client.
 */
export function createRawClient(settings: StoreSettings): DynamoDBClient {
  return clientWithoutLogger({ ...clientConfig(settings), cacheMiddleware: true });
}

/** How plain items become AttributeValues, through the document client or `putPlainItem`. */
const MARSHALL_OPTIONS: Readonly<marshallOptions> = { removeUndefinedValues: true, convertClassInstanceToMap: false };

export function createDocumentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  // A copy: the document client writes its own defaults into the options it is given.
  return DynamoDBDocumentClient.from(client, { marshallOptions: { ...MARSHALL_OPTIONS } });
}

/**
 * What code that writes raw DynamoDB requests needs: the stream consumer, the ranker
 * and the counter store. It does not load ElectroDB, which keeps the consumer's bundle small.
 */
export interface TableClient {
  documentClient: DynamoDBDocumentClient;
  /** The hot path's bare client (`createRawClient`, `putPlainItem`); the document client cannot wrap it, hence a second one. */
  rawClient: DynamoDBClient;
  tableName: string;
}

let cached: (TableClient & { client: DynamoDBClient; settings: StoreSettings }) | undefined;

/** One pair of clients per process (per Lambda container), created on first use. */
export function defaultTableClient() {
  if (!cached) {
    const settings = storeSettingsFromEnv();
    const client = createDynamoClient(settings);
    const rawClient = createRawClient(settings);
    cached = { client, documentClient: createDocumentClient(client), rawClient, tableName: settings.tableName, settings };
  }
  return cached;
}

/**
 * A PutItem of a plain item, marshalled as the document client would, sent by the raw
 * client: responses/create's one write, without the document client's per-request layer.
 */
export async function putPlainItem(table: TableClient, put: PutCommandInput): Promise<void> {
  await table.rawClient.send(
    new PutItemCommand({
      ...put,
      Item: marshall(put.Item, MARSHALL_OPTIONS),
      ExpressionAttributeValues: put.ExpressionAttributeValues && marshall(put.ExpressionAttributeValues, MARSHALL_OPTIONS),
    } as PutItemCommandInput),
  );
}

/** An UpdateItem of plain values, marshalled and sent the same way: a visitor's response (store/items.ts `visitorResponseUpdate`); answers what it asked to return. */
export async function updatePlainItem(table: TableClient, update: UpdateCommandInput): Promise<Record<string, unknown> | undefined> {
  const answer = await table.rawClient.send(
    new UpdateItemCommand({
      ...update,
      Key: marshall(update.Key, MARSHALL_OPTIONS),
      ExpressionAttributeValues: update.ExpressionAttributeValues && marshall(update.ExpressionAttributeValues, MARSHALL_OPTIONS),
    } as UpdateItemCommandInput),
  );
  return answer.Attributes && unmarshall(answer.Attributes);
}
