/**
 * A burst of responses through the webhooks consumer as `npm start` runs it (DynamoDB Local's
 * stream, both consumers, the local sweeper) to a real receiver on 127.0.0.1 that counts the
 * requests it has open at once: every event arrives once, and never more requests at once
 * than the endpoint's cap (WEBHOOK_ENDPOINT_CONCURRENCY, small here so that the burst meets it).
 */
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
const CAP = 3;
process.env.WEBHOOK_ENDPOINT_CONCURRENCY = String(CAP);

import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import pLimit from 'p-limit';
import { ANONYMOUS } from '../../functions/api/auth';
import { createResponse } from '../../functions/operations/response-collection';
import { defaultStore } from '../../functions/store/entity-store';
import { deliveryItem, deliveryKey, getDelivery, getWebhook, pendingDelivery } from '../../functions/store/webhooks';
import { attemptDelivery, newLease } from '../../functions/webhooks/attempts';
import { LocalWebhookSweeper } from '../../local/webhook-sweeper';
import { createAccount, createContentSet, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { startReceiver, until, type Receiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

const { store, documentClient, settings } = defaultStore();

let api: TestApi;
let sweeper: LocalWebhookSweeper;
let owner: AccountKeys;
let setId: string;
let receiver: Receiver;
let webhookId: string;

beforeAll(async () => {
  api = await startTestApi();
  sweeper = new LocalWebhookSweeper({ store, intervalMs: 200 });
  sweeper.start();
  owner = await createAccount('webhooks-burst');
  const projectId = (await api.call<{ id: string }>('projects/create', [{ name: 'Busy site' }], { key: owner.admin })).body.id;
  setId = await createContentSet(api, owner.admin, projectId, 'yes-no', { metadata: { name: 'Helpful?' } });
  // Slow enough that a burst's requests overlap at the receiver.
  receiver = await startReceiver(() => ({ status: 200, delayMs: 100 }));
  const created = await api.call<{ id: string }>('webhooks/create', [{ url: receiver.url, events: ['response.created'] }], { key: owner.admin });
  webhookId = created.body.id;
}, 60_000);

afterAll(async () => {
  await sweeper.stop();
  await api.close();
  await receiver.close();
});

describe('a burst of responses', () => {
  it('reaches the receiver with each event once, never more than the cap at once', async () => {
    const burst = 60;
    const responseIds: string[] = [];
    let next = 0;
    // A site's server writing (no visitor: nothing for the flood rules to hold), 8 at a time.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < burst) {
          const index = next++;
          const { responseId } = await createResponse(
            store,
            ANONYMOUS,
            { contentSetId: setId, key: `page-${index % 10}`, value: index % 2 ? 'yes' : 'no' },
            { headers: {} },
            new Date(),
          );
          responseIds.push(responseId);
        }
      }),
    );
    await receiver.waitFor(burst, 150_000);
    // Every delivery recorded, the consumer and the sweeper idle: nothing more is on its way.
    await api.drainStream({ rank: false });
    await until(async () => (await sweeper.run()) === 0, 30_000, 'an idle sweep');

    const bodies = receiver.requests.map((request) => JSON.parse(request.body));
    expect(bodies.map((body) => body.data.response.id).sort()).toEqual([...responseIds].sort());
    expect(new Set(receiver.requests.map((request) => request.headers['webhook-id'])).size).toBe(burst);
    expect(receiver.mostAtOnce).toBe(CAP);
  });

  it("a caller's cap over all endpoints (the stream consumer's) bounds their requests together, within each endpoint's cap", async () => {
    const OVERALL = 4;
    const second = await startReceiver(() => ({ status: 200, delayMs: 100 }));
    try {
      const created = await api.call<{ id: string }>('webhooks/create', [{ url: second.url, events: ['response.created'] }], { key: owner.admin });
      const webhooks = [(await getWebhook(store, webhookId))!, (await getWebhook(store, created.body.id))!];
      const first = { before: receiver.requests.length, mostAtOnce: receiver.mostAtOnce };
      receiver.mostAtOnce = 0;
      // Both receivers' requests in flight together: sampled as they go.
      let mostTogether = 0;
      const sampler = setInterval(() => {
        mostTogether = Math.max(mostTogether, receiver.open + second.open);
      }, 5);
      const now = new Date();
      // Not stored yet (no lease), as the stream consumer attempts them: each is stored once, with its outcome.
      const deliveries = Array.from({ length: 12 }, (_, index) =>
        pendingDelivery(
          {
            id: `overall-cap-${now.getTime()}-${index}`,
            webhookId: webhooks[index % 2].id,
            accountId: owner.accountId,
            eventId: `evt_overall-cap-${index}`,
            eventType: 'response.created',
            body: '{"type":"response.created"}',
          },
          now,
        ),
      );
      const requestTurn = pLimit(OVERALL);
      const summaries = await Promise.all(
        deliveries.map((delivery, index) => attemptDelivery(store, delivery, webhooks[index % 2], () => new Date(), { requestTurn })),
      );
      clearInterval(sampler);
      expect(summaries.map((summary) => summary.status)).toEqual(deliveries.map(() => 'succeeded'));
      expect(receiver.requests.length - first.before).toBe(6);
      expect(second.requests).toHaveLength(6);
      expect(receiver.mostAtOnce).toBeLessThanOrEqual(CAP);
      expect(second.mostAtOnce).toBeLessThanOrEqual(CAP);
      expect(mostTogether).toBe(OVERALL);
      const stored = await Promise.all(deliveries.map((delivery) => getDelivery(store, delivery.id)));
      expect(stored.map((delivery) => [delivery?.status, delivery?.attempts])).toEqual(deliveries.map(() => ['succeeded', 1]));
      receiver.mostAtOnce = Math.max(receiver.mostAtOnce, first.mostAtOnce);
      await api.call('webhooks/remove', [created.body.id], { key: owner.admin });
    } finally {
      await second.close();
    }
  });

  it('gives a delivery back, unsent, when its turn would come too late in its lease', async () => {
    const before = receiver.requests.length;
    const webhook = (await getWebhook(store, webhookId))!;
    const now = new Date();
    // A lease of 12 s: less than an attempt (10 s) and the time to record it.
    const lease = { ...newLease(now), until: new Date(now.getTime() + 12_000).toISOString() };
    const delivery = pendingDelivery(
      {
        id: 'late-turn-delivery',
        webhookId,
        accountId: owner.accountId,
        eventId: 'evt_late-turn',
        eventType: 'response.created',
        body: '{"type":"response.created"}',
        leaseToken: lease.token,
        leaseUntil: lease.until,
      },
      now,
    );
    await sweeper.stop();
    try {
      await documentClient.send(
        new PutCommand({
          TableName: settings.tableName,
          Item: deliveryItem(delivery, now),
        }),
      );
      expect(await attemptDelivery(store, delivery, webhook, () => new Date())).toEqual({ deliveryId: delivery.id, status: 'pending' });
      expect(receiver.requests.length).toBe(before);
      const { Item } = await documentClient.send(new GetCommand({ TableName: settings.tableName, Key: deliveryKey(delivery.id) }));
      // Due now, for a sweeper to claim with a lease of its own.
      expect(Item?.leaseToken).toBeUndefined();
      expect(Date.parse(String(Item?.duesk).split('#')[0])).toBeLessThanOrEqual(Date.now());
    } finally {
      sweeper.start();
    }
    await receiver.waitFor(before + 1, 30_000);
  });
});
