import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createClient, type FeedbackClient, type OperationName } from '../../clients/typescript/src';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { resultMismatch, operationAt } from '../support/result-check';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer';
import { ensureDevOwner } from '../../local/runtime';

// The webhooks calls post to a receiver on this machine over http, as under `npm start`.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
// members/invite links to the console.
process.env.CONSOLE_URL = 'http://localhost:3000';
// members/sendDigest writes its mail as a file here.
process.env.MAIL_FROM = 'feedback@localhost';
process.env.MAIL_OUTBOX_DIR = join(tmpdir(), `client-test-outbox-${process.pid}`);

/**
 * The TypeScript client against the local server: every operation once (the `calls` map
 * must name every operation, or this file does not compile), its results checked against
 * the registry's result models, failures as ApiError, GET for read-only calls, the timeout.
 */

let api: TestApi;
let owner: AccountKeys;
let admin: FeedbackClient;
let viewer: FeedbackClient;
let anonymous: FeedbackClient;
let receiver: Receiver;
let idp: TestIssuer;
/** A signed-in person: the client asks for a token before each request. */
let person: FeedbackClient;

beforeAll(async () => {
  idp = await startTestIssuer();
  process.env.OIDC_ISSUER = idp.issuer;
  process.env.OIDC_CLIENT_ID = idp.clientId;
  api = await startTestApi();
  person = createClient({ baseUrl: api.baseUrl, token: () => idp.token('grace') });
  receiver = await startReceiver();
  owner = await createAccount('client');
  admin = createClient({ baseUrl: api.baseUrl, apiKey: owner.admin });
  viewer = createClient({ baseUrl: api.baseUrl, apiKey: owner.viewer, readMethod: 'GET' });
  anonymous = createClient({ baseUrl: api.baseUrl });
});
afterAll(async () => {
  await receiver.close();
  await api.close();
  await idp.close();
});

/** A result as the registry's model requires it (the server-side watch of TestApi checks the same). */
function expectDeclared(name: OperationName, result: unknown) {
  expect(resultMismatch(operationAt(name)!, result === undefined ? 204 : 200, result)).toBeUndefined();
}

