/**
 * The audit log end to end: every operation the registry audits (isAudited), called through
 * the local server, writes exactly one entry naming its actor, operation and target ids,
 * and none of the secrets or values of the call; refused keyed calls write one with their
 * error code; unauthenticated, anonymous and read-only calls write none. audit/list pages
 * newest first with its filters; audit/export writes the same entries as CSV and NDJSON.
 */
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PutCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { handleApiEvent } from '../../functions/api/adapter';
import { isAudited, operationPath } from '../../functions/api/operation';
import { operationList, type OperationName } from '../../functions/api/registry';
import { AUDIT_RETENTION_SECONDS, type AuditEntry } from '../../functions/domain/audit';
import { operation as projectsCreate } from '../../functions/handlers/projects/create';
import { ensureAccount, issueApiKey } from '../../functions/operations/api-keys';
import { exportAuditEntries } from '../../functions/operations/audit-log';
import { acceptInvitation, createInvitation } from '../../functions/operations/members';
import { auditPartition } from '../../functions/store/audit';
import { defaultStore } from '../../functions/store/entity-store';
import { TABLE_KEYS } from '../../functions/store/table';
import { createContentSet, expectError, pause, startTestApi, type TestApi } from '../support/api';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer';

jest.setTimeout(60_000);

const { store, documentClient, settings } = defaultStore();
const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
/** Nothing listens on port 9 (discard): a test delivery fails at once and stays on this machine. */
const hookUrl = (secret: string) => `http://127.0.0.1:9/hook?token=${secret}`;
const unique = (what: string) => `${what}-${Math.random().toString(36).slice(2, 10)}`;

let api: TestApi;
let idp: TestIssuer;
let outbox: string;
beforeAll(async () => {
  // People sign in through this issuer: the members/* scenarios need a person.
  idp = await startTestIssuer();
  process.env.OIDC_ISSUER = idp.issuer;
  process.env.OIDC_CLIENT_ID = idp.clientId;
  // Where invitation links point (the test calls send no Origin).
  process.env.CONSOLE_URL = 'http://localhost:3000';
  // members/sendDigest mails: to .eml files in a directory of this run, not to anyone.
  outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-outbox-'));
  process.env.MAIL_FROM = 'Feedback <feedback@example.com>';
  process.env.MAIL_OUTBOX_DIR = outbox;
  process.env.MAIL_RATE_PER_SECOND = '50';
  process.env.MAIL_TOKEN_KEY = Buffer.alloc(32, 7).toString('base64');
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
  await idp.close();
  fs.rmSync(outbox, { recursive: true, force: true });
});

interface Account {
  accountId: string;
  admin: string;
  adminKeyId: string;
  adminLabel: string;
  viewer: string;
  viewerKeyId: string;
}

/** A fresh account with a labelled admin key and a viewer key: its audit partition is its own. */
async function account(): Promise<Account> {
  const now = new Date();
  const created = await ensureAccount(store, unique('audit'), now);
  const adminLabel = unique('auditor');
  const admin = await issueApiKey(store, { accountId: created.id, level: 'admin', label: adminLabel }, now);
  const viewer = await issueApiKey(store, { accountId: created.id, level: 'viewer' }, now);
  return { accountId: created.id, admin: admin.key, adminKeyId: admin.record.id, adminLabel, viewer: viewer.key, viewerKeyId: viewer.record.id };
}

