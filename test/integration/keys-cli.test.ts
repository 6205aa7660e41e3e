import { execFile } from 'node:child_process';
import { hashSecret } from '../../functions/api/auth';
import { defaultStore } from '../../functions/store/entity-store';
import { startTestApi, type TestApi } from '../support/api';
import { cliBundle } from '../support/cli-bundle';

/**
 * bin/keys.ts as a user runs it: a child process on this file's table (DYNAMODB_ENDPOINT
 * and TABLE_NAME come from the jest setup), checked against the API of the same table.
 */

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function keys(...args: string[]): Promise<Run> {
  // The CLI's code as `npm run keys` runs it, bundled once per run (cli-bundle.ts), without npx's and tsx's start-up on every call.
  const bundle = await cliBundle('bin/keys.ts');
  return new Promise((done) => {
    execFile(
      process.execPath,
      [bundle, ...args],
      {
        cwd: `${__dirname}/../..`,
        env: {
          ...process.env,
          DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
          TABLE_NAME: process.env.TABLE_NAME,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
        timeout: 60000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** stderr without npm's own notices (e.g. about user config), which are not the CLI's. */
function cliErrors(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
}

const TIMEOUT = 120000;
let api: TestApi;
const account = `cli-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  // Answers only: nothing here reads what the stream consumers make of the writes.
  api = await startTestApi({ stream: false });
});
afterAll(() => api.close());

describe('npm run keys', () => {
  it(
    'creates a key that works, lists it without its secret, revokes it so it gets 401',
    async () => {
      const created = await keys('create', '--account', account, '--level', 'viewer', '--label', 'cli test', '--json');
      expect(cliErrors(created.stderr)).toEqual([]);
      expect(created.code).toBe(0);
      const issued = JSON.parse(created.stdout);
      expect(issued).toEqual({
        key: expect.stringMatching(/^fbk_[A-Za-z0-9_-]{32}$/),
        id: expect.any(String),
        accountId: expect.any(String),
        accountName: account,
        level: 'viewer',
        label: 'cli test',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });

      const lookup = await api.call('projects/lookup', [''], { key: issued.key });
      expect([lookup.status, lookup.body]).toEqual([200, []]);
      // A viewer key cannot do admin work.
      expect((await api.call('projects/create', [{ name: 'No' }], { key: issued.key })).status).toBe(403);

      // The same account again: a second key, same account id; the text output shows the key once.
      const second = await keys('create', '--account', account, '--level', 'admin');
      expect(second.code).toBe(0);
      const secondKey = /^\s+(fbk_\S+)$/m.exec(second.stdout)?.[1];
      expect(secondKey).toBeDefined();
      expect(second.stdout).toContain(issued.accountId);
      expect((await api.call('projects/create', [{ name: 'Yes' }], { key: secondKey })).status).toBe(200);

      const listed = await keys('list', '--account', account, '--json');
      expect(listed.code).toBe(0);
      const entries = JSON.parse(listed.stdout);
      expect(entries).toHaveLength(2);
      expect(entries[0]).toEqual({
        id: issued.id,
        accountId: issued.accountId,
        accountName: account,
        level: 'viewer',
        label: 'cli test',
        createdAt: issued.createdAt,
        status: 'active',
        revokedAt: null,
      });
      const table = await keys('list');
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(new RegExp(`^${issued.id}\\s+${account}\\s+${issued.accountId}\\s+viewer\\s+cli test\\s+\\S+\\s+active$`, 'm'));
      for (const output of [listed.stdout, table.stdout]) {
        for (const secret of [issued.key, secondKey!, hashSecret(issued.key), hashSecret(secondKey!)]) {
          expect(output).not.toContain(secret);
        }
      }

      const revoked = await keys('revoke', issued.id);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toContain(`Revoked key ${issued.id}`);
      const refused = await api.call('projects/lookup', [''], { key: issued.key });
      expect([refused.status, refused.body.error]).toEqual([401, 'unauthorized']);
      // The other key of the account still works.
      expect((await api.call('projects/lookup', [''], { key: secondKey })).status).toBe(200);

      const after = JSON.parse((await keys('list', '--account', account, '--json')).stdout);
      expect(after.find((entry: { id: string }) => entry.id === issued.id)).toMatchObject({
        status: 'revoked',
        revokedAt: expect.stringMatching(/^\d{4}-/),
      });
    },
    TIMEOUT,
  );

  it(
    'revokes a key whose id starts with "-" (one in 64 does), with or without "--"',
    async () => {
      const { store } = defaultStore();
      const accountId = `acct${Math.random().toString(36).slice(2)}`;
      for (const id of ['-dashfirst01', '-dashfirst02']) {
        await store.entities.ApiKey.create({ keyHash: hashSecret(`fbk_${id}`), id, accountId, level: 'viewer', createdAt: 't', updatedAt: 't' }).go();
      }
      const plain = await keys('revoke', '-dashfirst01', '--json');
      expect([plain.code, cliErrors(plain.stderr)]).toEqual([0, []]);
      expect(JSON.parse(plain.stdout)).toMatchObject({ id: '-dashfirst01', status: 'revoked', alreadyRevoked: false });
      const separated = await keys('revoke', '--', '-dashfirst02');
      expect([separated.code, cliErrors(separated.stderr)]).toEqual([0, []]);
      expect(separated.stdout).toContain('Revoked key -dashfirst02');
    },
    TIMEOUT,
  );

  it(
    'fails with exit code 1 and one line on stderr for an unknown key id',
    async () => {
      const run = await keys('revoke', 'no-such-key');
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      const lines = cliErrors(run.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^keys: No API key with id "no-such-key"/);
    },
    TIMEOUT,
  );

  it(
    'refuses wrong usage with exit code 2',
    async () => {
      const run = await keys('create', '--account', account, '--level', 'root');
      expect(run.code).toBe(2);
      expect(cliErrors(run.stderr)).toEqual([expect.stringContaining('--level must be admin or viewer')]);
      expect((await keys('list', '--account', `${account}-missing`)).code).toBe(1);
    },
    TIMEOUT,
  );
});

describe('the CLI in the audit log', () => {
  it(
    'create, revoke and add-owner write entries naming the key CLI; revoke takes the keys the revoked key created with it',
    async () => {
      const name = `${account}-audited`;
      const admin = JSON.parse((await keys('create', '--account', name, '--level', 'admin', '--label', 'ops', '--json')).stdout);
      const doomed = JSON.parse((await keys('create', '--account', name, '--level', 'admin', '--json')).stdout);
      const child = await api.call('keys/create', [{ level: 'viewer', label: 'made by a key' }], { key: doomed.key });
      expect(child.status).toBe(200);
      const listed = (await api.call('keys/list', [], { key: admin.key })).body.items;
      expect(listed.find((key: { id: string }) => key.id === admin.id).createdBy).toEqual({ type: 'operator', name: 'key CLI' });

      const revoked = await keys('revoke', doomed.id, '--json');
      expect([revoked.code, cliErrors(revoked.stderr)]).toEqual([0, []]);
      expect(JSON.parse(revoked.stdout)).toMatchObject({ id: doomed.id, status: 'revoked', alsoRevoked: [child.body.id] });
      expect((await api.call('projects/lookup', [''], { key: child.body.key })).status).toBe(401);

      const invited = await keys('add-owner', '--account', admin.accountId, '--email', 'ada@example.com', '--json');
      expect(invited.code).toBe(0);
      const { invitationId } = JSON.parse(invited.stdout);

      const entries = (await api.call('audit/list', [], { key: admin.key })).body.items;
      const operator = { type: 'operator', name: 'key CLI' };
      const cli = entries.filter((entry: { actor: { type: string } }) => entry.actor.type === 'operator');
      expect(cli.map(({ operation, targetIds, actor, outcome }: Record<string, unknown>) => ({ operation, targetIds, actor, outcome }))).toEqual([
        { operation: 'members/invite', targetIds: [invitationId], actor: operator, outcome: 'ok' },
        { operation: 'keys/revoke', targetIds: [doomed.id, child.body.id], actor: operator, outcome: 'ok' },
        { operation: 'keys/create', targetIds: [doomed.id], actor: operator, outcome: 'ok' },
        { operation: 'keys/create', targetIds: [admin.id], actor: operator, outcome: 'ok' },
      ]);
      expect(cli.every((entry: { sourceIp?: string }) => entry.sourceIp === undefined)).toBe(true);
      expect(JSON.stringify(entries)).not.toContain(doomed.key);
    },
    TIMEOUT,
  );
});

describe('keys add-owner', () => {
  it(
    'prints a single-use owner invitation to the account (by id or name) on the given console; refuses an unknown account and a bad email',
    async () => {
      const { store } = defaultStore();
      const created = await store.entities.Account.create({
        id: `acct${Math.random().toString(36).slice(2)}`,
        name: `${account}-owners`,
        createdAt: 't',
        updatedAt: 't',
      }).go();
      const run = await keys('add-owner', '--account', created.data.id, '--email', 'ada@example.com', '--console-url', 'https://console.example/', '--json');
      expect([run.code, cliErrors(run.stderr)]).toEqual([0, []]);
      const printed = JSON.parse(run.stdout);
      expect(printed).toMatchObject({
        accountId: created.data.id,
        email: 'ada@example.com',
        role: 'owner',
        url: expect.stringMatching(/^https:\/\/console\.example\/invitations#fbi_/),
      });
      const { data } = await store.entities.Invitation.get({ tokenHash: hashSecret(printed.url.split('#')[1]) }).go();
      expect(data).toMatchObject({ accountId: created.data.id, role: 'owner', email: 'ada@example.com', invitedBy: 'cli' });

      const byName = await keys('add-owner', '--account', `${account}-owners`, '--email', 'bob@example.com');
      expect(byName.code).toBe(0);
      expect(byName.stdout).toMatch(/http:\/\/localhost:3000\/invitations#fbi_/);
      expect((await keys('add-owner', '--account', 'no-such-account', '--email', 'a@example.com')).code).toBe(1);
      expect((await keys('add-owner', '--account', created.data.id, '--email', 'nobody')).code).toBe(2);
    },
    TIMEOUT,
  );
});
