/**
 * Floods and spam held back (docs/api.md "Quarantine"), over real HTTP with the real stream
 * consumers: a burst of one visitor is held, then released and counted exactly once, or
 * discarded and never counted; spam messages are held with their reason; public counts and
 * webhooks leave held responses out; after each step the counters equal a recount
 * (jobs/rebuild.ts, dry run: nothing to rewrite).
 */
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

import { rebuildProject } from '../../functions/jobs/rebuild';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, createContentSet, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';
import { startReceiver, until, type Receiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

let api: TestApi;
let owner: AccountKeys;
let projectId: string;
let messageSet: string;
let receiver: Receiver;

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('quarantine');
  projectId = (await api.call('projects/create', [{ name: 'Held' }], { key: owner.admin })).body.id;
  messageSet = await createContentSet(api, owner.admin, projectId, 'message', { metadata: { publicAggregates: true } });
  receiver = await startReceiver();
  const webhook = await api.call('webhooks/create', [{ url: receiver.url, events: ['response.created', 'response.quarantined'] }], { key: owner.admin });
  expect(webhook.status).toBe(200);
});
afterAll(async () => {
  await receiver.close();
  await api.close();
});

/** Counted, screened, and the screening's own writes counted. */
async function settle() {
  await api.drainStream({ rank: false });
  await api.drainStream({ rank: false });
}

/** One visitor: the same user agent from the same address. */
async function burst(key: string, count: number, userAgent: string): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const answer = await api.call('responses/create', [{ contentSetId: messageSet, key, value: `Message number ${index} about this page` }], {
      headers: { 'user-agent': userAgent },
    });
    // The flooder learns nothing: every call gets the usual answer.
    expect(answer.status).toBe(200);
    ids.push(answer.body.responseId);
  }
  await settle();
  return ids;
}

async function listed(contentId: string, state: string) {
  const { body } = await api.call('responses/list', [{ contentId, state, $size: 100 }], { key: owner.viewer });
  return body.items as { id: string; state: string; quarantine?: { reason: string; at: string } }[];
}

async function counts(contentId: string) {
  const keyed = (await api.call('responses/getAggregates', [contentId], { key: owner.viewer })).body as number[];
  const anonymous = (await api.call('responses/getAggregates', [contentId], { method: 'GET' })).body as number[];
  return { keyed: keyed[0], anonymous: anonymous[0] };
}

async function expectCountsEqualRecount() {
  const recount = await rebuildProject(defaultStore().store, projectId, new Date(), { dryRun: true });
  expect(recount.rewritten).toEqual([]);
}

/** The webhook events received about a response, by type. */
function announced(responseId: string): string[] {
  return receiver.requests
    .map((request) => JSON.parse(request.body) as { type: string; data: { response?: { id: string } } })
    .filter((event) => event.data.response?.id === responseId)
    .map((event) => event.type);
}

async function itemOf(responseId: string): Promise<string> {
  return (await api.call('responses/get', [responseId], { key: owner.viewer })).body.contentItemId;
}

