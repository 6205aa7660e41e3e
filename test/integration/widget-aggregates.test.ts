import { getFeelbackAggregates, getFeelbackStore, removeFeelback, sendFeelback } from '@feelback/js';
import { clearTargetCache } from '../../functions/operations/target-cache';
import { decodeAsApiGateway } from '../../functions/domain/percent-escapes';
import { keyHash } from '../../functions/domain/text';
import { MAX_ALIAS_MEMBERS, resolveContentKey } from '../../functions/operations/content-keys';
import { widgetCounts } from '../../functions/operations/widget-counts';
import type { Caller } from '../../functions/api/auth';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, expectError, startTestApi, tableSnapshot, type AccountKeys, type TestApi, createContentSet } from '../support/api';

/**
 * The widget scenario of widgets.test.ts, read back with the published client's
 * getFeelbackAggregates (unchanged): GET `?$p=[target]` with the JSON written into the URL
 * as is, no API key, and the counts shown next to option i of the widget.
 */
let api: TestApi;
let owner: AccountKeys;
let stranger: AccountKeys;
let projectId: string;

beforeAll(async () => {
  api = await startTestApi();
  [owner, stranger] = await Promise.all([createAccount('widget-aggregates'), createAccount('widget-aggregates-stranger')]);
  projectId = (await api.call('projects/create', [{ name: 'Widget site' }], { key: owner.admin })).body.id;
});
afterAll(() => api.close());

/**
 * Every client here sends from one address and user agent: the sets record each response
 * (onePerVisitor off), so that sends stand for several visitors; one visitor's vote is
 * test/integration/visitor-votes.test.ts's.
 */
async function createSet(schema: string, publicAggregates: boolean, schemaConfig?: unknown) {
  return createContentSet(api, owner.admin, projectId, schema, { schemaConfig, metadata: { publicAggregates, onePerVisitor: false } });
}

/** Answers of other visitors: with store 'none' the client keeps no token, so each send is a new response. */
async function othersSend(target: { contentSetId: string; key: string }, values: unknown[]) {
  for (const value of values) await sendFeelback({ endpoint: api.baseUrl, ...target, value: value as never, store: 'none' });
}

const aggregates = (target: { contentSetId: string; key: string } | { contentId: string }) =>
  getFeelbackAggregates({ endpoint: api.baseUrl, ...target } as never) as Promise<number[]>;

