/**
 * Webhooks end to end: the local server (the operations' Lambda handlers), DynamoDB Local's
 * real stream feeding the webhooks consumer, the local sweeper for retries, and real HTTP
 * receivers on 127.0.0.1. Signatures are checked with the `standardwebhooks` package.
 */
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
/** Each retry's wait: short, since tests wait for retries to arrive (or hold them with the sweeper stopped). */
const RETRY_MS = 300;
process.env.WEBHOOK_RETRY_SCHEDULE = [RETRY_MS, RETRY_MS, RETRY_MS].map((ms) => ms / 1000).join(',');

import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { createServer, type AddressInfo } from 'node:net';
import { LocalWebhookSweeper } from '../../local/webhook-sweeper';
import { defaultStore } from '../../functions/store/entity-store';
import { keys } from '../../functions/store/items';
import { getDelivery, getWebhook, webhookKey } from '../../functions/store/webhooks';
import { deliverStreamRecords } from '../../functions/stream/webhooks';
import { handler as sweeperHandler } from '../../functions/jobs/webhook-sweeper-handler';
import { localLambdaContext } from '../../local/lambda-context';
import { attemptDelivery } from '../../functions/webhooks/attempts';
import { nextDueAt } from '../../functions/webhooks/sweeper';
import { createAccount, createContentSet, expectError, fieldPaths, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';
import { currentShardId, streamRecord } from '../support/stream-records';
import { startReceiver, until, type Receiver, type ReceivedRequest } from '../support/webhook-receiver';

// Each test waits for real deliveries; a loaded machine (the whole suite on 2 cores) needs time.
jest.setTimeout(120_000);

const { client, documentClient, settings, store } = defaultStore();

let api: TestApi;
let sweeper: LocalWebhookSweeper;
let owner: AccountKeys;
let projectId: string;
let otherProjectId: string;
let yesNoSet: string;
const receivers: Receiver[] = [];

async function receiver(reply?: Receiver['reply']): Promise<Receiver> {
  const started = await startReceiver(reply);
  receivers.push(started);
  return started;
}

async function call<T = any>(path: string, args: unknown[], key = owner.admin) {
  return api.call<T>(path, args, { key });
}

async function ok<T = any>(path: string, args: unknown[], key = owner.admin): Promise<T> {
  const answer = await call<T>(path, args, key);
  if (answer.status !== 200 && answer.status !== 204) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function createWebhook(fields: Record<string, unknown>, key = owner.admin): Promise<{ id: string; secret: string } & Record<string, any>> {
  return ok('webhooks/create', [fields], key);
}

/** A response through the API (anonymous, as the widgets send it), counted and queued when this returns. */
async function respond(contentSetId: string, key: string, value: unknown, revokable = false) {
  const body = await ok('responses/create', [{ contentSetId, key, value, ...(revokable ? { revokable: true } : {}) }], undefined as never);
  await api.drainStream();
  return body as { responseId: string; revokable?: { token: string } };
}

function verify(request: ReceivedRequest, secret: string): any {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
}

/** Runs `work` with the sweeper stopped: no retry goes out meanwhile, whatever the machine's speed. */
async function withoutSweeper<T>(work: () => Promise<T>): Promise<T> {
  await sweeper.stop();
  try {
    return await work();
  } finally {
    sweeper.start();
  }
}

/** The stream record of a stored response's creation, as Lambda hands it over (again). */
async function creationRecord(responseId: string): Promise<DynamoDBRecord> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: settings.tableName, Key: keys.response(responseId) }));
  return streamRecord('INSERT', undefined, Item);
}

/** Sets one attribute of a stored webhook, as no operation would (a state to test against). */
async function setWebhookAttribute(id: string, name: string, value: unknown): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: settings.tableName,
      Key: webhookKey(id),
      UpdateExpression: 'SET #name = :value',
      ExpressionAttributeNames: { '#name': name },
      ExpressionAttributeValues: { ':value': value },
    }),
  );
}

const ofType = (requests: ReceivedRequest[], type: string) => requests.map((request) => JSON.parse(request.body)).filter((body) => body.type === type);

beforeAll(async () => {
  api = await startTestApi();
  sweeper = new LocalWebhookSweeper({ store, intervalMs: 100 });
  sweeper.start();
  owner = await createAccount('webhooks');
  projectId = (await ok('projects/create', [{ name: 'Hooked site' }])).id;
  otherProjectId = (await ok('projects/create', [{ name: 'Other site' }])).id;
  yesNoSet = await createContentSet(api, owner.admin, projectId, 'yes-no', { metadata: { name: 'Was this helpful?' } });
}, 60_000);

afterAll(async () => {
  await sweeper.stop();
  await api.close();
  await Promise.all(receivers.map((started) => started.close()));
});