async function ok<T = any>(a: Account, path: string, args: unknown[], key = a.admin): Promise<T> {
  const answer = await api.call<T>(path, args, { key });
  if (answer.status !== 200 && answer.status !== 204) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Every stored audit item of the account, newest first, as stored (keys and TTL included). */
async function storedItems(accountId: string): Promise<Record<string, any>[]> {
  const { Items } = await documentClient.send(
    new QueryCommand({
      TableName: settings.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': auditPartition(accountId) },
      ScanIndexForward: false,
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
}

/** How many audit items the whole table holds (refusals without an actor must add none anywhere). */
async function auditItemCount(): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: settings.tableName,
        FilterExpression: 'begins_with(pk, :audit)',
        ExpressionAttributeValues: { ':audit': 'audit#' },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

async function listAll(a: Account, query: Record<string, unknown> = {}): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await ok(a, 'audit/list', [{ ...query, ...(cursor ? { cursor } : {}) }]);
    entries.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return entries;
}

/** What one successful call of an audited operation needs, and what its entry must (and must not) say. */
interface Scenario {
  /** Runs the call (after any setup it needs, which may write entries of other operations); `actor` when it is not the admin key. */
  run(a: Account): Promise<{ targetIds: string[]; secrets: string[]; actor?: AuditEntry['actor']; counts?: AuditEntry['counts'] }>;
}

/** A person invited by the admin key; the invitation's token and the person's bearer token are secrets to the log. */
async function invitation(a: Account) {
  const email = `${unique('person')}@example.com`;
  const invited = await ok(a, 'members/invite', [{ email, role: 'viewer' }]);
  const subject = unique('subject');
  const bearer = await idp.token(subject, { claims: { email, name: 'Ada Person' } });
  return { email, subject, bearer, token: (invited.url as string).split('#')[1], invitationId: invited.invitationId as string };
}

/** A viewer member: invited and accepted. */
async function member(a: Account) {
  const invited = await invitation(a);
  const accepted = await api.call('members/accept', [invited.token], { headers: { authorization: `Bearer ${invited.bearer}` } });
  expect(accepted.status).toBe(200);
  return { ...invited, memberId: accepted.body.person.memberId as string };
}

async function project(a: Account, name = unique('Project name')) {
  return (await ok(a, 'projects/create', [{ name, description: unique('project description') }])).id as string;
}

async function webhook(a: Account) {
  const token = unique('urltoken');
  const created = await ok(a, 'webhooks/create', [{ url: hookUrl(token), description: unique('hook description') }]);
  return { id: created.id as string, secret: created.secret as string, token };
}

/** A message held as spam (docs/api.md "Quarantine": markup links), once the screening has run. */
async function heldResponse(a: Account) {
  const projectId = await project(a);
  const setId = await createContentSet(api, a.admin, projectId, 'message');
  const text = `${unique('held')} <a href="https://spam.example/">cheap followers</a>`;
  const created = await api.call('responses/create', [{ contentSetId: setId, key: unique('page'), value: text }]);
  expect(created.status).toBe(200);
  // Twice: the screening's hold is itself a stream record the counting consumer reads.
  await api.drainStream({ rank: false });
  await api.drainStream({ rank: false });
  return { responseId: created.body.responseId as string, text };
}

/** An anonymous, revokable message response: its value text and revoke token are secrets to the log. */
async function response(a: Account) {
  const projectId = await project(a);
  const setId = await createContentSet(api, a.admin, projectId, 'message');
  const text = unique('a private message');
  const created = await api.call('responses/create', [{ contentSetId: setId, key: unique('page'), value: text, revokable: true }]);
  expect(created.status).toBe(200);
  return { responseId: created.body.responseId as string, token: created.body.revokable.token as string, text };
}

const scenarios: Partial<Record<OperationName, Scenario>> = {
  'projects/create': {
    async run(a) {
      const name = unique('Secret project');
      const created = await ok(a, 'projects/create', [{ name, description: unique('described') }]);
      return { targetIds: [created.id], secrets: [name] };
    },
  },
  'projects/save': {
    async run(a) {
      const id = await project(a);
      const name = unique('Renamed');
      await ok(a, 'projects/save', [id, { name, description: unique('redescribed') }]);
      return { targetIds: [id], secrets: [name] };
    },
  },
  'sets/create': {
    async run(a) {
      const projectId = await project(a);
      const name = unique('Set name');
      const created = await ok(a, 'sets/create', [{ projectId, key: unique('setkey'), schema: 'yes-no', metadata: { name } }]);
      return { targetIds: [projectId, created.id], secrets: [name] };
    },
  },
  'sets/save': {
    async run(a) {
      const setId = await createContentSet(api, a.admin, await project(a), 'yes-no');
      const name = unique('Set renamed');
      await ok(a, 'sets/save', [setId, { name, description: unique('set description') }]);
      return { targetIds: [setId], secrets: [name] };
    },
  },
  'contents/create': {
    async run(a) {
      const setId = await createContentSet(api, a.admin, await project(a), 'yes-no');
      const title = unique('Item title');
      const key = `https://example.com/${unique('private-page')}`;
      const created = await ok(a, 'contents/create', [{ contentSetId: setId, key, metadata: { title } }]);
      return { targetIds: [setId, created.id], secrets: [title, key] };
    },
  },
  'contents/save': {
    async run(a) {
      const setId = await createContentSet(api, a.admin, await project(a), 'yes-no');
      const created = await ok(a, 'contents/create', [{ contentSetId: setId, key: unique('item') }]);
      const title = unique('Title changed');
      await ok(a, 'contents/save', [created.id, { title, url: 'https://example.com/private' }]);
      return { targetIds: [created.id], secrets: [title, 'https://example.com/private'] };
    },
  },
  'responses/erase': {
    async run(a) {
      const { responseId, token, text } = await response(a);
      await ok(a, 'responses/erase', [{ responseIds: [responseId] }]);
      return { targetIds: [responseId], secrets: [token, text] };
    },
  },
  'responses/release': {
    async run(a) {
      const { responseId, text } = await heldResponse(a);
      expect((await ok(a, 'responses/release', [{ responseIds: [responseId] }])).changed).toBe(1);
      return { targetIds: [responseId], secrets: [text] };
    },
  },
  'responses/discard': {
    async run(a) {
      const { responseId, text } = await heldResponse(a);
      expect((await ok(a, 'responses/discard', [{ responseIds: [responseId] }])).changed).toBe(1);
      return { targetIds: [responseId], secrets: [text] };
    },
  },
  'responses/import': {
    async run(a) {
      const projectId = await project(a);
      const setId = await createContentSet(api, a.admin, projectId, 'message');
      const [text, key, importId] = [unique('an imported message'), unique('imported page'), unique('import')];
      const rows = [
        { key, value: text, createdAt: '2024-01-01T00:00:00Z', importId },
        { key, value: text, createdAt: '2024-01-01T00:00:00Z', importId },
        { key, value: '', createdAt: '2024-01-01T00:00:00Z', importId: unique('refused') },
      ];
      await ok(a, 'responses/import', [setId, rows]);
      return { targetIds: [setId], secrets: [text, key, importId], counts: { imported: 1, duplicate: 1, refused: 1 } };
    },
  },
  'keys/create': {
    async run(a) {
      const label = unique('new key label');
      const created = await ok(a, 'keys/create', [{ level: 'viewer', label }]);
      return { targetIds: [created.id], secrets: [created.key, label] };
    },
  },
  'keys/revoke': {
    async run(a) {
      const created = await ok(a, 'keys/create', [{ level: 'viewer', label: unique('doomed') }]);
      await ok(a, 'keys/revoke', [created.id]);
      return { targetIds: [created.id], secrets: [created.key] };
    },
  },
  'webhooks/create': {
    async run(a) {
      const { id, secret, token } = await webhook(a);
      return { targetIds: [id], secrets: [secret, token] };
    },
  },
  'webhooks/save': {
    async run(a) {
      const { id, secret } = await webhook(a);
      const token = unique('newtoken');
      await ok(a, 'webhooks/save', [id, { url: hookUrl(token), description: unique('changed') }]);
      return { targetIds: [id], secrets: [secret, token] };
    },
  },
  'webhooks/remove': {
    async run(a) {
      const { id, secret, token } = await webhook(a);
      await ok(a, 'webhooks/remove', [id]);
      return { targetIds: [id], secrets: [secret, token] };
    },
  },
  'webhooks/rotateSecret': {
    async run(a) {
      const { id, secret } = await webhook(a);
      const rotated = await ok(a, 'webhooks/rotateSecret', [id]);
      return { targetIds: [id], secrets: [secret, rotated.secret] };
    },
  },
  'webhooks/test': {
    async run(a) {
      const { id, secret, token } = await webhook(a);
      const tested = await ok(a, 'webhooks/test', [id]);
      return { targetIds: [id, tested.deliveryId], secrets: [secret, token] };
    },
  },
  'members/invite': {
    async run(a) {
      const { email, bearer, token, invitationId } = await invitation(a);
      return { targetIds: [invitationId], secrets: [email, bearer, token] };
    },
  },
  'members/withdraw': {
    async run(a) {
      const { email, token, invitationId } = await invitation(a);
      await ok(a, 'members/withdraw', [invitationId]);
      return { targetIds: [invitationId], secrets: [email, token] };
    },
  },
  'members/accept': {
    async run(a) {
      const { email, bearer, token, invitationId } = await invitation(a);
      const accepted = await api.call('members/accept', [token], { headers: { authorization: `Bearer ${bearer}` } });
      expect(accepted.status).toBe(200);
      const memberId = accepted.body.person.memberId as string;
      return { targetIds: [invitationId, memberId], secrets: [bearer, token], actor: { type: 'person', memberId, email, name: 'Ada Person' } };
    },
  },
  'alerts/saveSettings': {
    async run(a) {
      await ok(a, 'alerts/saveSettings', [{ falseDiscoveryRate: 0.07 }]);
      return { targetIds: [], secrets: [] };
    },
  },
  'members/renameAccount': {
    async run(a) {
      // An owner renames: a person the operator made one (as the key CLI's add-owner does).
      const subject = unique('owner');
      const person = { issuer: idp.issuer, subject, email: `${subject}@localhost`, emailVerified: true, name: 'Olive Owner' };
      const now = new Date();
      const link = await createInvitation(
        store,
        { accountId: a.accountId, email: person.email, role: 'owner', inviter: { type: 'operator', name: 'test' } },
        'http://localhost',
        now,
      );
      const joined = await acceptInvitation(store, { kind: 'newcomer', level: 'anonymous', person }, link.url.split('#')[1], now);
      const name = unique('Team name');
      const bearer = await idp.token(subject, { claims: { email: person.email, email_verified: true, name: person.name } });
      const renamed = await api.call('members/renameAccount', [name], { headers: { authorization: `Bearer ${bearer}` } });
      expect(renamed.body).toEqual({ id: a.accountId, name });
      const memberId = joined.person!.memberId;
      return { targetIds: [a.accountId], secrets: [name, bearer], actor: { type: 'person', memberId, email: person.email, name: person.name } };
    },
  },
  'members/setNotifications': {
    async run(a) {
      const { memberId, email, bearer, token } = await member(a);
      const set = await api.call('members/setNotifications', [{ weeklyDigest: true, alerts: 'daily' }], { headers: { authorization: `Bearer ${bearer}` } });
      expect(set.status).toBe(200);
      return { targetIds: [], secrets: [bearer, token], actor: { type: 'person', memberId, email, name: 'Ada Person' } };
    },
  },
  'members/sendDigest': {
    async run(a) {
      const projectId = await project(a);
      const { memberId, email, bearer, token } = await member(a);
      const sent = await api.call('members/sendDigest', [projectId], { headers: { authorization: `Bearer ${bearer}` } });
      expect(sent.status).toBe(200);
      expect(fs.readdirSync(outbox).length).toBeGreaterThan(0);
      return { targetIds: [projectId], secrets: [bearer, token], actor: { type: 'person', memberId, email, name: 'Ada Person' } };
    },
  },
  'members/setRole': {
    async run(a) {
      const { memberId, bearer, token } = await member(a);
      await ok(a, 'members/setRole', [memberId, 'viewer']);
      return { targetIds: [memberId], secrets: [bearer, token] };
    },
  },
  'members/remove': {
    async run(a) {
      const { memberId, bearer, token } = await member(a);
      await ok(a, 'members/remove', [memberId]);
      return { targetIds: [memberId], secrets: [bearer, token] };
    },
  },
  'sets/curateThemes': {
    async run(a) {
      const projectId = await project(a);
      const setId = await createContentSet(api, a.admin, projectId, 'message');
      const label = unique('Theme label');
      const example = unique('an example message');
      const pinned = await ok(a, 'sets/curateThemes', [setId, { kind: 'pin', label, phrases: ['gift card'], examples: [example] }]);
      return { targetIds: [setId, pinned.id, pinned.themeId], secrets: [label, example] };
    },
  },
  'webhooks/redeliver': {
    async run(a) {
      const { id, secret, token } = await webhook(a);
      const tested = await ok(a, 'webhooks/test', [id]);
      await ok(a, 'webhooks/redeliver', [tested.deliveryId]);
      return { targetIds: [tested.deliveryId], secrets: [secret, token] };
    },
  },
};

const audited = operationList.filter(isAudited).map((operation) => operationPath(operation) as OperationName);

describe('every audited operation of the registry', () => {
  it('is the changing operations that need a key', () => {
    expect(audited.length).toBeGreaterThan(10);
    expect(audited).not.toContain('responses/create');
    expect(audited.every((name) => !name.startsWith('audit/'))).toBe(true);
  });

  it.each(audited)('%s: one entry with its actor, targets and outcome, and no secret or value', async (name) => {
    const scenario = scenarios[name];
    if (!scenario) throw new Error(`${name} is audited: add its scenario to test/integration/audit.test.ts`);
    const a = await account();
    const before = new Date().toISOString();
    const { targetIds, secrets, actor, counts } = await scenario.run(a);

    const entries = await listAll(a, { operation: name });
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toEqual({
      id: expect.any(String),
      at: expect.any(String),
      actor: actor ?? { type: 'key', keyId: a.adminKeyId, label: a.adminLabel },
      operation: name,
      targetIds,
      sourceIp: '127.0.0.1',
      outcome: 'ok',
      requestId: expect.any(String),
      ...(counts ? { counts } : {}),
    });
    expect(entry.at >= before).toBe(true);

    // Nothing of the call but ids: not the caller's key, not a secret, name, URL or value.
    const stored = (await storedItems(a.accountId)).find((item) => item.id === entry.id)!;
    const serialized = JSON.stringify(stored);
    for (const secret of [a.admin, a.viewer, ...secrets]) expect(serialized).not.toContain(secret);
    expect(serialized).not.toContain('fbk_');
    expect(serialized).not.toContain('whsec_');
  });
});

describe('refusals and calls that are not audited', () => {
  it('a refused keyed call writes an entry with its error code (forbidden, not-found, bad-request)', async () => {
    const a = await account();
    expectError(await api.call('projects/create', [{ name: unique('Viewer project') }], { key: a.viewer }), 403, 'forbidden');
    expectError(await api.call('webhooks/remove', [UNKNOWN_ID], { key: a.admin }), 404, 'not-found');
    expectError(await api.call('projects/save', [UNKNOWN_ID, { name: 42 }], { key: a.admin }), 400, 'bad-request');
    const entries = await listAll(a);
    expect(
      entries.map(({ operation, outcome, actor, targetIds }) => ({ operation, outcome, keyId: actor.type === 'key' ? actor.keyId : undefined, targetIds })),
    ).toEqual([
      { operation: 'projects/save', outcome: 'bad-request', keyId: a.adminKeyId, targetIds: [UNKNOWN_ID] },
      { operation: 'webhooks/remove', outcome: 'not-found', keyId: a.adminKeyId, targetIds: [UNKNOWN_ID] },
      { operation: 'projects/create', outcome: 'forbidden', keyId: a.viewerKeyId, targetIds: [] },
    ]);
    expect(JSON.stringify(entries)).not.toContain('Viewer project');
  });

  it('unauthenticated calls, the widgets’ anonymous calls and read-only calls write none', async () => {
    const a = await account();
    const projectId = await project(a);
    const setId = await createContentSet(api, a.admin, projectId, 'yes-no');
    const written = await storedItems(a.accountId);
    const total = await auditItemCount();

    expectError(await api.call('projects/create', [{ name: 'No key' }], { key: 'fbk_not-a-key' }), 401, 'unauthorized');
    expectError(await api.call('projects/create', [{ name: 'Anonymous' }]), 401, 'unauthorized');
    const created = await api.call('responses/create', [{ contentSetId: setId, key: 'page', value: 'yes', revokable: true }]);
    expect(created.status).toBe(200);
    const reference = { responseId: created.body.responseId, revokeToken: created.body.revokable.token };
    expect((await api.call('responses/edit', [{ ...reference, value: 'no' }])).status).toBe(200);
    expect((await api.call('responses/remove', [reference])).status).toBe(204);
    // A keyed caller of an anonymous operation is not audited either: the widgets' writes are data.
    expect((await api.call('responses/create', [{ contentSetId: setId, key: 'page', value: 'yes' }], { key: a.admin })).status).toBe(200);
    await ok(a, 'projects/get', [projectId]);
    await ok(a, 'audit/list', []);
    await ok(a, 'audit/export', [{ format: 'csv' }]);

    expect(await storedItems(a.accountId)).toEqual(written);
    expect(await auditItemCount()).toBe(total);
  });

  it('a failed audit write is logged and leaves the answer of a successful call as it was', async () => {
    const a = await account();
    const failing = new Proxy(documentClient, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return (command: unknown) => {
          if (command instanceof PutCommand && String(command.input.Item?.pk).startsWith('audit#')) return Promise.reject(new Error('throttled'));
          return target.send(command as never);
        };
      },
    });
    const event = {
      httpMethod: 'POST',
      path: '/v0/projects/create',
      headers: { authorization: `API-KEY ${a.admin}` },
      body: JSON.stringify([{ name: 'Kept' }]),
      isBase64Encoded: false,
      requestContext: { requestId: 'audit-failure', identity: { sourceIp: '192.0.2.1' } },
    } as unknown as APIGatewayProxyEvent;
    const answer = await handleApiEvent(projectsCreate, event, { store: { ...store, documentClient: failing } as typeof store });
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ name: 'Kept' });
    expect(await storedItems(a.accountId)).toEqual([]);
  });
});