describe('getFeelbackAggregates on a set with publicAggregates', () => {
  it.each([
    // schema, config, others' values, my first value, my edit, counts after the edit (option order), counts after my removal
    ['reaction', undefined, ['heart', 'heart', 'rocket', '+1'], 'laugh', 'eyes', [1, 0, 0, 0, 2, 0, 1, 1], [1, 0, 0, 0, 2, 0, 1, 0]],
    ['reaction', { preset: 'facebook' }, ['angry', 'like'], 'love', 'wow', [1, 0, 0, 1, 0, 1], [1, 0, 0, 0, 0, 1]],
    ['yes-no', undefined, ['y', 'n', 'n'], 'y', 'n', [1, 3], [1, 2]],
    ['pulse', undefined, ['+', '+'], '+', '+', [3], [2]],
    [
      'tagged-message',
      undefined,
      [{ tag: 'error', message: 'typo' }],
      { tag: 'idea', message: 'dark mode' },
      { tag: 'other', message: 'hi' },
      [0, 1, 1],
      [0, 1, 0],
    ],
  ])('%s %j: counts in option order after sends, an edit and a removal', async (schema, config, others, mine, edited, afterEdit, afterRemoval) => {
    const contentSetId = await createSet(schema, true, config);
    // The widgets' default key is the page URL; `?` and `&` reach the server unencoded.
    const target = { contentSetId, key: `https://docs.example.com/${schema}/guide?lang=en&section=a` };
    await othersSend(target, others);
    await sendFeelback({ endpoint: api.baseUrl, ...target, value: mine as never });
    await sendFeelback({ endpoint: api.baseUrl, ...target, value: edited as never });
    await api.drainStream();
    expect(await aggregates(target)).toEqual(afterEdit);

    const contentId = (await api.call('contents/lookup', [target.key, { contentSetId }], { key: owner.viewer })).body[0].id;
    expect(await aggregates({ contentId })).toEqual(afterEdit);

    const feelbackId = getFeelbackStore().getRevocable(target)?.feelbackId;
    await removeFeelback({ endpoint: api.baseUrl, feelbackId: feelbackId! });
    await api.drainStream();
    expect(await aggregates(target)).toEqual(afterRemoval);
    // The same through the API: one count per option, for any period.
    const viaApi = await api.call('feelbacks/getAggregates', [target, 'rolling7d'], { method: 'GET' });
    expect([viaApi.status, viaApi.body]).toEqual([200, afterRemoval]);
    const lastYear = await api.call('responses/getAggregates', [target, 'year']);
    expect(lastYear.body).toEqual(afterRemoval);
  });

  it('answers zeros, one per option, for a page nobody rated yet', async () => {
    const reaction = await createSet('reaction', true);
    expect(await aggregates({ contentSetId: reaction, key: 'https://docs.example.com/new?x=1&y=2' })).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    const rating = await createSet('rating', true, { min: 1, max: 10 });
    expect(await aggregates({ contentSetId: rating, key: 'fresh' })).toEqual(new Array(10).fill(0));
    const yesNo = await createSet('yes-no', true);
    expect(await aggregates({ contentSetId: yesNo, key: 'fresh' })).toEqual([0, 0]);
    // A key nobody rated does not create a content item.
    const lookup = await api.call('contents/lookup', ['fresh', { contentSetId: yesNo }], { key: owner.viewer });
    expect(lookup.body).toEqual([]);
  });

  it('keeps pages apart: a key that only differs after & is another page', async () => {
    const contentSetId = await createSet('yes-no', true);
    await othersSend({ contentSetId, key: 'https://site.example/p?a=1&b=2' }, ['y', 'y']);
    await othersSend({ contentSetId, key: 'https://site.example/p?a=1' }, ['n']);
    await api.drainStream();
    expect(await aggregates({ contentSetId, key: 'https://site.example/p?a=1&b=2' })).toEqual([2, 0]);
    expect(await aggregates({ contentSetId, key: 'https://site.example/p?a=1' })).toEqual([0, 1]);
    expect(await aggregates({ contentSetId, key: 'https://site.example/p' })).toEqual([0, 0]);
    // A parameter without a value, at the end or in the middle, and an empty value at the end.
    for (const key of ['https://site.example/q?x=1&flag', 'https://site.example/q?x=1&flag&y=2', 'https://site.example/q?x=1&empty=']) {
      await othersSend({ contentSetId, key }, ['y']);
      await api.drainStream();
      expect([key, await aggregates({ contentSetId, key })]).toEqual([key, [1, 0]]);
    }
  });
});

