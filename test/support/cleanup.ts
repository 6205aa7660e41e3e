import { DeleteTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * After each test file: drop the file's tables (its own and any it derived from the name)
 * in the file's database (see env.ts), so that DynamoDB Local's memory does not keep them.
 */
afterAll(async () => {
  const prefix = process.env.TABLE_NAME;
  if (!prefix || !process.env.DYNAMODB_ENDPOINT) return;
  const client = new DynamoDBClient({
    endpoint: process.env.DYNAMODB_ENDPOINT,
    region: 'local',
    credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'local', secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'local' },
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