describe('who, from where, and not a flood', () => {
  const total = (entries: { count?: number }[]) => entries.reduce((sum, entry) => sum + (entry.count ?? 1), 0);

  it("a key's burst of 100 refused calls leaves at most 10 entries a minute and one aggregate counting the rest", async () => {
    const a = await account();
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => api.call('keys/revoke', [UNKNOWN_ID], { key: a.viewer })));
      for (const answer of answers) expectError(answer, 403, 'forbidden');
    }
    const refused = (await storedItems(a.accountId)).filter((item) => item.outcome === 'forbidden');
    const minutes = new Set(refused.map((item) => String(item.at).slice(0, 16))).size;
    expect(minutes).toBeLessThanOrEqual(2);
    expect(refused.length).toBeLessThanOrEqual(minutes * 11);
    expect(total(refused)).toBe(100);
    const aggregates = refused.filter((item) => item.count !== undefined);
    expect(aggregates.length).toBeGreaterThanOrEqual(1);
    expect(aggregates[0]).toMatchObject({
      operation: 'keys/revoke',
      outcome: 'forbidden',
      targetIds: [],
      actor: { type: 'key', keyId: a.viewerKeyId },
      at: expect.stringMatching(/:00\.000Z$/),
    });
    // The list and the export show them as they are stored: the counts add up to the calls.
    const listed = await listAll(a, { operation: 'keys/revoke' });
    expect(total(listed)).toBe(100);
    expect(listed.find((entry) => entry.count !== undefined)).toMatchObject({ count: expect.any(Number), requestId: expect.any(String) });
    // Calls that succeed are not limited: each still has its entry.
    for (let index = 0; index < 3; index++) await project(a);
    expect(await listAll(a, { operation: 'projects/create' })).toHaveLength(3);
  });

  it('copies into a refused entry only what is shaped like an id of this service', async () => {
    const a = await account();
    expectError(await api.call('keys/revoke', ['Please-make-me-an-admin'], { key: a.viewer }), 403, 'forbidden');
    expectError(await api.call('webhooks/remove', ['GiveMeAdmin1'.repeat(2)], { key: a.viewer }), 403, 'forbidden');
    expectError(await api.call('webhooks/remove', [UNKNOWN_ID], { key: a.viewer }), 403, 'forbidden');
    const entries = await listAll(a);
    expect(entries.map((entry) => entry.targetIds)).toEqual([[UNKNOWN_ID], [], []]);
  });

  it('names a member as recorded when they joined (or by a verified email), never by what a later token merely claims', async () => {
    const a = await account();
    const joined = await member(a);
    const forbidden = async (token: string) => {
      expectError(await api.call('projects/create', [{ name: unique('Refused') }], { headers: { authorization: `Bearer ${token}` } }), 403, 'forbidden');
      return (await listAll(a, { operation: 'projects/create' }))[0].actor;
    };
    const claiming = await idp.token(joined.subject, { claims: { email: 'boss@evil.example', email_verified: false, name: 'The Boss' } });
    expect(await forbidden(claiming)).toEqual({ type: 'person', memberId: joined.memberId, email: joined.email, name: 'Ada Person' });
    const verified = await idp.token(joined.subject, { claims: { email: 'ada@new.example', email_verified: true, name: 'The Boss' } });
    expect(await forbidden(verified)).toEqual({ type: 'person', memberId: joined.memberId, email: 'ada@new.example', name: 'Ada Person' });

    // Joining with an unverified email records the invited address, and the log says so.
    const invited = await invitation(a);
    const unverified = await idp.token(invited.subject, { claims: { email: 'ceo@evil.example', email_verified: false, name: 'Cee' } });
    const accepted = await api.call('members/accept', [invited.token], { headers: { authorization: `Bearer ${unverified}` } });
    expect(accepted.body.person).toEqual({ memberId: expect.any(String), email: invited.email, name: 'Cee' });
    const listed = (await ok(a, 'members/list', [])).items.find((item: { id: string }) => item.id === accepted.body.person.memberId);
    expect(listed.email).toBe(invited.email);
    expect((await listAll(a, { operation: 'members/accept' }))[0].actor).toEqual({
      type: 'person',
      memberId: accepted.body.person.memberId,
      email: invited.email,
      name: 'Cee',
    });
  });

  it("on AWS records the viewer's address the distribution passed on, trusted only on the distribution's requests", async () => {
    const a = await account();
    const event = (headers: Record<string, string>) =>
      ({
        httpMethod: 'POST',
        path: '/v0/projects/create',
        headers: { authorization: `API-KEY ${a.admin}`, ...headers },
        body: JSON.stringify([{ name: 'Through the edge' }]),
        isBase64Encoded: false,
        requestContext: { requestId: unique('edge'), identity: { sourceIp: '130.176.0.1' } },
      }) as unknown as APIGatewayProxyEvent;
    const viaDistribution = await handleApiEvent(projectsCreate, event({ 'X-Feedback-Viewer-Address': '198.51.100.7', 'X-Feedback-Origin-Verify': 'secret' }), {
      store,
    });
    expect(viaDistribution.statusCode).toBe(200);
    await pause();
    expect((await handleApiEvent(projectsCreate, event({ 'x-feedback-viewer-address': '198.51.100.8' }), { store })).statusCode).toBe(200);
    await pause();
    // The local server has no distribution: what a client sends under those names is dropped.
    const headers = { 'x-feedback-viewer-address': '198.51.100.9', 'x-feedback-origin-verify': 'guessed' };
    expect((await api.call('projects/create', [{ name: 'Local' }], { key: a.admin, headers })).status).toBe(200);
    expect((await listAll(a)).map((entry) => entry.sourceIp)).toEqual(['127.0.0.1', '130.176.0.1', '198.51.100.7']);
  });
});