describe('getAggregates access', () => {
  let privateSet: string;
  const key = 'https://docs.example.com/private?x=1&y=2';

  beforeAll(async () => {
    privateSet = await createSet('yes-no', false);
    await othersSend({ contentSetId: privateSet, key }, ['y', 'n', 'y']);
    await api.drainStream();
  });

  it('refuses anonymous callers when the set does not publish its aggregates (the widget throws)', async () => {
    await expect(aggregates({ contentSetId: privateSet, key })).rejects.toThrow();
    const answer = await api.call('feelbacks/getAggregates', [{ contentSetId: privateSet, key }], { method: 'GET' });
    expect([answer.status, answer.body.error]).toEqual([401, 'unauthorized']);
    expect(answer.body.message).toMatch(/publicAggregates/);
    const contentId = (await api.call('contents/lookup', [key, { contentSetId: privateSet }], { key: owner.viewer })).body[0].id;
    expect((await api.call('responses/getAggregates', [contentId])).status).toBe(401);
    // Also for a key nobody rated yet.
    expect((await api.call('responses/getAggregates', [{ contentSetId: privateSet, key: 'fresh' }])).status).toBe(401);
  });

  it('answers keyed callers of the account always, and other accounts not-found', async () => {
    const target = { contentSetId: privateSet, key };
    for (const ownKey of [owner.viewer, owner.admin]) {
      const answer = await api.call('responses/getAggregates', [target], { key: ownKey, method: 'GET' });
      expect([answer.status, answer.body]).toEqual([200, [2, 1]]);
    }
    const contentId = (await api.call('contents/lookup', [key, { contentSetId: privateSet }], { key: owner.viewer })).body[0].id;
    expect((await api.call('responses/getAggregates', [contentId, 'lifetime'], { key: owner.viewer })).body).toEqual([2, 1]);
    for (const args of [[target], [contentId], [{ contentSetId: privateSet, key: 'fresh' }]]) {
      const answer = await api.call('responses/getAggregates', args, { key: stranger.viewer });
      expect([answer.status, answer.body.error]).toEqual([404, 'not-found']);
    }
  });

  it('reads in two requests, eventually consistent: item and set (or set, key and alias) in one BatchGetItem, then the counters', async () => {
    const key = `by-id-${Date.now()}`;
    await othersSend({ contentSetId: privateSet, key }, ['y', 'n']);
    await api.drainStream();
    const contentId = (await api.call('contents/lookup', [key, { contentSetId: privateSet }], { key: owner.viewer })).body[0].id;
    const { store } = defaultStore();
    const send = jest.spyOn(store.documentClient, 'send');
    try {
      const caller: Caller = { kind: 'key', level: 'viewer', accountId: owner.accountId, keyId: 'test' };
      expect((await widgetCounts(store, caller, contentId, 'lifetime', new Date())).values).toEqual([1, 1]);
      const commands = send.mock.calls.map(([command]) => command as unknown as { constructor: { name: string }; input: Record<string, unknown> });
      expect(commands.map((command) => command.constructor.name)).toEqual(['BatchGetCommand', 'QueryCommand']);
      const batch = commands[0].input.RequestItems as Record<string, { Keys: unknown[]; ConsistentRead: boolean }>;
      expect(Object.values(batch).map(({ Keys, ConsistentRead }) => [Keys.length, ConsistentRead])).toEqual([[2, false]]);
      expect(commands[1].input.ConsistentRead).toBeFalsy();
      // By (set, key): the same, the BatchGetItem holding set, key and alias.
      send.mockClear();
      expect((await widgetCounts(store, caller, { contentSetId: privateSet, key }, 'lifetime', new Date())).values).toEqual([1, 1]);
      const [byKey] = send.mock.calls.map(([command]) => (command as unknown as { input: Record<string, unknown> }).input);
      expect(
        Object.values(byKey.RequestItems as Record<string, { Keys: unknown[]; ConsistentRead: boolean }>).map(({ Keys, ConsistentRead }) => [
          Keys.length,
          ConsistentRead,
        ]),
      ).toEqual([[3, false]]);
    } finally {
      send.mockRestore();
    }
  });

  it('answers not-found for an unknown set or content id, bad-request for a bad target or period', async () => {
    await expect(aggregates({ contentSetId: 'A'.repeat(22), key: 'k' })).rejects.toThrow();
    for (const args of [[{ contentSetId: 'A'.repeat(22), key: 'k' }], ['A'.repeat(22)], ['A'.repeat(44)]]) {
      const answer = await api.call('responses/getAggregates', args);
      expect([answer.status, answer.body.error]).toEqual([404, 'not-found']);
    }
    for (const args of [[], [{ contentSetId: privateSet }], [{ contentSetId: privateSet, key: 'k', extra: 1 }], ['x', 'decade'], ['x', 'week', 3]]) {
      const answer = await api.call('responses/getAggregates', args);
      expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
    }
  });
});

/**
 * Issue 7: page URLs holding %-escapes. The widget POSTs the key as the page has it, but its
 * GET writes the key unencoded into `?$p=`, and the server reads the query percent-decoded
 * (as API Gateway hands it over): the server resolves that decoded form through the key's
 * alias (operations/content-keys.ts).
 */
