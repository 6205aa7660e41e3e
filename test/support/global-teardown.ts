import * as fs from 'node:fs';
import type { DynamoDbLocal } from '../../local/dynamodb-local';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamoLocal__?: DynamoDbLocal }).__dynamoLocal__?.stop();
  if (process.env.TEST_RUN_DIR) fs.rmSync(process.env.TEST_RUN_DIR, { recursive: true, force: true });
}