describe('webhooks/create, get, list, save, remove', () => {
  it('answers the secret once, keeps it only encrypted, and never shows it again', async () => {
    const hook = await receiver();
    const created = await createWebhook({ url: hook.url, description: 'CRM' });
    expect(created).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      accountId: owner.accountId,
      url: hook.url,
      events: ['response.created', 'response.updated', 'response.revoked', 'response.deleted', 'content.created', 'stats.alert', 'digest.weekly'],
      format: 'standard',
      description: 'CRM',
      enabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    const { secret, ...view } = created;
    expect(await ok('webhooks/get', [created.id])).toEqual(view);
    expect((await ok('webhooks/list', [])).items).toContainEqual(view);
    // At rest: neither the secret nor its base64 body is in any item.
    const snapshot = (await tableSnapshot()).join('\n');
    expect(snapshot).not.toContain(secret.slice('whsec_'.length, 30));

    const saved = await ok('webhooks/save', [created.id, { events: ['response.created'], description: null, format: 'slack' }]);
    expect(saved).toMatchObject({ events: ['response.created'], format: 'slack', url: hook.url });
    expect(saved).not.toHaveProperty('description');
    expect(saved).not.toHaveProperty('secret');
    expect(Date.parse(saved.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));

    const removed = await call('webhooks/remove', [created.id]);
    expect([removed.status, removed.body]).toEqual([204, undefined]);
    expectError(await call('webhooks/get', [created.id]), 404, 'not-found');
    expectError(await call('webhooks/remove', [created.id]), 404, 'not-found');
  });

  it('lists page by page with a cursor, and by project', async () => {
    const account = await createAccount('webhook-pages');
    const project = (await ok('projects/create', [{ name: 'Paged' }], account.admin)).id;
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) {
      ids.push(
        (await createWebhook({ url: `http://127.0.0.1:9/hook${index}`, enabled: false, ...(index % 2 ? { projectId: project } : {}) }, account.admin)).id,
      );
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await ok('webhooks/list', [{ $size: 2, ...(cursor ? { cursor } : {}) }], account.admin);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((item: { id: string }) => item.id));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect((await ok('webhooks/list', [{ projectId: project }], account.admin)).items.map((item: { id: string }) => item.id)).toEqual([ids[1], ids[3]]);
    expectError(await call('webhooks/list', [{ cursor: 'bm90IGEgY3Vyc29y' }], account.admin), 400, 'bad-request');
  });

  it('allows 20 webhooks per account; the 21st is a conflict and stores nothing', async () => {
    const account = await createAccount('webhook-limit');
    for (let index = 0; index < 20; index++) await createWebhook({ url: `http://127.0.0.1:9/${index}`, enabled: false }, account.admin);
    const before = await tableSnapshot();
    expectError(await call('webhooks/create', [{ url: 'http://127.0.0.1:9/21' }], account.admin), 409, 'conflict');
    expect(await tableSnapshot()).toEqual(before);
    // Removing one makes room again.
    const [first] = (await ok('webhooks/list', [{ $size: 1 }], account.admin)).items;
    await ok('webhooks/remove', [first.id], account.admin);
    await createWebhook({ url: 'http://127.0.0.1:9/21', enabled: false }, account.admin);
  });
});

describe('bad input', () => {
  it('is refused with bad-request or not-found, and nothing is stored', async () => {
    const foreign = await createAccount('webhook-foreign');
    const foreignProject = (await ok('projects/create', [{ name: 'Not yours' }], foreign.admin)).id;
    const before = await tableSnapshot();
    const refusals: [unknown[], number, string, string?][] = [
      [[{ url: 'not a url' }], 400, 'bad-request', 'args.0.url'],
      [[{ url: 'ftp://127.0.0.1/x' }], 400, 'bad-request', 'args.0.url'],
      [[{ url: `https://127.0.0.1/${'x'.repeat(2048)}` }], 400, 'bad-request', 'args.0.url'],
      [[{ url: 'http://user:pw@127.0.0.1/hook' }], 400, 'bad-request', 'args.0.url'],
      [[{ url: 'http://127.0.0.1/hook', events: ['response.exploded'] }], 400, 'bad-request', 'args.0.events.0'],
      [[{ url: 'http://127.0.0.1/hook', events: [] }], 400, 'bad-request', 'args.0.events'],
      [[{ url: 'http://127.0.0.1/hook', events: ['webhook.test'] }], 400, 'bad-request', 'args.0.events.0'],
      [[{ url: 'http://127.0.0.1/hook', format: 'teams' }], 400, 'bad-request', 'args.0.format'],
      [[{ url: 'http://127.0.0.1/hook', secret: 'mine' }], 400, 'bad-request'],
      [[{ url: 'http://127.0.0.1/hook', projectId: foreignProject }], 404, 'not-found'],
      [[], 400, 'bad-request'],
    ];
    for (const [args, status, code, path] of refusals) {
      const answer = await call('webhooks/create', args);
      expectError(answer, status, code);
      if (path) expect(fieldPaths(answer)).toContain(path);
    }
    expect(await tableSnapshot()).toEqual(before);
    const hook = await createWebhook({ url: 'http://127.0.0.1:9/keep', enabled: false });
    const snapshot = await tableSnapshot();
    expectError(await call('webhooks/save', [hook.id, { url: 'nope' }]), 400, 'bad-request');
    expectError(await call('webhooks/save', [hook.id, { projectId: foreignProject }]), 404, 'not-found');
    expectError(await call('webhooks/save', [hook.id, { events: ['nope'] }]), 400, 'bad-request');
    expectError(await call('webhooks/deliveries', [{ webhookId: hook.id, status: 'lost' }]), 400, 'bad-request');
    expect(await tableSnapshot()).toEqual(snapshot);
    await ok('webhooks/remove', [hook.id]);
  });

  it('refuses loopback, private, link-local and unique-local targets and plain http where private targets are not allowed', async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    try {
      const before = await tableSnapshot();
      for (const url of [
        'http://127.0.0.1/hook',
        'https://127.0.0.1/hook',
        'https://10.1.2.3/hook',
        'https://192.168.0.10/hook',
        'https://172.16.5.4/hook',
        'https://169.254.169.254/latest/meta-data/',
        'https://[::1]/hook',
        'https://[fd00::1]/hook',
        'https://[::ffff:127.0.0.1]/hook',
        'https://0.0.0.0/hook',
        'https://localhost/hook',
      ]) {
        const answer = await call('webhooks/create', [{ url }]);
        expect({ url, status: answer.status, error: answer.body.error }).toEqual({ url, status: 400, error: 'bad-request' });
        expect(fieldPaths(answer)).toEqual(['args.0.url']);
      }
      expect(await tableSnapshot()).toEqual(before);
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    }
  });

  it('test: answers only the refusal for a private target where private targets are not allowed, never connecting', async () => {
    const connections: string[] = [];
    const listener = createServer((socket) => {
      connections.push(String(socket.remoteAddress));
      socket.end('HTTP/1.1 500 Internal Server Error\r\ncontent-length: 6\r\n\r\nsecret');
    });
    await new Promise<void>((listening) => listener.listen(0, '127.0.0.1', () => listening()));
    const { port } = listener.address() as AddressInfo;
    // Created while allowed (npm start), tested after: at the literal address, and by a name resolving to it.
    const literal = await createWebhook({ url: `https://127.0.0.1:${port}/hook` });
    const named = await createWebhook({ url: `https://localhost:${port}/hook` });
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
    try {
      expect(await ok('webhooks/test', [literal.id])).toEqual({
        deliveryId: expect.any(String),
        status: 'failed',
        error: 'refused: the URL must not target a private, loopback or link-local address (127.0.0.1)',
        durationMs: 0,
      });
      expect(await ok('webhooks/test', [named.id])).toEqual({
        deliveryId: expect.any(String),
        status: 'failed',
        error: expect.stringMatching(/^localhost resolves to a non-public address \(.+\); refused$/),
        durationMs: 0,
      });
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
      await new Promise((closed) => listener.close(closed));
    }
    expect(connections).toEqual([]);
    await ok('webhooks/remove', [literal.id]);
    await ok('webhooks/remove', [named.id]);
  });
});

