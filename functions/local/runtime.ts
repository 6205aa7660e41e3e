import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { KeyLevel } from '../api/auth';
import { ensureAccount, findApiKey, issueApiKey } from '../operations/accounts';
import { defaultStore } from '../store/client';
import { ensureTable } from '../store/setup';
import { startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local';
import { BASE_PATH, createApiServer } from './server';
import { handler as countStreamHandler } from '../stream/handler';
import { localLambdaContext } from './lambda-context';
import { LocalStreamReader } from './stream-reader';

export const DEV_ACCOUNT = 'local-dev';

export interface LocalRuntimeOptions {
  port: number;
  host?: string;
  /** Folder for DynamoDB Local's files and the generated dev keys; omitted = in memory. */
  dataDir?: string;
  /** An already running DynamoDB (Local or real); nothing is started then. */
  dynamoEndpoint?: string;
  dynamoPort?: number;
  tableName: string;
  devKeys: Partial<Record<KeyLevel, string>>;
  /** Run the stream consumer on the table's stream (default true; benchmarks of the API alone turn it off). */
  consumeStream?: boolean;
}

export interface LocalRuntime {
  baseUrl: string;
  streamReader?: LocalStreamReader;
  dynamoEndpoint: string;
  keys: Record<KeyLevel, string>;
  stop(): Promise<void>;
}

/**
 * The dev account's admin and viewer keys: fixed values from the environment when given,
 * otherwise generated once and kept next to the local data so restarts reuse them.
 */
async function ensureDevKeys(wanted: Partial<Record<KeyLevel, string>>, dataDir: string | undefined): Promise<Record<KeyLevel, string>> {
  const { store } = defaultStore();
  const now = new Date();
  const account = await ensureAccount(store, DEV_ACCOUNT, now);
  const keyFile = dataDir ? join(dataDir, 'dev-keys.json') : undefined;
  const saved: Partial<Record<KeyLevel, string>> = keyFile && existsSync(keyFile) ? JSON.parse(readFileSync(keyFile, 'utf8')) : {};
  const keys = {} as Record<KeyLevel, string>;
  for (const level of ['admin', 'viewer'] as const) {
    const candidate = wanted[level] ?? saved[level];
    const existing = candidate ? await findApiKey(store, candidate) : null;
    if (candidate && existing && existing.accountId === account.id && existing.level === level) {
      keys[level] = candidate;
    } else {
      const issued = await issueApiKey(store, { accountId: account.id, level, label: `local ${level}`, key: candidate }, now);
      keys[level] = issued.key;
    }
  }
  if (keyFile) writeFileSync(keyFile, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  return keys;
}

/** The stream consumer's Lambda handler, fed from DynamoDB Local's stream as the event source mapping would. */
export function startStreamReader(client: DynamoDBClient, tableName: string, dataDir?: string): LocalStreamReader {
  const reader = new LocalStreamReader({
    client,
    tableName,
    positionFile: dataDir ? join(dataDir, 'stream-position.json') : undefined,
    handle: (event) => countStreamHandler(event, localLambdaContext('local-stream-consumer')),
  });
  reader.start();
  return reader;
}

/** `npm start`: DynamoDB Local (unless an endpoint is given), the table, dev keys and the HTTP server. */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  let dynamo: DynamoDbLocal | undefined;
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const dynamoEndpoint =
    options.dynamoEndpoint ??
    (dynamo = await startDynamoDbLocal({
      port: options.dynamoPort,
      dbPath: options.dataDir ? join(options.dataDir, 'dynamodb') : undefined,
    })).endpoint;
  process.env.DYNAMODB_ENDPOINT = dynamoEndpoint;
  process.env.TABLE_NAME = options.tableName;
  try {
    const { client, settings } = defaultStore();
    await ensureTable(client, settings.tableName);
    const keys = await ensureDevKeys(options.devKeys, options.dataDir);
    const streamReader = options.consumeStream === false ? undefined : startStreamReader(client, settings.tableName, options.dataDir);
    const server = createApiServer();
    await new Promise<void>((listening, failed) => {
      server.once('error', failed);
      server.listen(options.port, options.host ?? '127.0.0.1', () => listening());
    });
    const { port } = server.address() as AddressInfo;
    const host = options.host && options.host !== '0.0.0.0' ? options.host : 'localhost';
    return {
      baseUrl: `http://${host}:${port}${BASE_PATH}`,
      streamReader,
      dynamoEndpoint,
      keys,
      stop: async () => {
        await new Promise<void>((closed) => {
          server.close(() => closed());
          server.closeIdleConnections();
        });
        await streamReader?.stop();
        await dynamo?.stop();
      },
    };
  } catch (error) {
    await dynamo?.stop();
    throw error;
  }
}