describe('a burst of one visitor', () => {
  test('is held past five a minute, then released and counted exactly once', async () => {
    const ids = await burst('https://example.com/released', 7, 'burst-visitor/1');
    const contentId = await itemOf(ids[0]);
    const held = await listed(contentId, 'quarantined');
    expect(held.map((response) => response.id).sort()).toEqual(ids.slice(5).sort());
    expect(held.every((response) => response.quarantine?.reason === 'visitor-burst')).toBe(true);
    // Not counted, nor shown by default, nor in public counts.
    expect((await listed(contentId, 'active')).length).toBe(5);
    expect(await counts(contentId)).toEqual({ keyed: 5, anonymous: 5 });
    await expectCountsEqualRecount();
    await until(() => announced(ids[6]).length > 0 && announced(ids[4]).length > 0, 30_000, 'deliveries');
    expect(announced(ids[4])).toEqual(['response.created']);
    expect(announced(ids[6])).toEqual(['response.quarantined']);

    // A viewer cannot judge; an admin can, once.
    expect((await api.call('responses/release', [{ responseIds: [ids[6]] }], { key: owner.viewer })).status).toBe(403);
    const released = await api.call('responses/release', [{ contentId }], { key: owner.admin });
    expect(released.body).toEqual({ changed: 2, more: false });
    expect((await api.call('responses/release', [{ responseIds: ids }], { key: owner.admin })).body).toEqual({ changed: 0 });
    await settle();
    expect(await counts(contentId)).toEqual({ keyed: 7, anonymous: 7 });
    expect((await listed(contentId, 'quarantined')).length).toBe(0);
    await expectCountsEqualRecount();
    // Released: announced as new, once.
    await until(() => announced(ids[6]).length > 1, 30_000, 'the release announced');
    expect(announced(ids[6])).toEqual(['response.quarantined', 'response.created']);
  });

  test('is held, then discarded and never counted', async () => {
    const ids = await burst('https://example.com/discarded', 6, 'burst-visitor/2');
    const contentId = await itemOf(ids[0]);
    expect(await counts(contentId)).toEqual({ keyed: 5, anonymous: 5 });
    const discarded = await api.call('responses/discard', [{ responseIds: [ids[5], ids[0]] }], { key: owner.admin });
    // The active one is not held: only the held one is discarded.
    expect(discarded.body).toEqual({ changed: 1 });
    await settle();
    expect(await counts(contentId)).toEqual({ keyed: 5, anonymous: 5 });
    const kept = await listed(contentId, 'discarded');
    expect(kept.map((response) => [response.id, response.quarantine?.reason])).toEqual([[ids[5], 'visitor-burst']]);
    // A discarded response cannot be released afterwards.
    expect((await api.call('responses/release', [{ responseIds: [ids[5]] }], { key: owner.admin })).body).toEqual({ changed: 0 });
    await settle();
    expect(await counts(contentId)).toEqual({ keyed: 5, anonymous: 5 });
    await expectCountsEqualRecount();
    expect(announced(ids[5])).not.toContain('response.created');
  });
});

