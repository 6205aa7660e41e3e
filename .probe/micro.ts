import { readFileSync } from 'node:fs';
import { DynamoDBClient, TransactWriteItemsCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '/work/wt-suite/functions/store/setup';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
(async () => {
  const { endpoint, javaPid } = JSON.parse(readFileSync('/tmp/suite-probe/ddb.json', 'utf8'));
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const T = `micro_${Date.now()}`;
  await ensureTable(client, T);
  const phase = async (name: string, n: number, f: (i: number) => Promise<unknown>) => {
    const c0 = cpu(javaPid), w0 = Date.now();
    for (let i = 0; i < n; i++) await f(i);
    console.log(`${name.padEnd(28)} wall/op ${((Date.now() - w0) / n).toFixed(1)} ms  jvm cpu/op ${((cpu(javaPid) - c0) / n).toFixed(1)} ms`);
  };
  await phase('transact 10 upd', 60, (i) => client.send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: 10 }, (_, j) => ({ Update: { TableName: T, Key: { pk: { S: `q${j}` }, sk: { S: `s${i % 5}` } }, UpdateExpression: 'ADD #c :one SET rank1pk = :r', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':one': { N: '1' }, ':r': { S: 'r' } } } })) })));
  await phase('describeTable', 30, () => client.send(new DescribeTableCommand({ TableName: T })));
  await client.send(new DeleteTableCommand({ TableName: T }));
})();
