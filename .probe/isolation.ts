import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DynamoDBClient, TransactWriteItemsCommand, DeleteTableCommand, BatchWriteItemCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '/work/wt-suite/functions/local/dynamodb-local';
import { ensureTable } from '/work/wt-suite/functions/store/setup';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
(async () => {
  const dl = await startDynamoDbLocal();
  const javaPid = Number(execSync(`pgrep -P ${dl.pid}`).toString().trim().split('\n')[0]);
  const clientFor = (key: string, region = 'local') => new DynamoDBClient({ endpoint: dl.endpoint, region, credentials: { accessKeyId: key, secretAccessKey: 'local' } });
  const a = clientFor('filea'), b = clientFor('fileb'), c = clientFor('filea', 'other');
  await ensureTable(a, 'shared_name');
  console.log('a sees', (await a.send(new ListTablesCommand({}))).TableNames, 'b sees', (await b.send(new ListTablesCommand({}))).TableNames, 'a@other region sees', (await c.send(new ListTablesCommand({}))).TableNames);
  let k = 0;
  const micro = async (label: string, client: DynamoDBClient) => {
    const T = `micro_${k++}`;
    await ensureTable(client, T);
    const n = 40; const c0 = cpu(javaPid), w0 = Date.now();
    for (let i = 0; i < n; i++) await client.send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: 10 }, (_, j) => ({ Update: { TableName: T, Key: { pk: { S: `q${j}` }, sk: { S: `s${i % 5}` } }, UpdateExpression: 'ADD #c :one SET rank1pk = :r', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':one': { N: '1' }, ':r': { S: 'r' } } } })) }));
    console.log(`${label.padEnd(44)} tx10 wall/op ${((Date.now() - w0) / n).toFixed(1).padStart(6)} ms  jvm cpu/op ${((cpu(javaPid) - c0) / n).toFixed(1).padStart(6)} ms`);
    await client.send(new DeleteTableCommand({ TableName: T }));
  };
  for (let i = 0; i < 4; i++) await micro(`warm-up ${i} (db a)`, a);
  let written = 0;
  await ensureTable(a, 'big');
  for (let done = 0; done < 15000; done += 25) {
    await a.send(new BatchWriteItemCommand({ RequestItems: { big: Array.from({ length: 25 }, (_, j) => ({ PutRequest: { Item: { pk: { S: `p${written + j}` }, sk: { S: 's' }, data: { S: 'x'.repeat(100) } } } })) } }));
    written += 25;
  }
  await a.send(new DeleteTableCommand({ TableName: 'big' }));
  await micro('db a after 15k stream records', a);
  await micro('db b (other access key), same JVM', b);
  await micro('db b again', b);
  await micro('db a again', a);
  await dl.stop();
})();