describe('one address, many user agents (a script varying its browser string)', () => {
  const SCRIPT_ADDRESS = '203.0.113.50';
  /** Twenty "no" votes on one page of a onePerVisitor set, each with another user agent, from the given addresses. */
  async function rig(contentSetId: string, key: string, addressOf: (index: number) => string): Promise<string[]> {
    const ids: string[] = [];
    for (let index = 0; index < 20; index++) {
      const answer = await api.call('responses/create', [{ contentSetId, key, value: 'no' }], {
        headers: { 'user-agent': `rigging-script/${index}`, 'x-forwarded-for': addressOf(index) },
      });
      // The usual answer, held or not.
      expect(answer.status).toBe(200);
      expect(typeof answer.body.responseId).toBe('string');
      ids.push(answer.body.responseId);
    }
    await settle();
    return ids;
  }

  test('from one address: the first addressLimit (3) are counted, the other 17 held for address-limit', async () => {
    const votes = await createContentSet(api, owner.admin, projectId, 'yes-no', { metadata: { publicAggregates: true, onePerVisitor: true } });
    const ids = await rig(votes, 'https://example.com/rigged', () => SCRIPT_ADDRESS);
    // Twenty visitors by their hashes: onePerVisitor alone would count them all.
    expect(new Set(ids).size).toBe(20);
    const contentId = await itemOf(ids[0]);
    const held = await listed(contentId, 'quarantined');
    expect(held.map((response) => response.id).sort()).toEqual(ids.slice(3).sort());
    expect(new Set(held.map((response) => response.quarantine?.reason))).toEqual(new Set(['address-limit']));
    expect((await listed(contentId, 'active')).map((response) => response.id).sort()).toEqual(ids.slice(0, 3).sort());
    const stats = await api.call('contents/getStats', [contentId], { key: owner.viewer });
    expect(stats.body.count).toBe(3);
    const keyed = (await api.call('responses/getAggregates', [contentId], { key: owner.viewer })).body as number[];
    const anonymous = (await api.call('responses/getAggregates', [contentId], { method: 'GET' })).body as number[];
    expect([keyed, anonymous]).toEqual([
      [0, 3],
      [0, 3],
    ]);
    await expectCountsEqualRecount();

    // An admin who knows them (an office behind one address) releases them: all counted.
    expect((await api.call('responses/release', [{ contentId }], { key: owner.admin })).body).toEqual({ changed: 17, more: false });
    await settle();
    expect((await api.call('contents/getStats', [contentId], { key: owner.viewer })).body.count).toBe(20);
    await expectCountsEqualRecount();

    // What the limit stored: hashes and a count, never the address or a user agent.
    const stored = (await tableSnapshot()).join('\n');
    expect(stored).not.toContain(SCRIPT_ADDRESS);
    expect(stored).not.toContain('rigging-script');
  });

  test('from twenty addresses: all twenty counted', async () => {
    const votes = await createContentSet(api, owner.admin, projectId, 'yes-no', { metadata: { publicAggregates: true, onePerVisitor: true } });
    const ids = await rig(votes, 'https://example.com/twenty-homes', (index) => `203.0.113.${100 + index}`);
    const contentId = await itemOf(ids[0]);
    expect(await listed(contentId, 'quarantined')).toEqual([]);
    expect((await api.call('contents/getStats', [contentId], { key: owner.viewer })).body.count).toBe(20);
    expect((await api.call('responses/getAggregates', [contentId], { method: 'GET' })).body).toEqual([0, 20]);
    await expectCountsEqualRecount();
  });

  test('a set may raise the limit (an office) or turn it off', async () => {
    const votes = await createContentSet(api, owner.admin, projectId, 'yes-no', {
      metadata: { onePerVisitor: true, quarantine: { addressLimit: 30, visitorBurst: 0 } },
    });
    const ids = await rig(votes, 'https://example.com/office', () => '203.0.113.51');
    expect(await listed(await itemOf(ids[0]), 'quarantined')).toEqual([]);
    const refused = await api.call('sets/save', [votes, { quarantine: { addressLimit: 1001 } }], { key: owner.admin });
    expect(refused.status).toBe(400);
  });
});

describe('a held response is never counted, not even for a second', () => {
  test('a flood on one page: the public count and getStats, read throughout, never pass the responses that end up active', async () => {
    const votes = await createContentSet(api, owner.admin, projectId, 'yes-no', { metadata: { publicAggregates: true, onePerVisitor: true } });
    const key = 'https://example.com/flooded';
    // The page exists before the flood, so the readers have an item to read.
    const first = await api.call('responses/create', [{ contentSetId: votes, key, value: 'yes' }]);
    const contentId = await itemOf(first.body.responseId);

    // Readers, throughout: the public count (what a widget shows, and what an edge cache
    // would keep) and getStats (what the console shows).
    const seen = { publicCounts: [] as number[], stats: [] as number[] };
    let flooding = true;
    const read = async () => {
      while (flooding) {
        const [shown, stats] = await Promise.all([
          api.call('responses/getAggregates', [contentId], { method: 'GET' }),
          api.call('contents/getStats', [contentId], { key: owner.viewer }),
        ]);
        seen.publicCounts.push((shown.body as number[]).reduce((sum, count) => sum + count, 0));
        seen.stats.push(stats.body.count);
        await new Promise((wait) => setTimeout(wait, 50));
      }
    };
    const readers = [read(), read()];

    // Over about ten seconds (several of the counting consumer's batches): a script from one
    // address with 80 user agents voting "no", and 10 people from addresses of their own.
    const flood = Array.from({ length: 90 }, (_, index) =>
      index % 9 === 4
        ? { value: 'yes', headers: { 'user-agent': `person/${index}`, 'x-forwarded-for': `198.51.100.${index}` } }
        : { value: 'no', headers: { 'user-agent': `flooder/${index}`, 'x-forwarded-for': '203.0.113.66' } },
    );
    for (const { value, headers } of flood) {
      expect((await api.call('responses/create', [{ contentSetId: votes, key, value }], { headers })).status).toBe(200);
      await new Promise((wait) => setTimeout(wait, 100));
    }
    await settle();
    flooding = false;
    await Promise.all(readers);

    const active = await listed(contentId, 'active');
    const held = await listed(contentId, 'quarantined');
    // The first response, 10 people, and the flooder's first 3 user agents (addressLimit).
    expect(active).toHaveLength(14);
    expect(held).toHaveLength(77);
    expect(seen.stats.length).toBeGreaterThan(20);
    expect(Math.max(...seen.publicCounts)).toBeLessThanOrEqual(active.length);
    expect(Math.max(...seen.stats)).toBeLessThanOrEqual(active.length);
    expect((await api.call('contents/getStats', [contentId], { key: owner.viewer })).body.count).toBe(14);
    await expectCountsEqualRecount();
  });
});

