/**
 * `npm run digest -- --project <id> --mail` as an operator runs it: a child process on this
 * file's table (DYNAMODB_ENDPOINT and TABLE_NAME from the jest setup) with npm start's way of
 * mailing (.eml files in an outbox): it mails the project's digest now to the member who
 * follows it, says so, and with mail off refuses --mail with the reason.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDevOwner } from '../../local/runtime';
import { REPO_ROOT } from '../../lib/paths';
import { createAccount, startTestApi, type TestApi } from '../support/api';
import { cliBundle } from '../support/cli-bundle';

jest.setTimeout(120_000);

let api: TestApi;
let outbox: string;
let projectId: string;

async function digest(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const bundle = await cliBundle('bin/digest.ts');
  const childEnv: NodeJS.ProcessEnv = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env };
  for (const name of ['MAIL_FROM', 'SMTP_URL', 'MAIL_TRANSPORT']) if (!(name in env)) delete childEnv[name];
  return new Promise((done) => {
    execFile(process.execPath, [bundle, ...args], { cwd: REPO_ROOT, env: childEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  api = await startTestApi({ stream: false });
  outbox = mkdtempSync(join(REPO_ROOT, '.tmp/digest-cli-'));
  const account = await createAccount('digest-cli');
  // An owner (the digest on by default) whose provider verified ada@localhost.
  await ensureDevOwner(account.accountId, 'https://issuer.example', 'ada');
  projectId = (await api.call('projects/create', [{ name: 'Docs site' }], { key: account.admin })).body.id;
});
afterAll(async () => {
  await api.close();
  rmSync(outbox, { recursive: true, force: true });
});

test('--mail mails the digest now to the members who follow the project, one .eml each in the outbox', async () => {
  const run = await digest(
    {
      MAIL_FROM: 'Feedback <feedback@example.com>',
      CONSOLE_URL: 'http://localhost:3000',
      MAIL_OUTBOX_DIR: outbox,
      MAIL_TOKEN_KEY: Buffer.alloc(32, 3).toString('base64'),
    },
    '--project',
    projectId,
    '--mail',
  );
  expect(run).toMatchObject({ code: 0 });
  expect(run.stdout).toMatch(/^mail to ada@localhost: 0 responses · Docs site, week of \d+ \w+ -> .+\.eml$/m);
  expect(run.stdout).toMatch(/^1 digest mails sent\.$/m);
  const files = readdirSync(outbox).filter((name) => name.endsWith('.eml'));
  expect(files).toHaveLength(1);
  const raw = readFileSync(join(outbox, files[0]), 'utf8');
  expect(raw).toMatch(/^To: ada@localhost$/m);
  expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
});

test('with mail off, --mail fails with the reason and mails nothing', async () => {
  const before = readdirSync(outbox).length;
  const run = await digest({ CONSOLE_URL: 'http://localhost:3000', MAIL_OUTBOX_DIR: outbox }, '--project', projectId, '--mail');
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^digest: Mail is off: this deployment has no sender address/m);
  expect(readdirSync(outbox)).toHaveLength(before);
});
