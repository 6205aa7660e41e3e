import * as fs from 'node:fs';
import * as path from 'node:path';
import { startDynamoDbLocal } from '../../local/dynamodb-local';
import { REPO_ROOT } from '../../lib/paths';

/**
 * One DynamoDB Local (in memory) for the whole run, shared by the jest workers: each test
 * file works in a database of its own (see env.ts), so files run in parallel without seeing
 * or slowing each other. And the run's folder (TEST_RUN_DIR, in the git-ignored .tmp/) for
 * what files share, such as the synthesized app (shared-assembly.ts).
 */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  fs.mkdirSync(path.join(REPO_ROOT, '.tmp'), { recursive: true });
  process.env.TEST_RUN_DIR = fs.mkdtempSync(path.join(REPO_ROOT, '.tmp', 'test-run-'));
  // The full JIT: this instance answers the whole run (about 11 minutes on 2 cores), long
  // enough for the optimizing compiler to repay itself. Two full runs of `npm test` on the
  // quiet machine, 2026-12-07: DynamoDB Local took 192 CPU s with the quick JIT, 155 with
  // the full one (`npm run test:times` prints it).
  const dynamo = await startDynamoDbLocal({ jit: 'full' });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  // For the times reporter, which reports its CPU (test/support/times-reporter.js).
  fs.writeFileSync(path.join(process.env.TEST_RUN_DIR, 'dynamodb-local.pid'), `${dynamo.pid}\n`);
  (globalThis as { __dynamoLocal__?: typeof dynamo }).__dynamoLocal__ = dynamo;
}
