import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DynamoDBClient, PutItemCommand, GetItemCommand, TransactWriteItemsCommand, UpdateItemCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, DescribeStreamCommand } from '@aws-sdk/client-dynamodb-streams';
import { startDynamoDbLocal } from '/work/wt-suite/functions/local/dynamodb-local';
import { ensureTable } from '/work/wt-suite/functions/store/setup';

const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
async function main() {
  const t0 = Date.now();
  const dl = await startDynamoDbLocal();
  const javaPid = Number(execSync(`pgrep -P ${dl.pid}`).toString().trim().split('\n')[0]);
  console.log('start', Date.now() - t0, 'ms; jvm cpu', cpu(javaPid));
  const client = new DynamoDBClient({ endpoint: dl.endpoint, region: 'local', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  const phase = async (name: string, n: number, f: (i: number) => Promise<unknown>) => {
    const c0 = cpu(javaPid), n0 = process.cpuUsage(), w0 = Date.now();
    for (let i = 0; i < n; i++) await f(i);
    const w = Date.now() - w0, c = cpu(javaPid) - c0, nc = process.cpuUsage(n0);
    console.log(`${name.padEnd(28)} n=${n} wall/op ${(w / n).toFixed(1)} ms  jvm cpu/op ${(c / n).toFixed(1)} ms  node cpu/op ${((nc.user + nc.system) / 1000 / n).toFixed(1)} ms`);
  };
  const T = (i: number) => `tbl_${i}`;
  await phase('createTable (8 GSI, stream)', 5, (i) => ensureTable(client, T(i)));
  const item = (i: number, j = 0) => ({ pk: { S: `p${i % 10}` }, sk: { S: `s${i}-${j}` }, gsi1pk: { S: 'g' }, gsi1sk: { S: `x${i}` }, rank1pk: { S: 'r' }, count: { N: String(i) }, data: { S: 'x'.repeat(200) } });
  for (const round of [1, 2]) {
    await phase(`put r${round}`, 100, (i) => client.send(new PutItemCommand({ TableName: T(0), Item: item(i) })));
    await phase(`get r${round}`, 100, (i) => client.send(new GetItemCommand({ TableName: T(0), Key: { pk: { S: `p${i % 10}` }, sk: { S: `s${i}-0` } } })));
    await phase(`update add r${round}`, 100, (i) => client.send(new UpdateItemCommand({ TableName: T(0), Key: { pk: { S: `p${i % 10}` }, sk: { S: `s${i}-0` } }, UpdateExpression: 'ADD #c :one', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':one': { N: '1' } } })));
    await phase(`transact 4 r${round}`, 100, (i) => client.send(new TransactWriteItemsCommand({ TransactItems: [0, 1, 2, 3].map((j) => ({ Put: { TableName: T(0), Item: item(i, j + round * 10) } })) })));
    await phase(`transact 10 upd r${round}`, 50, (i) => client.send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: 10 }, (_, j) => ({ Update: { TableName: T(0), Key: { pk: { S: `q${j}` }, sk: { S: `s${i % 5}` } }, UpdateExpression: 'ADD #c :one SET rank1pk = :r', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':one': { N: '1' }, ':r': { S: 'r' } } } })) })));
  }
  const streams = new DynamoDBStreamsClient({ endpoint: dl.endpoint, region: 'local', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  const { DescribeTableCommand } = await import('@aws-sdk/client-dynamodb');
  const arn = (await client.send(new DescribeTableCommand({ TableName: T(0) }))).Table!.LatestStreamArn!;
  await phase('describeTable', 50, () => client.send(new DescribeTableCommand({ TableName: T(0) })));
  await phase('describeStream', 50, () => streams.send(new DescribeStreamCommand({ StreamArn: arn })));
  // concurrency: 2 tables in parallel
  for (const width of [1, 2, 4]) {
    const c0 = cpu(javaPid), w0 = Date.now();
    await Promise.all(Array.from({ length: width }, async (_, k) => { for (let i = 0; i < 40; i++) await client.send(new TransactWriteItemsCommand({ TransactItems: [0, 1, 2, 3].map((j) => ({ Put: { TableName: T(k + 1), Item: item(i, j) } })) })); }));
    const w = Date.now() - w0;
    console.log(`parallel width ${width}: ${width * 40} txs in ${w} ms => ${(w / (width * 40)).toFixed(1)} ms/tx throughput; jvm cpu ${cpu(javaPid) - c0} ms`);
  }
  await phase('deleteTable', 5, (i) => client.send(new DeleteTableCommand({ TableName: T(i) })));
  await dl.stop();
}
main();