describe('isolation between accounts', () => {
  it("answers not-found for another account's webhooks and deliveries in every operation, and never lists them", async () => {
    const hook = await receiver();
    const mine = await createWebhook({ url: hook.url, projectId });
    const { deliveryId } = await ok('webhooks/test', [mine.id]);
    const stranger = await createAccount('webhook-stranger');
    const before = await tableSnapshot();
    for (const [path, args] of [
      ['webhooks/get', [mine.id]],
      ['webhooks/save', [mine.id, { enabled: false }]],
      ['webhooks/remove', [mine.id]],
      ['webhooks/rotateSecret', [mine.id]],
      ['webhooks/test', [mine.id]],
      ['webhooks/deliveries', [{ webhookId: mine.id }]],
      ['webhooks/redeliver', [deliveryId]],
    ] as const) {
      expectError(await call(path, [...args], stranger.admin), 404, 'not-found');
    }
    expect((await ok('webhooks/list', [], stranger.admin)).items).toEqual([]);
    expectError(await call('webhooks/create', [{ url: hook.url, projectId }], stranger.admin), 404, 'not-found');
    expect(await tableSnapshot()).toEqual(before);
    // Admin only: a viewer key is forbidden, no key is unauthorized.
    expectError(await call('webhooks/get', [mine.id], owner.viewer), 403, 'forbidden');
    expectError(await call('webhooks/list', [], owner.viewer), 403, 'forbidden');
    expectError(await api.call('webhooks/list', []), 401, 'unauthorized');
    expect(hook.requests).toHaveLength(1);
    await ok('webhooks/remove', [mine.id]);
  });
});

