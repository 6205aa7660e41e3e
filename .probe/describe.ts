import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DynamoDBClient, BatchWriteItemCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, DescribeStreamCommand, GetShardIteratorCommand, GetRecordsCommand } from '@aws-sdk/client-dynamodb-streams';
import { startDynamoDbLocal } from '/work/wt-suite/functions/local/dynamodb-local';
import { ensureTable } from '/work/wt-suite/functions/store/setup';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
async function main() {
  const dl = await startDynamoDbLocal();
  const javaPid = Number(execSync(`pgrep -P ${dl.pid}`).toString().trim().split('\n')[0]);
  const cfg = { endpoint: dl.endpoint, region: 'local', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } };
  const client = new DynamoDBClient(cfg); const streams = new DynamoDBStreamsClient(cfg);
  await ensureTable(client, 'tbl_x');
  const arn = (await client.send(new DescribeTableCommand({ TableName: 'tbl_x' }))).Table!.LatestStreamArn!;
  const phase = async (name: string, n: number, f: (i: number) => Promise<unknown>) => {
    const c0 = cpu(javaPid), w0 = Date.now();
    for (let i = 0; i < n; i++) await f(i);
    console.log(`${name.padEnd(40)} wall/op ${((Date.now() - w0) / n).toFixed(1)} ms  jvm cpu/op ${((cpu(javaPid) - c0) / n).toFixed(1)} ms`);
  };
  let written = 0;
  for (const size of [0, 500, 2000, 5000]) {
    while (written < size) {
      await client.send(new BatchWriteItemCommand({ RequestItems: { tbl_x: Array.from({ length: 25 }, (_, j) => ({ PutRequest: { Item: { pk: { S: `p${written + j}` }, sk: { S: 's' }, gsi1pk: { S: 'g' }, gsi1sk: { S: `x${written + j}` }, data: { S: 'x'.repeat(300) } } } })) } }));
      written += 25;
    }
    await phase(`describeTable @${size} items`, 30, () => client.send(new DescribeTableCommand({ TableName: 'tbl_x' })));
    await phase(`describeStream @${size} items`, 30, () => streams.send(new DescribeStreamCommand({ StreamArn: arn })));
    const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription!.Shards!;
    const it = (await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: shards.at(-1)!.ShardId!, ShardIteratorType: 'LATEST' }))).ShardIterator!;
    let iter = it;
    await phase(`getRecords (empty, LATEST) @${size}`, 30, async () => { const r = await streams.send(new GetRecordsCommand({ ShardIterator: iter })); iter = r.NextShardIterator!; });
    console.log('  shards', shards.length);
  }
  await dl.stop();
}
main();
