import type { DynamoDbLocal } from '../../functions/local/dynamodb-local';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamoLocal__?: DynamoDbLocal }).__dynamoLocal__?.stop();
}