describe('audit/list', () => {
  it('pages newest first, and filters by actor, operation, target id, outcome and time', async () => {
    const a = await account();
    const second = await issueApiKey(store, { accountId: a.accountId, level: 'admin' }, new Date());
    const ids: string[] = [];
    const times: string[] = [];
    for (let index = 0; index < 5; index++) {
      times.push(new Date().toISOString());
      ids.push(await project(a, `P${index}`));
      await pause();
    }
    const middle = new Date().toISOString();
    await pause();
    await ok(a, 'projects/save', [ids[0], { name: 'Again' }], second.key);

    const all = await listAll(a, { $size: 2 });
    expect(all.map((entry) => entry.operation)).toEqual(['projects/save', ...Array(5).fill('projects/create')]);
    expect(all.map((entry) => entry.targetIds[0])).toEqual([ids[0], ...[...ids].reverse()]);
    const sorted = [...all].sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0));
    expect(all.map((entry) => entry.id)).toEqual(sorted.map((entry) => entry.id));

    const first = await ok(a, 'audit/list', [{ $size: 2 }]);
    expect(first.items).toHaveLength(2);
    expect(first.cursor).toEqual(expect.any(String));
    expectError(await api.call('audit/list', [{ $size: 2, operation: 'projects/save', cursor: first.cursor }], { key: a.admin }), 400, 'bad-request');

    expect((await listAll(a, { actor: second.record.id })).map((entry) => entry.operation)).toEqual(['projects/save']);
    expect((await listAll(a, { actor: a.adminKeyId, $size: 1 })).length).toBe(5);
    expect((await listAll(a, { operation: 'projects/create' })).length).toBe(5);
    expect((await listAll(a, { targetId: ids[0] })).map((entry) => entry.operation)).toEqual(['projects/save', 'projects/create']);
    expect((await listAll(a, { from: middle })).map((entry) => entry.operation)).toEqual(['projects/save']);
    expect((await listAll(a, { to: times[2] })).map((entry) => entry.targetIds[0])).toEqual([ids[1], ids[0]]);
    expect((await listAll(a, { from: times[1], to: times[3] })).map((entry) => entry.targetIds[0])).toEqual([ids[2], ids[1]]);
    // A reversed or empty range is refused naming `to` (it was a 500: the key condition's bounds were reversed).
    for (const [operation, extra] of [
      ['audit/list', {}],
      ['audit/export', { format: 'csv' }],
    ] as const) {
      for (const range of [
        { from: times[3], to: times[1] },
        { from: '2030-12-30', to: '2004-10-29' },
        { from: times[2], to: times[2] },
      ]) {
        const refused = await api.call(operation, [{ ...range, ...extra }], { key: a.admin });
        expectError(refused, 400, 'bad-request');
        expect(refused.body.data.fields).toEqual([{ path: 'args.0.to', message: 'from must be before to' }]);
      }
    }
    // By outcome: what succeeded, or what was refused with any error.
    expectError(await api.call('projects/create', [{ name: 'Refused' }], { key: a.viewer }), 403, 'forbidden');
    expectError(await api.call('projects/save', [UNKNOWN_ID, {}], { key: a.admin }), 404, 'not-found');
    expect((await listAll(a, { outcome: 'refused' })).map((entry) => entry.outcome)).toEqual(['not-found', 'forbidden']);
    expect((await listAll(a, { outcome: 'ok' })).length).toBe(6);
    expect((await listAll(a, { outcome: 'refused', operation: 'projects/save' })).map((entry) => entry.outcome)).toEqual(['not-found']);

    // Another account sees none of it; viewers may not read the log.
    const other = await account();
    expect(await listAll(other)).toEqual([]);
    expectError(await api.call('audit/list', [], { key: a.viewer }), 403, 'forbidden');
  });

  it('keeps entries 400 days: the table’s TTL attribute is set that far ahead', async () => {
    const a = await account();
    await project(a);
    const [item] = await storedItems(a.accountId);
    const expires = item[TABLE_KEYS.timeToLiveAttribute];
    expect(expires).toBe(Math.floor(Date.parse(item.at) / 1000) + AUDIT_RETENTION_SECONDS);
    expect(expires * 1000 - Date.now()).toBeGreaterThan(399 * 24 * 3600 * 1000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(400 * 24 * 3600 * 1000);
  });
});

