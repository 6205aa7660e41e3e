import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DynamoDBClient, TransactWriteItemsCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '/work/wt-suite/functions/store/setup';
import { freePort } from '/work/wt-suite/functions/local/dynamodb-local';
const HOME = '/work/wt-suite/.dynamodb-local';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
async function run(label: string, flags: string[]) {
  const port = await freePort();
  const t0 = Date.now();
  const java = spawn('java', [...flags, '-Djava.io.tmpdir=/tmp/feedback-dynamodb-local', `-Djava.library.path=${HOME}/DynamoDBLocal_lib`, '-jar', `${HOME}/DynamoDBLocal.jar`, '-port', String(port), '-inMemory', '-disableTelemetry'], { stdio: 'ignore', cwd: '/tmp/feedback-dynamodb-local', env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' } });
  const endpoint = `http://127.0.0.1:${port}`;
  for (;;) { try { await fetch(endpoint, { method: 'POST' }); break; } catch { await new Promise((r) => setTimeout(r, 50)); } }
  const started = Date.now() - t0, startCpu = cpu(java.pid!);
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'flags', secretAccessKey: 'x' } });
  await ensureTable(client, 'tbl');
  const w0 = Date.now();
  const blocks: number[] = []; let c = cpu(java.pid!);
  for (let i = 0; i < 2400; i++) {
    if (i % 300 === 299) { const n = cpu(java.pid!); blocks.push(n - c); c = n; }
    await client.send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: 10 }, (_, j) => ({ Update: { TableName: 'tbl', Key: { pk: { S: `q${j}` }, sk: { S: `s${i % 7}` } }, UpdateExpression: 'ADD #c :one SET rank1pk = :r, gsi1pk = :r, gsi1sk = :k', ExpressionAttributeNames: { '#c': 'count' }, ExpressionAttributeValues: { ':one': { N: '1' }, ':r': { S: 'r' }, ':k': { S: `k${i}` } } } })) }));
    await client.send(new PutItemCommand({ TableName: 'tbl', Item: { pk: { S: `p${i}` }, sk: { S: 's' }, gsi2pk: { S: 'x' }, gsi2sk: { S: `y${i}` }, data: { S: 'x'.repeat(500) } } }));
    await client.send(new QueryCommand({ TableName: 'tbl', IndexName: 'rank1', KeyConditionExpression: 'rank1pk = :r', ExpressionAttributeValues: { ':r': { S: 'r' } }, Limit: 10, ScanIndexForward: false }));
  }
  const work = Date.now() - w0, total = cpu(java.pid!);
  console.log(`${label.padEnd(40)} start ${String(started).padStart(5)} ms (${startCpu} ms cpu)  work ${String(work).padStart(6)} ms wall, jvm cpu total ${total} ms; per block of 300 iterations: ${blocks.join(' ')}; load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
  java.kill(); await new Promise((r) => java.once('exit', r));
}
(async () => {
  const configs: [string, string[]][] = [
    ['default', []],
    ['C1 only (TieredStopAtLevel=1)', ['-XX:TieredStopAtLevel=1']],
    ['SerialGC + C1 only', ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1']],
  ];
  for (const round of [1]) for (const [label, flags] of configs) await run(`r${round} ${label}`, flags);
})();