test('spam messages are held with their reason; other visitors and keyed servers are not held', async () => {
  const spam = [
    ['https://example.com/spam-1', 'Cheap deals at www.deals-shop.com, http://x.example.net and offers.example.org'],
    ['https://example.com/spam-2', 'Best casino bonus, sign up today'],
    ['https://example.com/spam-3', `Great${'!'.repeat(30)}`],
  ] as const;
  const ids: string[] = [];
  for (const [key, value] of spam) ids.push((await api.call('responses/create', [{ contentSetId: messageSet, key, value }])).body.responseId);
  // Six different visitors on one item, and a server's seven: no burst.
  const crowd = 'https://example.com/crowd';
  const visitors: string[] = [];
  for (let index = 0; index < 6; index++) {
    visitors.push(
      (await api.call('responses/create', [{ contentSetId: messageSet, key: crowd, value: `Visitor ${index} thinks it is fine` }])).body.responseId,
    );
  }
  for (let index = 0; index < 7; index++) {
    await api.call('responses/create', [{ contentSetId: messageSet, key: crowd, value: `Server copy ${index} of a form` }], { key: owner.admin });
  }
  await settle();
  const held = await api.call('responses/list', [{ contentSetId: messageSet, state: 'quarantined', $size: 100 }], { key: owner.viewer });
  const reasons = Object.fromEntries((held.body.items as { id: string; quarantine: { reason: string } }[]).map((item) => [item.id, item.quarantine.reason]));
  expect(ids.map((id) => reasons[id])).toEqual(['spam-links', 'spam-known-shape', 'spam-repeated-text']);
  const crowdItem = await itemOf(visitors[0]);
  expect(await counts(crowdItem)).toEqual({ keyed: 13, anonymous: 13 });
  // `all` shows every state; the export filters the same way.
  const all = await api.call('responses/list', [{ contentSetId: messageSet, state: 'all', $size: 100 }], { key: owner.viewer });
  expect((all.body.items as { id: string }[]).map((item) => item.id)).toEqual(expect.arrayContaining(ids));
  const exported = await api.call('responses/export', [{ contentSetId: messageSet, state: 'quarantined', format: 'ndjson' }], { key: owner.viewer });
  expect(exported.status).toBe(200);
  expect(JSON.stringify(exported.body)).toContain(ids[1]);
  await expectCountsEqualRecount();
});

test('the settings show their defaults and are saved per set', async () => {
  const { body } = await api.call('sets/get', [messageSet], { key: owner.viewer });
  expect(body.metadata.quarantine).toEqual({ visitorBurst: 5, addressLimit: 3, surgeFactor: 20, surgeFloor: 600, spamCheck: true });
  const saved = await api.call('sets/save', [messageSet, { quarantine: { visitorBurst: 10, spamCheck: false } }], { key: owner.admin });
  expect(saved.body.metadata.quarantine).toEqual({ visitorBurst: 10, addressLimit: 3, surgeFactor: 20, surgeFloor: 600, spamCheck: false });
});
