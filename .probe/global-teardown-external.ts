import type { DynamoDbLocal } from '../functions/local/dynamodb-local';
import teardown from '../test/support/global-teardown';
export default async function t(): Promise<void> {
  if (process.env.PROBE_RUN_DIR) { await (globalThis as { __dynamoLocal__?: DynamoDbLocal }).__dynamoLocal__?.stop(); return; }
  if (!process.env.PROBE_ENDPOINT) await teardown();
}
