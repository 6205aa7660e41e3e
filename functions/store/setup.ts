import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  UpdateTableCommand,
  type DynamoDBClient,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { createTableInput } from './table';

/**
 * Creates the table (same definition as the CDK stack) unless it exists; used by the local
 * runtime and tests. An existing table (a `.data` folder from an earlier version) gets the
 * global secondary indexes added since, one at a time as DynamoDB requires, as the stack's
 * update does on AWS.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  let existing: TableDescription | undefined;
  try {
    existing = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  if (existing) return addMissingIndexes(client, tableName, existing);
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
}

async function addMissingIndexes(client: DynamoDBClient, tableName: string, table: TableDescription): Promise<void> {
  const wanted = createTableInput(tableName);
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    if (present.has(index.IndexName)) continue;
    const keys = new Set(index.KeySchema!.map((key) => key.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: wanted.AttributeDefinitions!.filter((definition) => keys.has(definition.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
      }),
    );
    for (let waited = 0; waited < 600; waited++) {
      const status = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.GlobalSecondaryIndexes?.find(
        (candidate) => candidate.IndexName === index.IndexName,
      )?.IndexStatus;
      if (status === 'ACTIVE') break;
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }
}
