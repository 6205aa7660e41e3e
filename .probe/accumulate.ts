import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DynamoDBClient, TransactWriteItemsCommand, DeleteTableCommand, BatchWriteItemCommand, PutItemCommand, CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '/work/wt-suite/functions/local/dynamodb-local';
import { ensureTable } from '/work/wt-suite/functions/store/setup';
import { createTableInput } from '/work/wt-suite/functions/store/table';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
(async () => {
  const dl = await startDynamoDbLocal();
  const javaPid = Number(execSync(`pgrep -P ${dl.pid}`).toString().trim().split('\n')[0]);
  const client = new DynamoDBClient({ endpoint: dl.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  let k = 0;
  const micro = async (label: string, stream = true) => {
    const T = `micro_${k++}`;
    if (stream) await ensureTable(client, T); else await client.send(new CreateTableCommand({ ...createTableInput(T), StreamSpecification: undefined }));
    for (const kind of ['tx10', 'put']) {
      const n = kind === 'tx10' ? 40 : 100;
      const c0 = cpu(javaPid), w0 = Date.now();
      for (let i = 0; i < n; i++) {
        if (kind === 'tx10') await client.send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: 10 }, (_, j) => ({ Update: { TableName: T, Key: { pk: { S: `q${j}` }, sk: { S: `s${i % 5}` } }, UpdateExpression: 'ADD #c :one SET rank1pk = :r', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':one': { N: '1' }, ':r': { S: 'r' } } } })) }));
        else await client.send(new PutItemCommand({ TableName: T, Item: { pk: { S: `p${i}` }, sk: { S: 's' }, data: { S: 'x' } } }));
      }
      process.stdout.write(`${label.padEnd(44)} ${kind.padEnd(5)} wall/op ${((Date.now() - w0) / n).toFixed(1).padStart(6)} ms  jvm cpu/op ${((cpu(javaPid) - c0) / n).toFixed(1).padStart(6)} ms\n`);
    }
    await client.send(new DeleteTableCommand({ TableName: T }));
  };
  for (let i = 0; i < 4; i++) await micro(`warm-up ${i}`);
  let written = 0;
  const fill = async (table: string, count: number, viaTx: boolean) => {
    for (let done = 0; done < count; ) {
      if (viaTx) { await client.send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: 25 }, (_, j) => ({ Put: { TableName: table, Item: { pk: { S: `p${written + j}` }, sk: { S: 's' }, data: { S: 'x'.repeat(100) } } } })) })); }
      else await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: Array.from({ length: 25 }, (_, j) => ({ PutRequest: { Item: { pk: { S: `p${written + j}` }, sk: { S: 's' }, data: { S: 'x'.repeat(100) } } } })) } }));
      written += 25; done += 25;
    }
  };
  await ensureTable(client, 'big_a');
  await fill('big_a', 10000, false);
  await micro('after 10k batch writes (stream table kept)');
  await client.send(new DeleteTableCommand({ TableName: 'big_a' }));
  await micro('after deleting that table');
  await micro('after deleting, table without stream', false);
  await ensureTable(client, 'big_b');
  await fill('big_b', 10000, true);
  await client.send(new DeleteTableCommand({ TableName: 'big_b' }));
  await micro('after +400 tx of 25 (deleted)');
  await micro('   same, table without stream', false);
  await dl.stop();
})();