describe('events', () => {
  it('a response created, edited, removed and erased: four events with the right payloads and verified Standard Webhooks signatures', async () => {
    const hook = await receiver();
    const { id, secret } = await createWebhook({ url: hook.url, projectId });
    const contentKey = `https://example.com/page-${Date.now()}`;
    const created = await respond(yesNoSet, contentKey, 'yes', true);
    const startedAt = Date.now();
    await hook.waitFor(2);
    const answer = await ok('responses/get', [created.responseId], owner.viewer);
    const item = await ok('contents/get', [answer.contentItemId], owner.viewer);

    for (const request of hook.requests) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^FeedbackService-Webhooks\//);
      expect(request.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - startedAt / 1000)).toBeLessThan(30);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      verify(request, secret);
    }
    expect(() => verify(hook.requests[0], `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toThrow(/signature/i);
    const [createdEvent] = ofType(hook.requests, 'response.created');
    expect(createdEvent).toEqual({
      type: 'response.created',
      timestamp: answer.createdAt,
      data: {
        response: answer,
        contentItem: { id: item.id, key: contentKey, metadata: item.metadata },
        contentSet: { id: yesNoSet, key: expect.stringMatching(/^yes-no-/), name: 'Was this helpful?', schema: 'yes-no' },
        project: { id: projectId, name: 'Hooked site' },
      },
    });
    // The item was made by the response: content.created, with the same subjects.
    expect(ofType(hook.requests, 'content.created')).toEqual([
      {
        type: 'content.created',
        timestamp: item.createdAt,
        data: {
          contentItem: { id: item.id, key: contentKey, metadata: item.metadata },
          contentSet: createdEvent.data.contentSet,
          project: createdEvent.data.project,
        },
      },
    ]);

    await ok('responses/edit', [{ responseId: created.responseId, revokeToken: created.revokable!.token, value: 'no' }], undefined as never);
    await api.drainStream();
    await hook.waitFor(3);
    const [updated] = ofType(hook.requests, 'response.updated');
    verify(hook.requests[2], secret);
    expect(updated.data.response).toEqual(await ok('responses/get', [created.responseId], owner.viewer));
    expect(updated.data.response.value).toBe('n');
    expect(updated.data.previous).toEqual({ value: 'y' });

    await ok('responses/remove', [{ responseId: created.responseId, revokeToken: created.revokable!.token }], undefined as never);
    await api.drainStream();
    await hook.waitFor(4);
    const [revoked] = ofType(hook.requests, 'response.revoked');
    expect(revoked.data.response).toMatchObject({ id: created.responseId, state: 'revoked', value: 'n' });
    expect(revoked.data).not.toHaveProperty('previous');

    // Erasure (the data-rights operation deletes the item): ids only, no value or context.
    await documentClient.send(new DeleteCommand({ TableName: settings.tableName, Key: { pk: `response#${created.responseId}`, sk: 'response' } }));
    await api.drainStream();
    await hook.waitFor(5);
    const [deleted] = ofType(hook.requests, 'response.deleted');
    expect(deleted.data).toEqual({
      response: { id: created.responseId, accountId: owner.accountId, projectId, contentSetId: yesNoSet, contentItemId: item.id },
      contentItem: { id: item.id },
      contentSet: { id: yesNoSet },
      project: { id: projectId },
    });
    // Every event went once, each with its own webhook-id. The log keeps one succeeded delivery
    // per event but those whose bodies held the erased response (see the erasure test below).
    expect(new Set(hook.requests.map((request) => request.headers['webhook-id'])).size).toBe(5);
    const log = await ok('webhooks/deliveries', [{ webhookId: id }]);
    expect(log.items.map((delivery: { eventType: string }) => delivery.eventType).sort()).toEqual(['content.created', 'response.deleted']);
    for (const delivery of log.items) expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 200 });
    await ok('webhooks/remove', [id]);
  });

  it('a redelivered stream batch queues nothing twice for the same endpoint', async () => {
    const hook = await receiver();
    const { id } = await createWebhook({ url: hook.url, events: ['response.created'] });
    const { responseId } = await respond(yesNoSet, `replay-${Date.now()}`, 'yes');
    await hook.waitFor(1);
    // The same record again, as Lambda redelivers it (a retried, bisected or replayed batch).
    const record = await creationRecord(responseId);
    record.dynamodb!.SequenceNumber = '1';
    for (const batch of [[record], [record, record], [record]]) {
      expect(await deliverStreamRecords(store, await currentShardId(client, settings.tableName), batch)).toEqual({ batchItemFailures: [] });
    }
    await hook.waitFor(2);
    await new Promise((wait) => setTimeout(wait, 500));
    // One delivery for the live record, one for the replayed id: never two for one record.
    expect(hook.requests).toHaveLength(2);
    expect((await ok('webhooks/deliveries', [{ webhookId: id }])).items).toHaveLength(2);
    await ok('webhooks/remove', [id]);
  });

  it("a site's server answer without a message is announced without waiting for the screening; a visitor's waits for its verdict", async () => {
    const hook = await receiver();
    const { id } = await createWebhook({ url: hook.url, events: ['response.created'] });
    const fromServer = await ok('responses/create', [{ contentSetId: yesNoSet, key: `server-${Date.now()}`, value: 'yes' }]);
    const fromVisitor = (await api.call('responses/create', [{ contentSetId: yesNoSet, key: `visitor-${Date.now()}`, value: 'yes' }])).body;
    await api.drainStream();
    await hook.waitFor(2);
    // Each again as a record the counting consumer has not screened yet (a sequence number past
    // every watermark on the shard), handed over with no time to wait for verdicts.
    const shardId = await currentShardId(client, settings.tableName);
    const unscreened = async (responseId: string): Promise<DynamoDBRecord> => {
      const record = await creationRecord(responseId);
      record.dynamodb!.SequenceNumber = '9'.repeat(40);
      return record;
    };
    const serverRecord = await unscreened(fromServer.responseId);
    expect(serverRecord.dynamodb!.NewImage).not.toHaveProperty('visitor');
    expect(await deliverStreamRecords(store, shardId, [serverRecord], { verdictWaitMs: 0 })).toEqual({ batchItemFailures: [] });
    await hook.waitFor(3);
    expect(JSON.parse(hook.requests[2].body).data.response.id).toBe(fromServer.responseId);

    const visitorRecord = await unscreened(fromVisitor.responseId);
    expect(visitorRecord.dynamodb!.NewImage).toHaveProperty('visitor');
    // Not screened: handed back to come again, and nothing queued meanwhile.
    expect(await deliverStreamRecords(store, shardId, [visitorRecord], { verdictWaitMs: 0 })).toEqual({
      batchItemFailures: [{ itemIdentifier: '9'.repeat(40) }],
    });
    expect((await ok('webhooks/deliveries', [{ webhookId: id }])).items).toHaveLength(3);
    await ok('webhooks/remove', [id]);
  });

  describe('a first attempt from the stream consumer', () => {
    /** A site's server answer (nothing to screen), handed to the consumer as a new record of its own after `setUp`, which may subscribe. */
    const freshRecord = async (setUp: () => Promise<void>) => {
      const { responseId } = await ok('responses/create', [{ contentSetId: yesNoSet, key: `first-attempt-${Date.now()}`, value: 'yes' }]);
      await api.drainStream();
      await setUp();
      return { responseId, record: await creationRecord(responseId), shardId: await currentShardId(client, settings.tableName) };
    };

    it('goes out before its delivery is stored, which is then written once with the outcome', async () => {
      const storedAtRequest: Promise<unknown>[] = [];
      // While the request is open (100 ms), the delivery named by its webhook-id is looked up.
      const hook = await receiver((request) => {
        storedAtRequest.push(getDelivery(store, String(request.headers['webhook-id']).slice('msg_'.length)));
        return { status: 200, delayMs: 100 };
      });
      let webhookId = '';
      const { responseId, record, shardId } = await freshRecord(async () => {
        webhookId = (await createWebhook({ url: hook.url, events: ['response.created'] })).id;
      });
      expect(await deliverStreamRecords(store, shardId, [record])).toEqual({ batchItemFailures: [] });
      expect(hook.requests).toHaveLength(1);
      expect(JSON.parse(hook.requests[0].body).data.response.id).toBe(responseId);
      expect(await Promise.all(storedAtRequest)).toEqual([undefined]);
      const deliveryId = String(hook.requests[0].headers['webhook-id']).slice('msg_'.length);
      const stored = await getDelivery(store, deliveryId);
      expect(stored).toMatchObject({ id: deliveryId, webhookId, status: 'succeeded', attempts: 1, lastStatusCode: 200 });
      expect(stored).not.toHaveProperty('leaseToken');
      // The same batch again: found stored, not sent twice.
      expect(await deliverStreamRecords(store, shardId, [record])).toEqual({ batchItemFailures: [] });
      expect(hook.requests).toHaveLength(1);
      await ok('webhooks/remove', [webhookId]);
    });

    it('is stored queued, due now, for the sweeper when its time is up or its endpoint cannot be signed for', async () => {
      const hook = await receiver();
      let webhookId = '';
      const late = await freshRecord(async () => {
        webhookId = (await createWebhook({ url: hook.url, events: ['response.created'] })).id;
      });
      const queued = await withoutSweeper(async () => {
        expect(await deliverStreamRecords(store, late.shardId, [late.record], { attemptBudgetMs: 0 })).toEqual({ batchItemFailures: [] });
        expect(hook.requests).toHaveLength(0);
        const [delivery] = (await ok('webhooks/deliveries', [{ webhookId }])).items;
        return delivery;
      });
      expect(queued).toMatchObject({ status: 'pending', attempts: 0 });
      expect(Date.parse(queued.nextAttemptAt)).toBeLessThanOrEqual(Date.now());
      expect(await getDelivery(store, queued.id)).not.toHaveProperty('leaseToken');
      // The sweeper sends it.
      await hook.waitFor(1);
      expect(JSON.parse(hook.requests[0].body).data.response.id).toBe(late.responseId);

      await ok('webhooks/remove', [webhookId]);

      // An endpoint whose secret does not open (as after a change of the sealing key): nothing sent, the delivery queued all the same.
      const unsignedHook = await receiver();
      let unsignedId = '';
      const unsigned = await freshRecord(async () => {
        unsignedId = (await createWebhook({ url: unsignedHook.url, events: ['response.created'] })).id;
        await setWebhookAttribute(unsignedId, 'secret', 'not-sealed');
      });
      const unsent = await withoutSweeper(async () => {
        expect(await deliverStreamRecords(store, unsigned.shardId, [unsigned.record])).toEqual({ batchItemFailures: [] });
        const items = (await ok('webhooks/deliveries', [{ webhookId: unsignedId }])).items;
        // Removed before the sweeper runs again, which then drops the delivery (rather than hold it, failing, for a lease).
        await ok('webhooks/remove', [unsignedId]);
        return items;
      });
      expect(unsignedHook.requests).toHaveLength(0);
      expect(unsent).toEqual([expect.objectContaining({ status: 'pending', attempts: 0 })]);
      await until(async () => (await getDelivery(store, unsent[0].id)) === undefined, 30_000, 'delivery dropped');
    });
  });

  it("responses/erase deletes the deliveries whose bodies held the person's responses; response.deleted (ids only) and other responses' deliveries stay", async () => {
    const hook = await receiver();
    const { id } = await createWebhook({ url: hook.url, projectId, events: ['response.created', 'response.updated', 'response.revoked', 'response.deleted'] });
    const person = `person-${Date.now()}`;
    // In the erased response's context only: found nowhere in the table once it is erased.
    const mark = `erase-me-${Date.now()}`;
    const answer = async (user: string, note: string) => {
      const body = await ok(
        'responses/create',
        [{ contentSetId: yesNoSet, key: `page-of-${user}`, value: 'yes', revokable: true, context: { $user: user, note } }],
        undefined as never,
      );
      await api.drainStream();
      return body as { responseId: string; revokable: { token: string } };
    };
    const erased = await answer(person, mark);
    const kept = await answer(`someone-else-${Date.now()}`, `keep-${Date.now()}`);
    await ok('responses/edit', [{ responseId: erased.responseId, revokeToken: erased.revokable.token, value: 'no' }], undefined as never);
    await api.drainStream();
    await ok('responses/remove', [{ responseId: erased.responseId, revokeToken: erased.revokable.token }], undefined as never);
    await api.drainStream();
    await hook.waitFor(4);
    // Outcomes recorded (a receiver gets the request before its outcome is written): the records read below are final.
    const settled = async () => (await ok('webhooks/deliveries', [{ webhookId: id }])).items as { id: string; eventType: string; status: string }[];
    await until(async () => (await settled()).every((delivery) => delivery.status === 'succeeded'));
    const before = await settled();
    expect(before.map((delivery) => delivery.eventType).sort()).toEqual(['response.created', 'response.created', 'response.revoked', 'response.updated']);
    const records = await Promise.all(before.map((delivery) => getDelivery(store, delivery.id)));
    const ofErased = records.filter((record) => record!.body.includes(erased.responseId)).map((record) => record!);
    const ofKept = records.filter((record) => record!.body.includes(kept.responseId)).map((record) => record!);
    expect([ofErased.length, ofKept.length]).toEqual([3, 1]);
    expect(ofErased.every((record) => record.body.includes(mark))).toBe(true);
    const image = (await documentClient.send(new GetCommand({ TableName: settings.tableName, Key: { pk: `response#${erased.responseId}`, sk: 'response' } })))
      .Item!;

    expect(await ok('responses/erase', [{ userId: person }])).toEqual({ erased: 1, more: false });
    await api.drainStream();
    await hook.waitFor(5);
    const [deleted] = ofType(hook.requests, 'response.deleted');
    expect(deleted.data.response).toEqual({
      id: erased.responseId,
      accountId: owner.accountId,
      projectId,
      contentSetId: yesNoSet,
      contentItemId: image.contentItemId,
    });

    // Read from the table: the three deliveries and their pointers are gone, and the erased
    // context is nowhere; the kept response's delivery is as it was.
    for (const record of ofErased) expect(await getDelivery(store, record.id)).toBeUndefined();
    const pointers = async (responseId: string) =>
      (
        await documentClient.send(
          new QueryCommand({
            TableName: settings.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': `delivery-of#${responseId}` },
          }),
        )
      ).Items ?? [];
    expect(await pointers(erased.responseId)).toEqual([]);
    expect((await pointers(kept.responseId)).map((pointer) => pointer.sk)).toEqual([ofKept[0].id]);
    expect(await getDelivery(store, ofKept[0].id)).toEqual(ofKept[0]);
    expect((await tableSnapshot()).filter((item) => item.includes(mark))).toEqual([]);
    const after = await settled();
    expect(after.map((delivery) => delivery.eventType).sort()).toEqual(['response.created', 'response.deleted']);
    const deletedDelivery = await getDelivery(store, after.find((delivery) => delivery.eventType === 'response.deleted')!.id);
    expect(JSON.parse(deletedDelivery!.body).data).toEqual(deleted.data);
    expect(deletedDelivery).not.toHaveProperty('responseId');

    // A sweeper that claimed a delivery before the erasure records nothing afterwards (its writes
    // are conditional on its lease, which went with the item) and recreates nothing.
    const webhook = await getWebhook(store, id);
    const summary = await attemptDelivery(store, { ...ofErased[0], leaseToken: 'claimed-before-erasure' }, webhook, () => new Date());
    expect(summary.status).toBe('lost');
    expect(await getDelivery(store, ofErased[0].id)).toBeUndefined();
    // Redelivering an erased delivery finds nothing.
    expectError(await call('webhooks/redeliver', [ofErased[0].id]), 404, 'not-found');

    // Redelivered stream records: the REMOVE again, and the INSERT with the REMOVE in one batch
    // (a replay goes forward from a position, so the REMOVE follows): nothing of the erased
    // response is queued again, nor sent.
    const sent = hook.requests.length;
    const keys = marshall({ pk: image.pk, sk: image.sk }) as never;
    const insert: DynamoDBRecord = {
      eventID: `replayed-insert-${erased.responseId}`,
      eventName: 'INSERT',
      dynamodb: { Keys: keys, NewImage: marshall(image) as never, SequenceNumber: '1' },
    };
    const remove: DynamoDBRecord = {
      eventID: `replayed-remove-${erased.responseId}`,
      eventName: 'REMOVE',
      dynamodb: { Keys: keys, OldImage: marshall(image) as never, SequenceNumber: '2' },
    };
    for (const batch of [[remove], [insert, remove], [remove]]) {
      expect(await deliverStreamRecords(store, await currentShardId(client, settings.tableName), batch)).toEqual({ batchItemFailures: [] });
    }
    await until(() => ofType(hook.requests, 'response.deleted').length >= 2);
    await new Promise((wait) => setTimeout(wait, 500));
    expect(ofType(hook.requests.slice(sent), 'response.created')).toEqual([]);
    expect(await pointers(erased.responseId)).toEqual([]);
    expect((await tableSnapshot()).filter((item) => item.includes(mark))).toEqual([]);
    await ok('webhooks/remove', [id]);
  });

  it('disabled, removed and other-project webhooks receive nothing; subscribed types only', async () => {
    const control = await receiver();
    const others = [await receiver(), await receiver(), await receiver(), await receiver()];
    const controlHook = await createWebhook({ url: control.url, events: ['response.created'] });
    const disabled = await createWebhook({ url: others[0].url, enabled: false });
    const removed = await createWebhook({ url: others[1].url });
    await ok('webhooks/remove', [removed.id]);
    const otherProject = await createWebhook({ url: others[2].url, projectId: otherProjectId });
    const contentOnly = await createWebhook({ url: others[3].url, events: ['content.created'] });
    const existing = (await ok('contents/create', [{ contentSetId: yesNoSet, key: `existing-${Date.now()}` }])).key;
    await api.drainStream();
    await others[3].waitFor(1);
    await respond(yesNoSet, existing, 'no');
    await control.waitFor(1);
    await new Promise((wait) => setTimeout(wait, 800));
    expect(control.requests).toHaveLength(1);
    expect(JSON.parse(control.requests[0].body).type).toBe('response.created');
    expect(others.slice(0, 3).map((started) => started.requests.length)).toEqual([0, 0, 0]);
    expect(others[3].requests.map((request) => JSON.parse(request.body).type)).toEqual(['content.created']);
    for (const hook of [controlHook, disabled, otherProject, contentOnly]) await ok('webhooks/remove', [hook.id]);
  });

  it("the console's live preview (its embed page's item) is announced to no webhook: created, revoked, erased", async () => {
    const hooked = await receiver();
    const hook = await createWebhook({ url: hooked.url });
    const otherYesNoSet = await createContentSet(api, owner.admin, projectId, 'yes-no');
    await api.drainStream();
    const previewKey = `http://localhost:3000/sets/${yesNoSet}/embed`;
    const preview = await respond(yesNoSet, previewKey, 'yes', true);
    await api.call('responses/remove', [{ responseId: preview.responseId, revokeToken: preview.revokable!.token }]);
    await ok('responses/erase', [{ responseIds: [preview.responseId] }]);
    // The same address answered on another set is no preview of that set: announced.
    const elsewhere = previewKey;
    await respond(otherYesNoSet, elsewhere, 'no');
    await api.drainStream();
    await hooked.waitFor(2);
    await new Promise((wait) => setTimeout(wait, 800));
    const announced = hooked.requests.map((request) => JSON.parse(request.body) as { type: string; data: { contentItem?: { key: string } } });
    expect(announced.map((body) => [body.type, body.data.contentItem?.key]).sort()).toEqual([
      ['content.created', elsewhere],
      ['response.created', elsewhere],
    ]);
    await ok('webhooks/remove', [hook.id]);
  });
});

