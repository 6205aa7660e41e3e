import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * The CPU this file's worker spent on it (user + system, in seconds), appended to the run's
 * folder for the times reporter (test/support/times-reporter.js): wall times depend on what
 * else the machine does, CPU much less, so this is the figure to compare between runs when
 * looking for what makes the suite slow. Child processes a file starts (a browser, a
 * spawned server) and DynamoDB Local are not in it.
 */
const cpuAtStart = process.cpuUsage();
afterAll(() => {
  const runDir = process.env.TEST_RUN_DIR;
  if (!runDir) return;
  const used = process.cpuUsage(cpuAtStart);
  const line = JSON.stringify({ file: expect.getState().testPath, cpuSeconds: (used.user + used.system) / 1e6 });
  appendFileSync(join(runDir, 'worker-cpu.ndjson'), `${line}\n`);
});

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