describe('pages whose URL holds %-escapes', () => {
  /** Counts read the three ways: the widget's GET, a GET with $p encoded, and POST. */
  async function countsEveryWay(target: { contentSetId: string; key: string }) {
    const encodedGet = await api.call('feelbacks/getAggregates', [target], { method: 'GET' });
    const post = await api.call('responses/getAggregates', [target]);
    expect([encodedGet.status, post.status]).toEqual([200, 200]);
    return { widget: await aggregates(target), encodedGet: encodedGet.body, post: post.body };
  }

  it('reproduces issue 7: the widget GET finds the key its POST stored', async () => {
    const contentSetId = await createSet('pulse', true);
    const key = 'https://blog.example/caf%C3%A9?q=hello%20world';
    const created = await api.call('feelbacks/create', [{ contentSetId, key, value: '+', revokable: true }]);
    expect(created.status).toBe(200);
    await api.drainStream();
    // Exactly what the widget sends: only the quotes escaped, the key's escapes as written.
    const widgetUrl = `${api.baseUrl}/feelbacks/getAggregates?$p=[{%22contentSetId%22:%22${contentSetId}%22,%22key%22:%22${key}%22}]`;
    const answer = await fetch(widgetUrl);
    expect([answer.status, await answer.json()]).toEqual([200, [1]]);
    const encoded = await fetch(`${api.baseUrl}/feelbacks/getAggregates?$p=${encodeURIComponent(JSON.stringify([{ contentSetId, key }]))}`);
    expect([encoded.status, await encoded.json()]).toEqual([200, [1]]);
  });

  it.each([
    ['the issue: non-ASCII path and %20 in a value', 'https://blog.example/caf%C3%A9?q=hello%20world'],
    ['a non-ASCII path (CJK)', 'https://blog.example/%E6%97%A5%E6%9C%AC%E8%AA%9E/'],
    ['an emoji path', 'https://blog.example/%F0%9F%8E%89/party'],
    ['lower-case hex escapes', 'https://blog.example/caf%c3%a9'],
    ['+ in a query value', 'https://blog.example/search?q=hello+world'],
    ['%2B in a query value', 'https://blog.example/search?q=c%2B%2B'],
    ['& inside values', 'https://blog.example/search?q=rock&roll=1&flag'],
    ['%26 in a value', 'https://blog.example/search?q=rock%26roll'],
    ['%25 in a value', 'https://blog.example/discount?off=50%25'],
    ['%2541: an escaped escape', 'https://blog.example/raw?x=%2541'],
    ['%3D in a value', 'https://blog.example/search?filter=a%3Db&x=1'],
    ['%2F in a path segment', 'https://blog.example/files/a%2Fb'],
    ['%23 (an encoded #)', 'https://blog.example/p%23section'],
    ['literal and encoded forms in one key', 'https://blog.example/caf%C3%A9?q=caf%C3%A9+au+lait&x=a%2Bb+c&y=%26&z'],
    ['%22 in a value (the JSON is repaired)', 'https://blog.example/s?q=%22exact%20phrase%22&page=2'],
    ['a control character in a value (%0A)', 'https://blog.example/s?q=two%0Alines'],
  ])('%s: the widget reads its own counts, like encoded GET and POST', async (_case, key) => {
    const contentSetId = await createSet('yes-no', true);
    const target = { contentSetId, key };
    await othersSend(target, ['y', 'y', 'n']);
    await api.drainStream();
    expect(await countsEveryWay(target)).toEqual({ widget: [2, 1], encodedGet: [2, 1], post: [2, 1] });
    // The item keeps the key as the page sent it.
    const lookup = await api.call('contents/lookup', [key, { contentSetId }], { key: owner.viewer });
    expect(lookup.body.map((entry: { key: string }) => entry.key)).toEqual([key]);
  });

  it('keeps apart pages whose decoded forms differ, and lets a page without escapes keep its own counts', async () => {
    const contentSetId = await createSet('yes-no', true);
    const pages = {
      space: 'https://blog.example/s?q=hello%20world',
      plus: 'https://blog.example/s?q=hello+world',
      accented: 'https://blog.example/caf%C3%A9',
      plain: 'https://blog.example/cafe',
      encodedAmp: 'https://blog.example/s?q=rock%26roll',
      literalAmp: 'https://blog.example/s?q=rock&roll',
    };
    await othersSend({ contentSetId, key: pages.space }, ['y']);
    await othersSend({ contentSetId, key: pages.plus }, ['n', 'n']);
    await othersSend({ contentSetId, key: pages.accented }, ['y', 'y', 'y']);
    await othersSend({ contentSetId, key: pages.plain }, ['n']);
    await othersSend({ contentSetId, key: pages.encodedAmp }, ['y', 'n']);
    await othersSend({ contentSetId, key: pages.literalAmp }, ['y', 'y', 'y', 'y']);
    await api.drainStream();
    const read = async (key: string) => (await countsEveryWay({ contentSetId, key })).widget;
    expect(await read(pages.space)).toEqual([1, 0]);
    expect(await read(pages.plus)).toEqual([0, 2]);
    expect(await read(pages.accented)).toEqual([3, 0]);
    expect(await read(pages.plain)).toEqual([0, 1]);
    expect(await read(pages.literalAmp)).toEqual([4, 0]);
    // Not restorable: `rock%26roll` decodes to the other page's key, and the exact key wins
    // (a caller that encodes $p asks for it, and so does that page's widget). Encoded GET
    // and POST still read each page exactly.
    const encodedAmp = await countsEveryWay({ contentSetId, key: pages.encodedAmp });
    expect(encodedAmp).toEqual({ widget: [4, 0], encodedGet: [1, 1], post: [1, 1] });
  });

  it('lets keys that share a decoded form both be written; their widgets read the older item', async () => {
    const contentSetId = await createSet('yes-no', true);
    const upper = 'https://blog.example/caf%C3%A9';
    const lower = 'https://blog.example/caf%c3%a9';
    await othersSend({ contentSetId, key: upper }, ['y']);
    await othersSend({ contentSetId, key: lower }, ['n', 'n']);
    const created = await api.call('contents/create', [{ contentSetId, key: 'https://blog.example/caf%C3%a9' }], { key: owner.admin });
    expect(created.status).toBe(200);
    await api.drainStream();
    expect(await countsEveryWay({ contentSetId, key: upper })).toEqual({ widget: [1, 0], encodedGet: [1, 0], post: [1, 0] });
    expect(await countsEveryWay({ contentSetId, key: lower })).toEqual({ widget: [1, 0], encodedGet: [0, 2], post: [0, 2] });
  });

  it(`writes a key even when ${MAX_ALIAS_MEMBERS} other keys already share its decoded form (without an alias)`, async () => {
    const contentSetId = await createSet('pulse', true);
    const escapes = '%C3%A9%C3%A9%C3%A9';
    // 64 spellings of one decoded form: each hex letter in either case.
    const spellings = Array.from({ length: MAX_ALIAS_MEMBERS + 2 }, (_, variant) => {
      let bit = 0;
      return `https://blog.example/${escapes.replace(/[A-F]/g, (letter) => ((variant >> bit++) & 1 ? letter.toLowerCase() : letter))}`;
    });
    expect(new Set(spellings).size).toBe(MAX_ALIAS_MEMBERS + 2);
    for (const key of spellings) {
      const answer = await api.call('contents/create', [{ contentSetId, key }], { key: owner.admin });
      expect([key, answer.status]).toEqual([key, 200]);
    }
    const { store } = defaultStore();
    const decodedKeyHash = keyHash(decodeAsApiGateway(spellings[0]));
    const { data } = await store.entities.ContentKeyAlias.get({ contentSetId, decodedKeyHash }).go({ consistent: true });
    expect(data?.members).toHaveLength(MAX_ALIAS_MEMBERS);
    // A response through the last spelling (no alias) is still stored and counted under it.
    const last = spellings.at(-1)!;
    await othersSend({ contentSetId, key: last }, ['+']);
    await api.drainStream();
    expect((await api.call('responses/getAggregates', [{ contentSetId, key: last }])).body).toEqual([1]);
  });

  it('resolves set, exact key and alias in one BatchGetItem', async () => {
    const contentSetId = await createSet('pulse', true);
    const key = 'https://blog.example/caf%C3%A9';
    await othersSend({ contentSetId, key }, ['+']);
    await api.drainStream();
    const { store } = defaultStore();
    const send = jest.spyOn(store.documentClient, 'send');
    try {
      const resolved = await resolveContentKey(store, contentSetId, decodeAsApiGateway(key));
      expect(resolved).toEqual({ setRaw: expect.objectContaining({ id: contentSetId }), contentItemId: expect.any(String), matched: 'alias' });
      expect(send.mock.calls.map(([command]) => command.constructor.name)).toEqual(['BatchGetCommand']);
      expect((await resolveContentKey(store, contentSetId, key)).matched).toBe('key');
    } finally {
      send.mockRestore();
    }
  });

  it('moves the alias with the key on contents/save', async () => {
    const contentSetId = await createSet('yes-no', true);
    const first = 'https://blog.example/caf%C3%A9';
    const second = 'https://blog.example/th%C3%A9?cup=1%2B1';
    const item = (await api.call('contents/create', [{ contentSetId, key: first }], { key: owner.admin })).body;
    await othersSend({ contentSetId, key: first }, ['y', 'n', 'y']);
    await api.drainStream();
    expect(await aggregates({ contentSetId, key: first })).toEqual([2, 1]);

    const save = (key: string) => api.call('contents/save', [item.id, { key }], { key: owner.admin });
    expect((await save(second)).status).toBe(200);
    expect(await aggregates({ contentSetId, key: second })).toEqual([2, 1]);
    expect(await aggregates({ contentSetId, key: first })).toEqual([0, 0]);
    // The old key is free, alias included: a new item there reads only its own counts.
    expect((await api.call('contents/create', [{ contentSetId, key: first }], { key: owner.admin })).status).toBe(200);
    // Writers remember a key's item for at most 10 s (target-cache.ts TARGET_MAX_AGE_MS): past that bound, as here, responses reach the new item.
    clearTargetCache();
    await othersSend({ contentSetId, key: first }, ['n']);
    await api.drainStream();
    expect(await aggregates({ contentSetId, key: first })).toEqual([0, 1]);
    expect(await aggregates({ contentSetId, key: second })).toEqual([2, 1]);

    // To a spelling with the same decoded form (one alias, unchanged), then to a key without escapes and back.
    const sameDecoded = 'https://blog.example/th%c3%a9?cup=1%2b1';
    expect((await save(sameDecoded)).status).toBe(200);
    expect(await aggregates({ contentSetId, key: sameDecoded })).toEqual([2, 1]);
    expect((await save('https://blog.example/tea')).status).toBe(200);
    expect(await aggregates({ contentSetId, key: 'https://blog.example/tea' })).toEqual([2, 1]);
    expect(await aggregates({ contentSetId, key: sameDecoded })).toEqual([0, 0]);
    expect((await save(second)).status).toBe(200);
    expect(await aggregates({ contentSetId, key: second })).toEqual([2, 1]);
    expect(await aggregates({ contentSetId, key: 'https://blog.example/tea' })).toEqual([0, 0]);
  });

  it('writes nothing, alias included, when a create or a save with escaped keys is refused', async () => {
    const contentSetId = await createSet('yes-no', true);
    const taken = 'https://blog.example/%C3%BCber';
    const mover = (await api.call('contents/create', [{ contentSetId, key: 'https://blog.example/na%C3%AFve' }], { key: owner.admin })).body;
    expect((await api.call('contents/create', [{ contentSetId, key: taken }], { key: owner.admin })).status).toBe(200);
    await api.drainStream();
    const before = await tableSnapshot();
    expectError(await api.call('contents/create', [{ contentSetId, key: taken }], { key: owner.admin }), 409, 'conflict');
    expectError(await api.call('contents/save', [mover.id, { key: taken, title: 'moved' }], { key: owner.admin }), 409, 'conflict');
    expectError(await api.call('contents/save', [mover.id, { key: 'x'.repeat(1025) }], { key: owner.admin }), 400, 'bad-request');
    expect(await tableSnapshot()).toEqual(before);
  });

  it('documents what stays unreadable by the widget: malformed escapes and decoded backslashes', async () => {
    const contentSetId = await createSet('yes-no', true);
    // A lone %: the local server hands $p over undecoded (not JSON); API Gateway is reported to answer 400.
    const malformed = 'https://blog.example/100%?q=caf%C3%A9';
    // %5C becomes a backslash inside the JSON: here `\\u0041` is a valid escape and reads another key.
    const backslash = 'https://blog.example/s?q=%5Cu0041';
    for (const key of [malformed, backslash]) {
      await othersSend({ contentSetId, key }, ['y']);
    }
    await api.drainStream();
    await expect(aggregates({ contentSetId, key: malformed })).rejects.toThrow();
    expect(await aggregates({ contentSetId, key: backslash })).toEqual([0, 0]);
    // Callers that encode $p, and POST, read both exactly.
    for (const key of [malformed, backslash]) {
      const encodedGet = await api.call('feelbacks/getAggregates', [{ contentSetId, key }], { method: 'GET' });
      const post = await api.call('responses/getAggregates', [{ contentSetId, key }]);
      expect([key, encodedGet.body, post.body]).toEqual([key, [1, 0], [1, 0]]);
    }
  });
});