describe('delivery', () => {
  it('retries 500, 500, then 200: three attempts with one webhook-id, in the delivery log', async () => {
    const hook = await receiver((_request, index) => (index < 2 ? { status: 500, body: 'database down' } : 200));
    const { id, secret } = await createWebhook({ url: hook.url, events: ['response.created'] });
    // The consumer's first attempt fails; with the sweeper stopped, the retry waits.
    const pending = await withoutSweeper(async () => {
      await respond(yesNoSet, `retry-${Date.now()}`, 'yes');
      await hook.waitFor(1);
      return (await ok('webhooks/deliveries', [{ webhookId: id }])).items[0];
    });
    expect(pending).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: 500,
      // A receiver at a non-public address (allowed here) is reported by its status code alone.
      lastError: 'HTTP 500',
      nextAttemptAt: expect.any(String),
    });
    const requests = await hook.waitFor(3);
    await until(async () => (await ok('webhooks/deliveries', [{ webhookId: id }])).items[0].status === 'succeeded', 60_000, 'success recorded');
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
    for (const request of requests) verify(request, secret);
    // The schedule (RETRY_MS, jittered by 10%) between attempts.
    expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(RETRY_MS * 0.9 - 50);
    const [delivery] = (await ok('webhooks/deliveries', [{ webhookId: id }])).items;
    expect(delivery).toEqual({
      id: expect.any(String),
      webhookId: id,
      eventId: expect.stringMatching(/^evt_/),
      eventType: 'response.created',
      status: 'succeeded',
      attempts: 3,
      lastStatusCode: 200,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(requests[0].headers['webhook-id']).toBe(`msg_${delivery.id}`);
    expect((await ok('webhooks/deliveries', [{ webhookId: id, status: 'failed' }])).items).toEqual([]);
    expect((await ok('webhooks/get', [id])).enabled).toBe(true);
    await ok('webhooks/remove', [id]);
  });

  it('the sweeper function (AWS): sleeps until a retry falls due within its window, sends it, and stops when nothing is due', async () => {
    await sweeper.stop();
    try {
      const hook = await receiver((_request, index) => (index === 0 ? 500 : 200));
      const { id } = await createWebhook({ url: hook.url, events: ['response.created'] });
      await respond(yesNoSet, `lambda-sweeper-${Date.now()}`, 'yes');
      await hook.waitFor(1);
      const [pending] = (await ok('webhooks/deliveries', [{ webhookId: id }])).items;
      expect((await nextDueAt(store))?.toISOString()).toBe(pending.nextAttemptAt);
      const started = Date.now();
      const result = await sweeperHandler({} as never, localLambdaContext('sweeper'));
      expect(result).toEqual({ claimed: 1 });
      expect(hook.requests).toHaveLength(2);
      expect(hook.requests[1].at).toBeGreaterThanOrEqual(Date.parse(pending.nextAttemptAt));
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(await nextDueAt(store)).toBeUndefined();
      await ok('webhooks/remove', [id]);
    } finally {
      sweeper.start();
    }
  });

  it('gives up after the last retry: failed, with the last error', async () => {
    const hook = await receiver(() => ({ status: 503, body: 'maintenance' }));
    const { id } = await createWebhook({ url: hook.url, events: ['response.created'] });
    await respond(yesNoSet, `fail-${Date.now()}`, 'yes');
    await hook.waitFor(4);
    await until(async () => (await ok('webhooks/deliveries', [{ webhookId: id }])).items[0].status === 'failed', 60_000, 'failure recorded');
    const [delivery] = (await ok('webhooks/deliveries', [{ webhookId: id, status: 'failed' }])).items;
    expect(delivery).toMatchObject({ status: 'failed', attempts: 4, lastStatusCode: 503, lastError: 'HTTP 503' });
    expect(delivery).not.toHaveProperty('nextAttemptAt');
    // A retry, were one scheduled, would have come: over three of the schedule's waits and a few sweeps.
    await new Promise((wait) => setTimeout(wait, 3 * RETRY_MS + 300));
    expect(hook.requests).toHaveLength(4);
    await ok('webhooks/remove', [id]);
  });

  it('does not follow redirects, and counts them as failures', async () => {
    const hook = await receiver(() => ({ status: 302, headers: { location: 'http://127.0.0.1:9/elsewhere' } }));
    const { id } = await createWebhook({ url: hook.url, events: ['response.created'] });
    await respond(yesNoSet, `redirect-${Date.now()}`, 'yes');
    await until(async () => (await ok('webhooks/deliveries', [{ webhookId: id }])).items[0]?.status === 'failed', 60_000, 'failure recorded');
    const [delivery] = (await ok('webhooks/deliveries', [{ webhookId: id }])).items;
    expect(delivery).toMatchObject({ attempts: 1, lastStatusCode: 302, lastError: 'HTTP 302' });
    expect(hook.requests).toHaveLength(1);
    await ok('webhooks/remove', [id]);
  });

  it('410 disables the endpoint at once; re-enabling clears the reason', async () => {
    const hook = await receiver((_request, index) => (index === 0 ? 410 : 200));
    const { id } = await createWebhook({ url: hook.url, events: ['response.created'] });
    await respond(yesNoSet, `gone-${Date.now()}`, 'yes');
    await hook.waitFor(1);
    await until(async () => (await ok('webhooks/get', [id])).enabled === false, 60_000, 'endpoint disabled');
    const disabled = await ok('webhooks/get', [id]);
    expect(disabled.disabledReason).toMatch(/410/);
    expect((await ok('webhooks/deliveries', [{ webhookId: id }])).items[0]).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 410 });
    await respond(yesNoSet, `gone-again-${Date.now()}`, 'yes');
    await new Promise((wait) => setTimeout(wait, 500));
    expect(hook.requests).toHaveLength(1);
    // A disabled endpoint's deliveries cannot be redelivered until it is enabled again.
    const [failed] = (await ok('webhooks/deliveries', [{ webhookId: id }])).items;
    expectError(await call('webhooks/redeliver', [failed.id]), 409, 'conflict');
    const enabled = await ok('webhooks/save', [id, { enabled: true }]);
    expect(enabled.enabled).toBe(true);
    expect(enabled).not.toHaveProperty('disabledReason');
    await respond(yesNoSet, `back-${Date.now()}`, 'yes');
    await hook.waitFor(2);
    await ok('webhooks/remove', [id]);
  });

  it('drops the pending deliveries of a removed webhook', async () => {
    const hook = await receiver(() => 500);
    const { id } = await createWebhook({ url: hook.url, events: ['response.created'] });
    const pending = await withoutSweeper(async () => {
      await respond(yesNoSet, `dropped-${Date.now()}`, 'yes');
      await hook.waitFor(1);
      const [delivery] = (await ok('webhooks/deliveries', [{ webhookId: id }])).items;
      expect(delivery.status).toBe('pending');
      await ok('webhooks/remove', [id]);
      return delivery;
    });
    await until(async () => (await getDelivery(store, pending.id)) === undefined, 60_000, 'delivery dropped');
    expect(hook.requests).toHaveLength(1);
  });

  it('rotateSecret: for 24 hours deliveries verify with the new and the old secret, then with the new one only', async () => {
    const hook = await receiver();
    const { id, secret: old } = await createWebhook({ url: hook.url, events: ['response.created'] });
    const rotated = await ok('webhooks/rotateSecret', [id]);
    expect(rotated).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.secret).not.toBe(old);
    expect(await ok('webhooks/get', [id])).not.toHaveProperty('secret');
    await respond(yesNoSet, `rotated-${Date.now()}`, 'yes');
    const [overlap] = await hook.waitFor(1);
    expect(String(overlap.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(overlap, rotated.secret).type).toBe('response.created');
    expect(verify(overlap, old).type).toBe('response.created');
    // The overlap ends after 24 hours: move its end into the past.
    await setWebhookAttribute(id, 'previousSecretUntil', '2000-01-01T00:00:00.000Z');
    await respond(yesNoSet, `rotated-later-${Date.now()}`, 'yes');
    const [, after] = await hook.waitFor(2);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(after, rotated.secret).type).toBe('response.created');
    expect(() => verify(after, old)).toThrow(/signature/i);
    await ok('webhooks/remove', [id]);
  });

  it('redeliver: the same event to the same endpoint again, with the same webhook-id', async () => {
    const hook = await receiver();
    const { id, secret } = await createWebhook({ url: hook.url, events: ['response.created'] });
    await respond(yesNoSet, `redeliver-${Date.now()}`, 'yes');
    const [first] = await hook.waitFor(1);
    const [delivery] = (await ok('webhooks/deliveries', [{ webhookId: id }])).items;
    const queued = await ok('webhooks/redeliver', [delivery.id]);
    expect(queued).toMatchObject({ id: delivery.id, status: 'pending', attempts: 1, nextAttemptAt: expect.any(String) });
    const [, again] = await hook.waitFor(2);
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(again.body).toBe(first.body);
    verify(again, secret);
    await until(async () => (await ok('webhooks/deliveries', [{ webhookId: id }])).items[0].attempts === 2, 60_000, 'second attempt recorded');
    expect((await ok('webhooks/deliveries', [{ webhookId: id }])).items[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    expectError(await call('webhooks/redeliver', ['AAAAAAAAAAAAAAAAAAAAAA']), 404, 'not-found');
    await ok('webhooks/remove', [id]);
  });

  it('test: sends one webhook.test now and answers the outcome, without retries', async () => {
    const internal = { status: 500, headers: { 'x-internal': 'secret-header', location: 'http://10.0.0.1/' }, body: 'secret internal detail' };
    const hook = await receiver((_request, index) => (index === 0 ? 200 : internal));
    const { id, secret } = await createWebhook({ url: hook.url });
    const passed = await ok('webhooks/test', [id]);
    // The receiver is at a non-public address (allowed here): its status code only, no timing.
    expect(passed).toEqual({ deliveryId: expect.any(String), status: 'succeeded', statusCode: 200, durationMs: 0 });
    const [request] = await hook.waitFor(1);
    expect(verify(request, secret)).toEqual({ type: 'webhook.test', timestamp: expect.any(String), data: { webhook: { id, accountId: owner.accountId } } });
    expect(request.headers['webhook-id']).toBe(`msg_${passed.deliveryId}`);
    const failed = await ok('webhooks/test', [id]);
    expect(failed).toEqual({ deliveryId: expect.any(String), status: 'failed', statusCode: 500, error: 'HTTP 500', durationMs: 0 });
    // A retry, were one scheduled, would have come: over three of the schedule's waits and a few sweeps.
    await new Promise((wait) => setTimeout(wait, 3 * RETRY_MS + 300));
    expect(hook.requests).toHaveLength(2);
    const log = (await ok('webhooks/deliveries', [{ webhookId: id }])).items;
    expect(log.map((delivery: { eventType: string; status: string }) => [delivery.eventType, delivery.status])).toEqual([
      ['webhook.test', 'failed'],
      ['webhook.test', 'succeeded'],
    ]);
    expect(JSON.stringify(log)).not.toMatch(/secret|10\.0\.0\.1|Internal Server Error/);
    // Nobody listening: a network error, reported.
    const closed = await createWebhook({ url: 'http://127.0.0.1:9/nobody', enabled: false });
    expect(await ok('webhooks/test', [closed.id])).toMatchObject({ status: 'failed', error: expect.stringMatching(/ECONNREFUSED/), durationMs: 0 });
    await ok('webhooks/remove', [id]);
    await ok('webhooks/remove', [closed.id]);
  });
});