describe('audit/export', () => {
  it('writes the entries as CSV (formulas neutralized) and NDJSON, in chunks that continue by cursor', async () => {
    const now = new Date();
    const created = await ensureAccount(store, unique('audit-export'), now);
    const formula = await issueApiKey(store, { accountId: created.id, level: 'admin', label: '=HYPERLINK("x")' }, now);
    const a: Account = { accountId: created.id, admin: formula.key, adminKeyId: formula.record.id, adminLabel: '', viewer: '', viewerKeyId: '' };
    for (let index = 0; index < 3; index++) await project(a, `E${index}`);
    const listed = await listAll(a);

    const csv = await ok(a, 'audit/export', [{ format: 'csv' }]);
    expect(csv).toMatchObject({ format: 'csv', rows: 3 });
    expect(csv).not.toHaveProperty('cursor');
    const lines = csv.data.split('\r\n');
    expect(lines[0]).toBe('id,at,actorType,keyId,label,memberId,email,operation,targetIds,sourceIp,outcome,requestId,count,counts');
    expect(lines[1]).toBe(
      [
        listed[0].id,
        listed[0].at,
        'key',
        a.adminKeyId,
        `"'=HYPERLINK(""x"")"`,
        '',
        '',
        'projects/create',
        listed[0].targetIds[0],
        '127.0.0.1',
        'ok',
        listed[0].requestId,
        '',
        '',
      ].join(','),
    );

    const ndjson = await ok(a, 'audit/export', [{ format: 'ndjson', operation: 'projects/create' }]);
    expect(
      ndjson.data
        .trim()
        .split('\n')
        .map((line: string) => JSON.parse(line)),
    ).toEqual(listed);

    // Chunks of two: the header only in the first, and the cursor carries on where it stopped.
    const firstChunk = await exportAuditEntries(store, a.accountId, { format: 'csv' }, { maxRows: 2 });
    expect(firstChunk.rows).toBe(2);
    const rest = await exportAuditEntries(store, a.accountId, { format: 'csv', cursor: firstChunk.cursor }, { maxRows: 2 });
    expect(rest).toMatchObject({ rows: 1 });
    expect(rest).not.toHaveProperty('cursor');
    expect(rest.data.startsWith(listed[2].id)).toBe(true);
    await expect(exportAuditEntries(store, a.accountId, { format: 'ndjson', cursor: firstChunk.cursor })).rejects.toMatchObject({ code: 'bad-request' });
  });
});
