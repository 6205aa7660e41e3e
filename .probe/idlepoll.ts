import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '/work/wt-suite/functions/local/dynamodb-local';
import { ensureTable } from '/work/wt-suite/functions/store/setup';
import { LocalStreamReader } from '/work/wt-suite/functions/local/stream-reader';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
(async () => {
  const dl = await startDynamoDbLocal();
  const javaPid = Number(execSync(`pgrep -P ${dl.pid}`).toString().trim().split('\n')[0]);
  const client = new DynamoDBClient({ endpoint: dl.endpoint, region: 'local', credentials: { accessKeyId: 'idle', secretAccessKey: 'x' } });
  await ensureTable(client, 'tbl');
  for (let i = 0; i < 300; i++) await client.send(new PutItemCommand({ TableName: 'tbl', Item: { pk: { S: `p${i}` }, sk: { S: 's' } } }));
  let n = 0;
  const reader = new LocalStreamReader({ client, tableName: 'tbl', handle: async (e) => { n += e.Records.length; } });
  reader.start();
  await new Promise((r) => setTimeout(r, 15000)); // warm
  const c0 = cpu(javaPid), n0 = process.cpuUsage(), w0 = Date.now();
  await new Promise((r) => setTimeout(r, 20000));
  const nc = process.cpuUsage(n0);
  console.log(`idle poller over ${(Date.now() - w0) / 1000} s: jvm cpu ${cpu(javaPid) - c0} ms, node cpu ${Math.round((nc.user + nc.system) / 1000)} ms; records seen ${n}; load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
  await reader.stop();
  await dl.stop();
})();
