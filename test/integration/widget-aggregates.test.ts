import { getFeelbackAggregates, getFeelbackStore, removeFeelback, sendFeelback } from '@feelback/js';
import { createAccount, startTestApi, type AccountKeys, type TestApi, createContentSet } from '../support/api';

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

async function createSet(schema: string, publicAggregates: boolean, schemaConfig?: unknown) {
  return createContentSet(api, owner.admin, projectId, schema, { schemaConfig, metadata: { publicAggregates } });
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

  it('answers not-found for an unknown set or content id, bad-request for a bad target or period', async () => {
    await expect(aggregates({ contentSetId: 'A'.repeat(22), key: 'k' })).rejects.toThrow();
    for (const args of [[{ contentSetId: 'A'.repeat(22), key: 'k' }], ['A'.repeat(22)]]) {
      const answer = await api.call('responses/getAggregates', args);
      expect([answer.status, answer.body.error]).toEqual([404, 'not-found']);
    }
    for (const args of [[], [{ contentSetId: privateSet }], [{ contentSetId: privateSet, key: 'k', extra: 1 }], ['x', 'decade'], ['x', 'week', 3]]) {
      const answer = await api.call('responses/getAggregates', args);
      expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
    }
  });
});
