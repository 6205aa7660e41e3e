import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { startDynamoDbLocal } from '/work/wt-suite/functions/local/dynamodb-local';
(async () => {
  const dl = await startDynamoDbLocal();
  const javaPid = Number(execSync(`pgrep -P ${dl.pid}`).toString().trim().split('\n')[0]);
  writeFileSync('/tmp/suite-probe/ddb.json', JSON.stringify({ endpoint: dl.endpoint, javaPid }));
  console.log(dl.endpoint, javaPid);
  process.stdin.resume();
})();
