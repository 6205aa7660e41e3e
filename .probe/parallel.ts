import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '/work/wt-suite/functions/local/dynamodb-local';
import { ensureTable } from '/work/wt-suite/functions/store/setup';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
(async () => {
  const dl = await startDynamoDbLocal();
  const javaPid = Number(execSync(`pgrep -P ${dl.pid}`).toString().trim().split('\n')[0]);
  let k = 0;
  const lane = async (n: number) => {
    const client = new DynamoDBClient({ endpoint: dl.endpoint, region: 'local', credentials: { accessKeyId: `lane${k++}`, secretAccessKey: 'x' } });
    await ensureTable(client, 'tbl');
    for (let i = 0; i < n; i++) await client.send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: 10 }, (_, j) => ({ Update: { TableName: 'tbl', Key: { pk: { S: `q${j}` }, sk: { S: `s${i % 5}` } }, UpdateExpression: 'ADD #c :one SET rank1pk = :r', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':one': { N: '1' }, ':r': { S: 'r' } } } })) }));
  };
  await lane(300); await lane(300);
  for (const round of [1, 2]) for (const width of [1, 2, 3]) {
    const c0 = cpu(javaPid), w0 = Date.now(), n0 = process.cpuUsage();
    await Promise.all(Array.from({ length: width }, () => lane(Math.round(240 / width))));
    const nc = process.cpuUsage(n0);
    console.log(`round ${round} width ${width}: 240 tx in ${Date.now() - w0} ms; jvm cpu ${cpu(javaPid) - c0} ms, node cpu ${Math.round((nc.user + nc.system) / 1000)} ms; load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
  }
  await dl.stop();
})();
