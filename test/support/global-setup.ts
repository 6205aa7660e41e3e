import { startDynamoDbLocal } from '../../functions/local/dynamodb-local';

/**
 * One DynamoDB Local (in memory) for the whole run; each test file works in a table of
 * its own (see table.ts), so files can run in parallel without seeing each other.
 */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamo = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  (globalThis as { __dynamoLocal__?: typeof dynamo }).__dynamoLocal__ = dynamo;
}
