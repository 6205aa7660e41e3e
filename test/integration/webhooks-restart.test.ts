/**
 * Pending retries are durable: `npm start` (bin/serve.ts, with its own DynamoDB Local on a
 * data folder) is killed with SIGKILL while a delivery waits for its retry, then started
 * again on the same folder; the retry still arrives, with the same webhook-id and a
 * signature that verifies (the sealed secret's key was kept in the folder too).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { callApi, portOpen, startNpmStart, stopped, type NpmStart } from '../support/npm-start';
import { startReceiver, until, type Receiver } from '../support/webhook-receiver';

// Long enough that the retry is still pending at the kill (checked), short enough that little of it is idle after the restart.
const RETRY_SECONDS = 8;

type Server = NpmStart;
const startServer = (dataDir: string) => startNpmStart(dataDir, { WEBHOOK_RETRY_SCHEDULE: String(RETRY_SECONDS) }, ['WEBHOOK_ALLOW_PRIVATE_TARGETS']);
const call = callApi;

const folder = mkdtempSync(join(tmpdir(), 'webhooks-restart-'));
let receiver: Receiver;
const servers: Server[] = [];

afterAll(async () => {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await stopped(server.child);
  }
  await receiver?.close();
  rmSync(folder, { recursive: true, force: true });
});

it('a retry pending when npm start is SIGKILLed is delivered after the restart', async () => {
  receiver = await startReceiver((_request, index) => (index === 0 ? 503 : 200));
  const first = await startServer(folder);
  servers.push(first);
  const projectId = (await call(first, 'projects/create', [{ name: 'Restart' }])).id;
  const contentSetId = (await call(first, 'sets/create', [{ projectId, key: 'helpful', schema: 'yes-no', metadata: { name: 'Helpful?' } }])).id;
  const webhook = await call(first, 'webhooks/create', [{ url: receiver.url, events: ['response.created'] }]);
  await call(first, 'responses/create', [{ contentSetId, key: 'page', value: 'yes' }], undefined);
  const [failed] = await receiver.waitFor(1, 30_000);
  let pending: any;
  await until(
    async () => {
      [pending] = (await call(first, 'webhooks/deliveries', [{ webhookId: webhook.id }])).items;
      return pending?.status === 'pending' && pending.attempts === 1;
    },
    30_000,
    'the retry is scheduled',
  );
  expect(pending.lastStatusCode).toBe(503);
  expect(Date.parse(pending.nextAttemptAt)).toBeGreaterThan(Date.now());

  first.child.kill('SIGKILL');
  await stopped(first.child);
  // Its DynamoDB Local goes with it (the launcher's pipe closes); wait until its port is free.
  await until(async () => !(await portOpen(first.dynamoPort)), 30_000, 'the first DynamoDB Local stopped');
  expect(receiver.requests).toHaveLength(1);

  const second = await startServer(folder);
  servers.push(second);
  expect(second.adminKey).toBe(first.adminKey);
  const [, retried] = await receiver.waitFor(2, 90_000);
  expect(retried.headers['webhook-id']).toBe(failed.headers['webhook-id']);
  expect(retried.body).toBe(failed.body);
  expect(new Webhook(webhook.secret).verify(retried.body, retried.headers as Record<string, string>)).toMatchObject({ type: 'response.created' });
  expect(retried.at - failed.at).toBeGreaterThanOrEqual(RETRY_SECONDS * 0.9 * 1000 - 100);
  await until(
    async () => (await call(second, 'webhooks/deliveries', [{ webhookId: webhook.id }])).items[0].status === 'succeeded',
    30_000,
    'the success is recorded',
  );
  const [delivered] = (await call(second, 'webhooks/deliveries', [{ webhookId: webhook.id }])).items;
  expect(delivered).toMatchObject({ id: pending.id, status: 'succeeded', attempts: 2, lastStatusCode: 200 });
  // The restarted consumer resumed after the record it had handled: the event was not queued again.
  expect((await call(second, 'webhooks/deliveries', [{ webhookId: webhook.id }])).items).toHaveLength(1);
  expect(receiver.requests).toHaveLength(2);
}, 240_000);
