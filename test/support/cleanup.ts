import { DeleteTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * After each test file: drop the file's tables (its own and any it derived from the name),
 * so the one DynamoDB Local of the run does not slow down under hundreds of tables.
 */
afterAll(async () => {
  const prefix = process.env.TABLE_NAME;
  if (!prefix || !process.env.DYNAMODB_ENDPOINT) return;
  const client = new DynamoDBClient({
    endpoint: process.env.DYNAMODB_ENDPOINT,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    let start: string | undefined;
    const names: string[] = [];
    do {
      const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
      names.push(...(page.TableNames ?? []).filter((name) => name.startsWith(prefix)));
      start = page.LastEvaluatedTableName;
    } while (start);
    await Promise.all(names.map((name) => client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined)));
  } finally {
    client.destroy();
  }
});