describe('every operation through the client', () => {
  it('runs each operation of the registry and gets its declared result', async () => {
    const project = await admin.projects.create({ name: 'Client docs', description: 'via the client' });
    const set = await admin.sets.create({
      projectId: project.id,
      key: 'reactions',
      schema: 'reaction',
      metadata: { name: 'Reactions', publicAggregates: true },
    });
    const item = await admin.contents.create({ contentSetId: set.id, key: 'https://example.com/guide', metadata: { title: 'Guide' } });
    const written = await anonymous.responses.create({ contentSetId: set.id, key: item.key, value: 'heart', revokable: true });
    const positional = await anonymous.responses.create(set.id, 'https://example.com/other', '+1');
    await api.drainStream();
    // Only content.created, which no call below causes: the receiver gets only what webhooks/test sends.
    const hook = await admin.webhooks.create({ url: receiver.url, events: ['content.created'], projectId: project.id, description: 'via the client' });
    let tested: { deliveryId: string } | undefined;
    const invitation = await admin.members.invite({ email: 'grace@example.com', role: 'viewer' });
    // An address of npm start's provider, whose domain has no dot; its link is only looked at.
    const unopened = await admin.members.invite({ email: 'linus@localhost', role: 'viewer' });
    // Only an owner renames the account: a person, never a key.
    await ensureDevOwner(owner.accountId, idp.issuer, 'ada');
    const ownerPerson = createClient({ baseUrl: api.baseUrl, token: () => idp.token('ada') });
    let joined: { person?: { memberId: string } } | undefined;

    // The compiler requires one entry per operation of the registry.
    const calls: { [Name in OperationName]: () => Promise<unknown> } = {
      'projects/get': () => viewer.projects.get(project.id),
      'projects/lookup': () => viewer.projects.lookup('Client', { state: 'all' }),
      'projects/create': async () => project,
      'projects/save': () => admin.projects.save(project.id, { description: 'saved' }),
      'projects/getStats': () => viewer.projects.getStats(project.id, { period: 'week' }),
      'projects/digest': () => viewer.projects.digest(project.id),
      'projects/themes': () => viewer.projects.themes(project.id, { period: 'week' }),
      'sets/get': () => viewer.sets.get(set.id),
      'sets/lookup': () => viewer.sets.lookup('', { projectId: project.id, schema: 'reaction' }),
      'sets/create': async () => set,
      'sets/save': () => admin.sets.save(set.id, { description: 'saved' }),
      'sets/exists': () => viewer.sets.exists({ projectId: project.id, key: 'reactions' }),
      'sets/top': () => viewer.sets.top({ projectId: project.id }),
      'sets/getStats': () => viewer.sets.getStats(set.id),
      'sets/themes': () => viewer.sets.themes(set.id, { compare: 'previous', period: 'month' }),
      // A message set: a theme pinned before the set has any.
      'sets/curateThemes': async () => {
        const messages = await admin.sets.create({ projectId: project.id, key: 'messages', schema: 'message', metadata: { name: 'Messages' } });
        return admin.sets.curateThemes(messages.id, { kind: 'pin', label: 'Gift cards', phrases: ['gift card'], examples: [] });
      },
      'sets/themeCurations': () => viewer.sets.themeCurations(set.id),
      'contents/get': () => viewer.contents.get(item.id),
      'contents/lookup': () => viewer.contents.lookup('https://example.com/', { contentSetId: set.id }),
      'contents/create': async () => item,
      'contents/save': () => admin.contents.save(item.id, { title: 'The guide' }),
      'contents/exists': () => viewer.contents.exists({ contentSetId: set.id, key: item.key }),
      'contents/top': () => viewer.contents.top({ contentSetId: set.id, period: 'rolling7d' }),
      'contents/getStats': () => viewer.contents.getStats(item.id, { period: 'day' }),
      'contents/themes': () => viewer.contents.themes(item.id),
      'responses/get': () => viewer.responses.get(written.responseId),
      'responses/list': () => viewer.responses.list({ contentSetId: set.id, $size: 5 }),
      'responses/create': async () => written,
      'responses/edit': () => anonymous.responses.edit({ feelbackId: written.feelbackId, revokeToken: written.revokable!.token, value: 'rocket' }),
      'responses/remove': () => anonymous.responses.remove({ responseId: written.responseId, revokeToken: written.revokable!.token }),
      'responses/getAggregates': () => anonymous.responses.getAggregates({ contentSetId: set.id, key: item.key }),
      'responses/export': () => viewer.responses.export({ contentSetId: set.id, state: 'all', format: 'csv' }),
      'responses/erase': () => admin.responses.erase({ responseIds: [positional.responseId] }),
      'responses/release': () => admin.responses.release({ responseIds: [positional.responseId] }),
      'responses/discard': () => admin.responses.discard({ contentId: item.id }),
      'responses/import': () => admin.responses.import(set.id, [{ key: item.key, value: 'heart', createdAt: '2024-05-01T10:00:00Z', importId: 'client-1' }]),
      'keys/list': () => admin.keys.list({ $size: 5 }),
      'keys/create': () => admin.keys.create({ level: 'viewer', label: 'client test' }),
      'keys/revoke': async () => admin.keys.revoke((await admin.keys.create({ level: 'viewer' })).id),
      'members/me': () => admin.members.me(),
      'members/invite': async () => invitation,
      'members/accept': async () => (joined = await person.members.accept(invitation.url.split('#')[1])),
      'members/invitedTo': () => anonymous.members.invitedTo(unopened.url.split('#')[1]),
      'members/renameAccount': () => ownerPerson.members.renameAccount('  Client docs team '),
      'members/list': () => admin.members.list({ $size: 5 }),
      'members/notifications': () => ownerPerson.members.notifications(),
      'members/setNotifications': () => ownerPerson.members.setNotifications({ alerts: 'daily' }),
      'members/sendDigest': () => ownerPerson.members.sendDigest(project.id),
      'members/invitations': () => admin.members.invitations({ $size: 5 }),
      'members/withdraw': async () => admin.members.withdraw((await admin.members.invite({ email: 'withdrawn@example.com', role: 'viewer' })).invitationId),
      'members/setRole': () => admin.members.setRole(joined!.person!.memberId, 'viewer'),
      'members/remove': () => admin.members.remove(joined!.person!.memberId),
      'webhooks/create': async () => hook,
      'webhooks/get': () => admin.webhooks.get(hook.id),
      'webhooks/list': () => admin.webhooks.list({ projectId: project.id, $size: 5 }),
      'webhooks/save': () => admin.webhooks.save(hook.id, { description: 'saved' }),
      'webhooks/rotateSecret': () => admin.webhooks.rotateSecret(hook.id),
      'webhooks/test': async () => (tested = await admin.webhooks.test(hook.id)),
      'webhooks/deliveries': () => admin.webhooks.deliveries({ webhookId: hook.id }),
      'webhooks/redeliver': () => admin.webhooks.redeliver(tested!.deliveryId),
      // Last: the calls above need the webhook.
      'webhooks/remove': () => admin.webhooks.remove(hook.id),
      // After the changes above, which each wrote an audit entry.
      'alerts/list': () => viewer.alerts.list({ projectId: project.id }),
      'alerts/settings': () => viewer.alerts.settings(),
      'alerts/saveSettings': () => admin.alerts.saveSettings({ falseDiscoveryRate: 0.05 }),
      'audit/list': () => admin.audit.list({ operation: 'webhooks/remove', $size: 5 }),
      'audit/export': () => admin.audit.export({ targetId: hook.id, format: 'ndjson' }),
    };
    const results: Partial<Record<OperationName, unknown>> = {};
    for (const name of Object.keys(calls) as OperationName[]) {
      results[name] = await calls[name]();
      expectDeclared(name, results[name]);
    }

    expect(results['projects/get']).toMatchObject({ id: project.id, name: 'Client docs' });
    expect(results['projects/save']).toMatchObject({ metadata: { description: 'saved' } });
    expect(results['sets/exists']).toBe(true);
    expect(results['contents/exists']).toBe(true);
    expect(results['sets/themes']).toMatchObject({ messages: 0, themes: [], phrases: [] });
    expect(results['sets/curateThemes']).toMatchObject({ themeId: expect.any(String), record: { kind: 'pin', label: 'Gift cards' } });
    expect(results['sets/themeCurations']).toEqual([]);
    expect(results['sets/top']).toEqual([expect.objectContaining({ id: set.id, stats: expect.objectContaining({ count: 2 }) })]);
    expect(results['contents/top']).toEqual(expect.arrayContaining([expect.objectContaining({ id: item.id })]));
    expect(results['responses/get']).toMatchObject({ id: written.responseId, value: 'heart' });
    expect(results['responses/list']).toMatchObject({ size: 5, hasMore: false });
    expect(results['responses/export']).toMatchObject({ format: 'csv', rows: 2 });
    expect(results['responses/erase']).toEqual({ erased: 1 });
    // Nothing was held: nothing to judge.
    expect(results['responses/release']).toEqual({ changed: 0 });
    expect(results['responses/discard']).toEqual({ changed: 0, more: false });
    expect(results['responses/import']).toEqual({ rows: [{ index: 0, status: 'imported', responseId: expect.any(String) }] });
    expect(results['keys/create']).toMatchObject({ level: 'viewer', label: 'client test', key: expect.any(String) });
    expect(results['responses/edit']).toMatchObject({ responseId: written.responseId });
    expect(results['responses/remove']).toBeUndefined();
    expect(Array.isArray(results['responses/getAggregates'])).toBe(true);
    expect(positional.feelbackId).toBe(positional.responseId);
    expect(results['webhooks/create']).toMatchObject({ url: receiver.url, secret: expect.stringMatching(/^whsec_/) });
    expect(results['webhooks/list']).toEqual({ items: [expect.objectContaining({ id: hook.id, description: 'via the client' })] });
    expect(results['webhooks/rotateSecret']).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    expect(results['webhooks/test']).toMatchObject({ status: 'succeeded', statusCode: 200 });
    expect(receiver.requests.map((request) => JSON.parse(request.body).type)).toEqual(['webhook.test']);
    expect(results['webhooks/deliveries']).toEqual({ items: [expect.objectContaining({ id: tested!.deliveryId, status: 'succeeded' })] });
    expect(results['webhooks/redeliver']).toMatchObject({ id: tested!.deliveryId, status: 'pending' });
    expect(results['webhooks/remove']).toBeUndefined();
    expect(results['audit/list']).toEqual({ items: [expect.objectContaining({ operation: 'webhooks/remove', targetIds: [hook.id], outcome: 'ok' })] });
    // The webhook's create, save, rotateSecret, test and remove (redeliver names the delivery).
    expect(results['audit/export']).toMatchObject({ format: 'ndjson', rows: 5 });
    expect(results['members/me']).toMatchObject({ accountId: owner.accountId, level: 'admin', key: { id: expect.any(String) } });
    expect(results['members/invitedTo']).toEqual({ accountName: expect.stringMatching(/^client-/), role: 'viewer', expiresAt: unopened.expiresAt });
    expect(results['members/renameAccount']).toEqual({ id: owner.accountId, name: 'Client docs team' });
    expect(results['members/invite']).toMatchObject({ url: expect.stringMatching(/^http:\/\/localhost:3000\/invitations#fbi_/), role: 'viewer' });
    expect(results['members/accept']).toMatchObject({ accountId: owner.accountId, role: 'viewer', person: { email: 'grace@example.com' } });
    expect(results['members/list']).toEqual({
      items: [expect.objectContaining({ role: 'owner', subject: 'ada' }), expect.objectContaining({ role: 'viewer', email: 'grace@example.com' })],
    });
    expect(results['members/remove']).toBeUndefined();
  });

  it('sends read-only calls as GET ?$p= when asked to, with the same results', async () => {
    const requests: { method: string; url: string }[] = [];
    const recording: typeof fetch = (input, init) => {
      requests.push({ method: init?.method ?? 'GET', url: String(input) });
      return fetch(input, init);
    };
    const project = await admin.projects.create({ name: 'Via GET' });
    const get = createClient({ baseUrl: `${api.baseUrl}/`, apiKey: owner.admin, readMethod: 'GET', fetch: recording });
    const post = createClient({ baseUrl: api.baseUrl, apiKey: owner.admin, fetch: recording });
    expect(await get.projects.lookup('Via GET')).toEqual(await post.projects.lookup('Via GET'));
    await get.projects.save(project.id, { name: 'Via GET, saved' });
    expect(requests.map(({ method, url }) => `${method} ${url.replace(api.baseUrl, '')}`)).toEqual([
      `GET /projects/lookup?$p=${encodeURIComponent('["Via GET"]')}`,
      'POST /projects/lookup',
      'POST /projects/save',
    ]);
  });
});

describe('failures', () => {
  it('throw ApiError with error, message, data and status', async () => {
    const failure = await viewer.projects.create({ name: 'not allowed' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ error: 'forbidden', status: 403, data: { required: 'admin', level: 'viewer' } });
    expect((failure as ApiError).message).toMatch(/admin/);

    const invalid = await admin.projects.create({ name: '' }).catch((error: unknown) => error as ApiError);
    expect(invalid).toMatchObject({ error: 'bad-request', status: 400, data: { fields: [{ path: 'args.0.name', message: expect.any(String) }] } });

    await expect(viewer.projects.get('AAAAAAAAAAAAAAAAAAAAAA')).rejects.toMatchObject({ name: 'ApiError', error: 'not-found', status: 404 });
    await expect(anonymous.projects.get('x')).rejects.toMatchObject({ error: 'unauthorized', status: 401 });
    const revoked = createClient({ baseUrl: api.baseUrl, apiKey: 'fbk_unknown' });
    await expect(revoked.responses.getAggregates('x')).rejects.toMatchObject({ error: 'unauthorized', status: 401 });
  });

  it('give up after the timeout with error timeout', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', () => listening()));
    try {
      const client = createClient({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v0`, timeout: 200 });
      const started = Date.now();
      const failure = (await client.sets.get('x').catch((error: unknown) => error)) as ApiError;
      expect(failure).toBeInstanceOf(ApiError);
      expect(failure).toMatchObject({ error: 'timeout', status: 0, data: { timeout: 200 } });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      silent.closeAllConnections();
      await new Promise((closed) => silent.close(closed));
    }
  });

  it('report answers that are not the API as unexpected-response, and no answer as network-error', async () => {
    const gateway: typeof fetch = async () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
    await expect(createClient({ baseUrl: 'http://gateway/v0', fetch: gateway }).projects.get('x')).rejects.toMatchObject({
      error: 'unexpected-response',
      status: 502,
    });
    const throttled: typeof fetch = async () => Response.json({ message: 'Too Many Requests' }, { status: 429 });
    await expect(createClient({ baseUrl: 'http://gateway/v0', fetch: throttled }).projects.get('x')).rejects.toMatchObject({
      error: 'unexpected-response',
      status: 429,
      data: { body: { message: 'Too Many Requests' } },
    });
    const closed = createClient({ baseUrl: 'http://127.0.0.1:9/v0', timeout: 2000 });
    await expect(closed.projects.get('x')).rejects.toMatchObject({ error: 'network-error', status: 0 });
  });
});