describe('Slack and Discord', () => {
  it('post one readable line with the fields the platforms require, within their limits', async () => {
    const slack = await receiver();
    const discord = await receiver(() => 204);
    const slackHook = await createWebhook({ url: slack.url, format: 'slack', events: ['response.created'] });
    const discordHook = await createWebhook({ url: discord.url, format: 'discord', events: ['response.created'] });
    const reactions = await createContentSet(api, owner.admin, projectId, 'reaction', { metadata: { name: 'Reactions' } });
    const ratings = await createContentSet(api, owner.admin, projectId, 'rating', { metadata: { name: 'Rate this' } });
    const messages = await createContentSet(api, owner.admin, projectId, 'tagged-message', { metadata: { name: 'Feedback' } });
    const item = await ok('contents/create', [{ contentSetId: ratings, key: 'docs/intro', metadata: { title: 'Introduction' } }]);
    await respond(reactions, 'blog/post-1', 'rocket');
    await respond(ratings, item.key, 4);
    await respond(messages, 'pricing', { tag: 'idea', message: `@everyone <!channel> *bold* ${'long text '.repeat(300)}` });
    await slack.waitFor(3);
    await discord.waitFor(3);
    const slackBodies = slack.requests.map((request) => JSON.parse(request.body));
    const discordBodies = discord.requests.map((request) => JSON.parse(request.body));
    for (const body of slackBodies) {
      expect(Object.keys(body).sort()).toEqual(['blocks', 'text']);
      expect(typeof body.text).toBe('string');
      expect(body.blocks).toEqual([{ type: 'section', text: { type: 'mrkdwn', text: body.text } }]);
      expect(body.text.length).toBeLessThanOrEqual(3000);
      expect(body.text).not.toContain('\n');
    }
    for (const body of discordBodies) {
      expect(body).toEqual({ content: expect.any(String), allowed_mentions: { parse: [] } });
      expect(body.content.length).toBeLessThanOrEqual(2000);
    }
    const slackLine = (needle: string) => slackBodies.map((body) => body.text as string).find((text) => text.includes(needle));
    expect(slackLine('Reactions')).toBe('New response on *Reactions* › blog/post-1: 🚀 rocket');
    expect(slackLine('Rate this')).toBe('New response on *Rate this* › Introduction: ★ 4 of 5');
    const message = slackLine('Feedback')!;
    expect(message).toMatch(/^New response on \*Feedback\* › pricing: \[idea\] “@everyone &lt;!channel&gt; \*bold\* long text/);
    expect(message).toMatch(/…$/);
    const discordMessage = discordBodies.map((body) => body.content as string).find((text) => text.includes('Feedback'))!;
    expect(discordMessage).toMatch(/^New response on \*\*Feedback\*\* › pricing: \\\[idea\\\] “@everyone <!channel\\> \\\*bold\\\* long text/);
    expect(discordMessage.length).toBeLessThanOrEqual(2000);
    expect(discordBodies.map((body) => body.content)).toContain('New response on **Reactions** › blog/post-1: 🚀 rocket');
    await ok('webhooks/remove', [slackHook.id]);
    await ok('webhooks/remove', [discordHook.id]);
  });
});
