/**
 * `npm run bench:mail`: what mailing the weekly digest costs, counted (not timed) on an
 * in-memory DynamoDB Local started for the run.
 *
 *   npm run bench:mail
 *   npm run bench:mail -- --members 20 --write
 *
 * Two accounts, one project each: one with a single member, one with `--members` members
 * (owners: the digest on by default, at verified addresses). Each project's digest is mailed
 * as the weekly job does (functions/jobs/digest.ts `sendProjectDigest`, the same code as on
 * AWS, the transport writing .eml files), then mailed again (the repeat a second run or an
 * overlapping one makes: every mail already claimed). It reports DynamoDB requests and read
 * and write units by the published rules, mails and their bytes; per project (the run of the
 * one-member account less its member) and per member (the difference of the two runs, over
 * the members added). `--write` stores the figures in docs/bench-mail.json for `npm run cost`.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchOnDynamoDbLocal, markdownTable, positiveInteger } from './bench-lib';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'SILENT';

const TABLE_NAME = 'bench_mail';
const RESULTS = 'docs/bench-mail.json';

export interface MailRun {
  name: string;
  members: number;
  mails: number;
  bytes: number;
  requests: number;
  read: number;
  write: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { members: { type: 'string' }, write: { type: 'boolean', default: false } } });
  const members = positiveInteger('--members', values.members, 20);
  if (members < 2) throw new Error('--members must be at least 2');
  return benchOnDynamoDbLocal('Digest mails on the local runtime', TABLE_NAME, () => run(members, values.write ?? false));
}

async function run(members: number, write: boolean): Promise<string[]> {
  const { benchAccount } = await import('./bench-lib');
  const { ensureAccount } = await import('../functions/operations/api-keys');
  const { createProject } = await import('../functions/operations/projects');
  const { ensureDevOwner } = await import('../local/runtime');
  const { sendProjectDigest } = await import('../functions/jobs/digest');
  const { openMail } = await import('../functions/mail/mails');

  const now = new Date();
  const outbox = mkdtempSync(join(tmpdir(), 'bench-mail-'));
  process.env.MAIL_TOKEN_KEY = Buffer.alloc(32, 1).toString('base64');
  const env = { MAIL_FROM: 'Feedback <feedback@example.com>', CONSOLE_URL: 'https://console.example', MAIL_OUTBOX_DIR: outbox, MAIL_RATE_PER_SECOND: '1000' };
  const { store, meter, account: one, project: oneProject } = await benchAccount(TABLE_NAME, 'bench-mail-one', now);
  const many = await ensureAccount(store, 'bench-mail-many', now);
  const manyProject = await createProject(store, many.id, { name: 'Bench' }, now);

  // Owners whose provider verified their address: the digest on by default.
  const addMember = (accountId: string, name: string) => ensureDevOwner(accountId, 'https://issuer.example', name);
  await addMember(one.id, 'solo');
  for (let index = 0; index < members; index++) await addMember(many.id, `member-${index}`);

  const outboxBytes = () => readdirSync(outbox).reduce((sum, name) => sum + statSync(join(outbox, name)).size, 0);
  const measured = async (name: string, accountId: string, projectId: string, count: number): Promise<MailRun> => {
    const mail = openMail(store, { env, print: () => undefined })!;
    const bytesBefore = outboxBytes();
    const start = meter.snapshot();
    const sent = await sendProjectDigest(store, { accountId, projectId }, now, true, { webhooks: false, mail });
    const used = meter.since(start);
    mail.sender.close();
    const mails = sent?.mailed.filter((outcome) => outcome.state === 'sent').length ?? 0;
    return { name, members: count, mails, bytes: outboxBytes() - bytesBefore, requests: used.requests, read: used.estimated.read, write: used.estimated.write };
  };

  const runs: MailRun[] = [
    await measured('digest of a project, 1 member', one.id, oneProject.id, 1),
    await measured(`digest of a project, ${members} members`, many.id, manyProject.id, members),
    await measured(`the same again (all ${members} already mailed)`, many.id, manyProject.id, members),
  ];
  rmSync(outbox, { recursive: true, force: true });

  if (write) writeFileSync(RESULTS, `${JSON.stringify({ date: now.toISOString(), runs }, null, 2)}\n`);
  const [single, full] = runs;
  const perMember = (field: 'requests' | 'read' | 'write' | 'bytes') => (full[field] - single[field]) / (members - 1);
  const figure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));
  return [
    '## Mailing a project’s weekly digest, per run',
    '',
    markdownTable(
      ['run', 'members', 'mails', 'bytes', 'requests', 'RRU', 'WRU'],
      runs.map((entry) => [
        entry.name,
        String(entry.members),
        String(entry.mails),
        String(entry.bytes),
        String(entry.requests),
        figure(entry.read),
        figure(entry.write),
      ]),
      [false, true, true, true, true, true, true],
    ),
    '',
    `Per member: ${figure(perMember('requests'))} requests, ${figure(perMember('read'))} RRU, ${figure(perMember('write'))} WRU, 1 mail of ${figure(perMember('bytes'))} bytes. ` +
      `Per project (the one-member run less its member): ${figure(single.requests - perMember('requests'))} requests, ${figure(single.read - perMember('read'))} RRU, ${figure(single.write - perMember('write'))} WRU.`,
    ...(write ? ['', `Written to ${RESULTS}.`] : []),
  ];
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`bench:mail failed: ${(error as Error).stack ?? (error as Error).message}`);
    process.exit(1);
  },
);
