import { hashSecret } from '../../functions/api/auth';
import { clearTargetCache } from '../../functions/operations/target-cache';
import { createAccount, startTestApi, tableSnapshot, type AccountKeys, type ApiAnswer, type TestApi } from '../support/api';

let api: TestApi;
let owner: AccountKeys;
let other: AccountKeys;
let projectId: string;

const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const UNKNOWN_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

const unique = () => Math.random().toString(36).slice(2, 8);

async function createSet(schema: string, extra: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}, project: string = projectId) {
  const { status, body } = await api.call(
    'sets/create',
    [{ projectId: project, key: `${schema}-${unique()}`, schema, metadata: { name: schema, ...metadata }, ...extra }],
    { key: owner.admin },
  );
  expect(status).toBe(200);
  return body as { id: string; projectId: string };
}

async function createItem(contentSetId: string, key: string = `item-${unique()}`) {
  const { status, body } = await api.call('contents/create', [{ contentSetId, key }], { key: owner.admin });
  expect(status).toBe(200);
  return body as { id: string; key: string };
}

/** Creates a response that must succeed; returns the write result. */
async function respond(input: Record<string, unknown>, options: Parameters<TestApi['call']>[2] = {}) {
  const answer = await api.call('responses/create', [input], options);
  expect([answer.status, answer.body?.error]).toEqual([200, undefined]);
  return answer.body as { responseId: string; feelbackId: string; revokable?: { token: string; expireAt: string } };
}

async function stored(responseId: string) {
  const { status, body } = await api.call('responses/get', [responseId], { key: owner.viewer });
  expect(status).toBe(200);
  return body;
}

/** The table once the stream consumer has caught up (it writes aggregates in the background). */
async function settledSnapshot(): Promise<string[]> {
  await api.drainStream();
  return tableSnapshot();
}

/**
 * Runs refused calls and proves none of them wrote anything. Every answer must be the
 * expected status and error code, and, when given, have exactly the expected field paths.
 */
async function expectRefusedWithoutWrites(
  calls: { path?: string; args: unknown; options?: Parameters<TestApi['call']>[2]; status: number; error: string; fields?: string[] }[],
): Promise<ApiAnswer[]> {
  const before = await settledSnapshot();
  const answers = await Promise.all(calls.map((call) => api.call(call.path ?? 'responses/create', call.args, call.options)));
  calls.forEach((call, index) => {
    const answer = answers[index];
    const paths: string[] | undefined = answer.body?.data?.fields?.map((field: { path: string }) => field.path);
    const seen = {
      args: call.args,
      status: answer.status,
      error: answer.body?.error,
      // zod may report two problems of one field (e.g. too long, and too many code points)
      ...(call.fields ? { fields: paths && [...new Set(paths)] } : {}),
    };
    expect(seen).toEqual({ args: call.args, status: call.status, error: call.error, ...(call.fields ? { fields: call.fields } : {}) });
  });
  expect(await settledSnapshot()).toEqual(before);
  return answers;
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('responses');
  other = await createAccount('responses-other');
  projectId = (await api.call('projects/create', [{ name: 'Site' }], { key: owner.admin })).body.id;
});
afterAll(() => api.close());

describe('responses/create', () => {
  it('creates the content item on first use and returns a revoke token when asked', async () => {
    const set = await createSet('yes-no');
    const key = 'https://example.com/docs?page=1&lang=en';
    const { status, body } = await api.call('responses/create', [{ contentSetId: set.id, key, value: '+1', revokable: true }]);
    expect(status).toBe(200);
    expect(body).toEqual({
      responseId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      feelbackId: body.responseId,
      revokable: { token: expect.any(String), expireAt: expect.stringMatching(/Z$/) },
    });
    const lookup = await api.call('contents/lookup', ['https://example.com/docs'], { key: owner.viewer });
    expect(lookup.body).toEqual([expect.objectContaining({ key, metadata: { url: key } })]);
    const response = await api.call('responses/get', [body.responseId], { key: owner.viewer });
    expect(response.body).toMatchObject({ state: 'active', value: 'y', contentSetId: set.id, contentItemId: lookup.body[0].id });
    expect(JSON.stringify(response.body)).not.toContain(body.revokable.token);
  });

  it('accepts the seven positional arguments', async () => {
    const set = await createSet('rating');
    const { status, body } = await api.call('responses/create', [set.id, 'page-1', 4, { $user: 'a@b.c' }, null, false, { os: 'Plan 9' }]);
    expect(status).toBe(200);
    expect(body).toEqual({ responseId: expect.any(String), feelbackId: body.responseId });
    expect(await stored(body.responseId)).toMatchObject({ value: 4, context: { $user: 'a@b.c' }, profiling: { os: 'Plan 9', userId: 'a@b.c' } });
  });

  it('accepts the positional form with a contentId target and with revokable true', async () => {
    const set = await createSet('pulse');
    const item = await createItem(set.id);
    const byId = await api.call('responses/create', [null, null, '+', null, item.id, null, null]);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({ responseId: expect.any(String), feelbackId: byId.body.responseId });
    expect(await stored(byId.body.responseId)).toMatchObject({ contentSetId: set.id, contentItemId: item.id, value: '+' });

    const revokable = await api.call('responses/create', [set.id, item.key, '+', null, null, true, null]);
    expect(revokable.status).toBe(200);
    expect(revokable.body.revokable).toEqual({ token: expect.any(String), expireAt: expect.any(String) });
    expect(await stored(revokable.body.responseId)).toMatchObject({ contentItemId: item.id });
  });

  it('targets an existing item by contentId in the object form, also with a matching set and key', async () => {
    const set = await createSet('pulse');
    const item = await createItem(set.id, 'existing');
    const plain = await respond({ contentId: item.id, value: '+' });
    expect(await stored(plain.responseId)).toMatchObject({ contentSetId: set.id, contentItemId: item.id, projectId });
    const agreeing = await respond({ contentId: item.id, contentSetId: set.id, key: 'existing', value: '+' });
    expect(await stored(agreeing.responseId)).toMatchObject({ contentItemId: item.id });
    const byKey = await respond({ contentSetId: set.id, key: 'existing', value: '+' });
    expect(await stored(byKey.responseId)).toMatchObject({ contentItemId: item.id });
    const items = await api.call('contents/lookup', ['existing', { contentSetId: set.id }], { key: owner.viewer });
    expect(items.body).toHaveLength(1);
  });

  it('refuses a request without a target, with contradicting targets, or with the wrong arity, and writes nothing', async () => {
    const set = await createSet('pulse');
    const otherSet = await createSet('pulse');
    const item = await createItem(set.id, 'mine');
    await createItem(set.id, 'another');
    await expectRefusedWithoutWrites([
      { args: [{ value: '+' }], status: 400, error: 'bad-request', fields: ['args.0.contentSetId'] },
      { args: [{ contentSetId: set.id, value: '+' }], status: 400, error: 'bad-request', fields: ['args.0.key'] },
      { args: [{ key: 'mine', value: '+' }], status: 400, error: 'bad-request', fields: ['args.0.contentSetId'] },
      { args: [null, null, '+', null, null, null, null], status: 400, error: 'bad-request', fields: ['args.0'] },
      { args: [otherSet.id, null, '+', null, item.id, null, null], status: 400, error: 'bad-request', fields: ['args.4'] },
      { args: [{ contentId: item.id, contentSetId: otherSet.id, value: '+' }], status: 400, error: 'bad-request', fields: ['args.0.contentId'] },
      { args: [{ contentId: item.id, contentSetId: set.id, key: 'another', value: '+' }], status: 400, error: 'bad-request', fields: ['args.0.contentId'] },
      { args: [{ contentId: item.id, key: 'another', value: '+' }], status: 400, error: 'bad-request', fields: ['args.0.contentId'] },
      { args: [{ contentSetId: set.id, key: 'mine' }], status: 400, error: 'bad-request', fields: ['args.0.value'] },
      { args: [{ contentSetId: set.id, key: 'mine', value: '+', extra: 1 }], status: 400, error: 'bad-request', fields: ['args.0'] },
      { args: [{ contentSetId: set.id, key: 'mine', value: '+', revokable: 'yes' }], status: 400, error: 'bad-request', fields: ['args.0.revokable'] },
      { args: [{ contentSetId: set.id, key: '', value: '+' }], status: 400, error: 'bad-request', fields: ['args.0.key'] },
      { args: [{ contentSetId: set.id, key: 'k'.repeat(1025), value: '+' }], status: 400, error: 'bad-request', fields: ['args.0.key'] },
      { args: [], status: 400, error: 'bad-request' },
      { args: [set.id, 'mine'], status: 400, error: 'bad-request' },
      { args: [set.id, 'mine', '+', null, null, null, null, null], status: 400, error: 'bad-request' },
      { args: [{ contentSetId: set.id, key: 'mine', value: '+' }, null], status: 400, error: 'bad-request' },
      { args: ['+'], status: 400, error: 'bad-request' },
    ]);
  });

  it('reports positional mistakes at their position', async () => {
    const set = await createSet('pulse');
    await expectRefusedWithoutWrites([
      { args: [set.id, 'k', '+', 'not-an-object', null, null, null], status: 400, error: 'bad-request', fields: ['args.3'] },
      { args: [set.id, 'k', '+', null, null, 'yes', null], status: 400, error: 'bad-request', fields: ['args.5'] },
      { args: [set.id, 'k', '+', null, null, null, { nope: 'x' }], status: 400, error: 'bad-request', fields: ['args.6'] },
      { args: [set.id, 'k', '-', null, null, null, null], status: 400, error: 'bad-request', fields: ['args.2'] },
    ]);
  });

  it('answers not-found for an unknown set or content item, and writes nothing', async () => {
    await expectRefusedWithoutWrites([
      { args: [{ contentSetId: UNKNOWN_ID, key: 'k', value: '+' }], status: 404, error: 'not-found' },
      { args: [{ contentId: UNKNOWN_ID, value: '+' }], status: 404, error: 'not-found' },
      { args: [UNKNOWN_ID, 'k', '+', null, null, null, null], status: 404, error: 'not-found' },
    ]);
  });

  it('refuses a bad value and writes nothing', async () => {
    const set = await createSet('reaction');
    await expectRefusedWithoutWrites([
      { args: [{ contentSetId: set.id, key: 'k', value: 'thumbs' }], status: 400, error: 'bad-request', fields: ['args.0.value'] },
    ]);
  });

  it('makes exactly one content item for fifty concurrent first responses', async () => {
    const set = await createSet('pulse');
    const results = await Promise.all(Array.from({ length: 50 }, () => api.call('responses/create', [{ contentSetId: set.id, key: 'hot-page', value: '+' }])));
    expect(results.map((result) => result.status)).toEqual(Array(50).fill(200));
    const items = await api.call('contents/lookup', ['hot-page', { contentSetId: set.id }], { key: owner.viewer });
    expect(items.body).toHaveLength(1);
    const list = await api.call('responses/list', [{ contentId: items.body[0].id, $size: 100 }], { key: owner.viewer });
    expect(list.body.items).toHaveLength(50);
    expect(list.body.hasMore).toBe(false);
  });
});

describe('values of each schema', () => {
  /** Sends each accepted value to one item of a fresh set and returns what was stored. */
  async function acceptedValues(schema: string, values: unknown[], schemaConfig?: unknown) {
    const set = await createSet(schema, schemaConfig === undefined ? {} : { schemaConfig });
    // The first response creates the item; the others then go to it concurrently.
    const answers = [await api.call('responses/create', [{ contentSetId: set.id, key: 'accepted', value: values[0] }])];
    answers.push(...(await Promise.all(values.slice(1).map((value) => api.call('responses/create', [{ contentSetId: set.id, key: 'accepted', value }])))));
    expect(answers.map((answer, index) => [values[index], answer.status])).toEqual(values.map((value) => [value, 200]));
    const storedValues = await Promise.all(answers.map(async (answer) => (await stored(answer.body.responseId)).value));
    return { set, storedValues };
  }

  async function refusedValues(contentSetId: string, values: unknown[]) {
    await expectRefusedWithoutWrites(
      values.map((value) => ({ args: [{ contentSetId, key: 'refused', value }], status: 400, error: 'bad-request', fields: ['args.0.value'] })),
    );
  }

  it('pulse: only "+"', async () => {
    const { set, storedValues } = await acceptedValues('pulse', ['+']);
    expect(storedValues).toEqual(['+']);
    await refusedValues(set.id, ['-', '', ' +', '++', 1, true, null, {}, ['+']]);
  });

  it('yes-no: every spelling is stored as "y" or "n"', async () => {
    const yes = ['y', 'yes', '+1', '1', 'true', 1, true, 'Y', 'YES', 'True'];
    const no = ['n', 'no', '-1', 'false', -1, false, 'N', 'No', 'FALSE'];
    const { set, storedValues } = await acceptedValues('yes-no', [...yes, ...no]);
    expect(storedValues).toEqual([...yes.map(() => 'y'), ...no.map(() => 'n')]);
    await refusedValues(set.id, ['maybe', '', '0', 0, 2, '+', ' y', null, {}, ['y']]);
  });

  it('rating: the default 1..5 in whole steps', async () => {
    const { set, storedValues } = await acceptedValues('rating', [1, 3, 5, '4']);
    expect(storedValues).toEqual([1, 3, 5, 4]);
    await refusedValues(set.id, [0, 6, 2.5, -1, 'abc', '', ' ', true, null, {}, [3]]);
  });

  it('rating: a custom range {min: 0, max: 10, step: 0.5}', async () => {
    const { set, storedValues } = await acceptedValues('rating', [0, 0.5, 7.5, 10], { min: 0, max: 10, step: 0.5 });
    expect(storedValues).toEqual([0, 0.5, 7.5, 10]);
    await refusedValues(set.id, [-0.5, 10.5, 7.25, 11, 'ten', null]);
  });

  it('rating: within 1e-9 of a step is stored and counted as the step; off the scale, even by 1e-9, is refused naming the value', async () => {
    const { set, storedValues } = await acceptedValues('rating', [4.0000000009, 2.9999999995, '5.0000000000'], { min: 1, max: 5, step: 1 });
    expect(storedValues).toEqual([4, 3, 5]);
    await api.drainStream();
    const stats = await api.call('sets/getStats', [set.id], { key: owner.viewer });
    expect([stats.body.data.values, stats.body.data.summary]).toEqual([[0, 0, 1, 1, 1], 4]);
    const answers = await expectRefusedWithoutWrites(
      [5.0000000009, 0.9999999991, 4.000000002].map((value) => ({
        args: [{ contentSetId: set.id, key: 'refused', value }],
        status: 400,
        error: 'bad-request',
        fields: ['args.0.value'],
      })),
    );
    expect(answers.map((answer) => answer.body.data.fields[0].message)).toEqual([
      "5.0000000009 is not on this set's scale: a rating is from 1 to 5 in steps of 1",
      "0.9999999991 is not on this set's scale: a rating is from 1 to 5 in steps of 1",
      "4.000000002 is not on this set's scale: a rating is from 1 to 5 in steps of 1",
    ]);
  });

  it('reaction: the github preset by default', async () => {
    const github = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'];
    const { set, storedValues } = await acceptedValues('reaction', github);
    expect(storedValues).toEqual(github);
    await refusedValues(set.id, ['like', 'angry', 'HEART', 'heart ', '', 1, null, { value: 'heart' }]);
  });

  it('reaction: the facebook preset', async () => {
    const facebook = ['like', 'love', 'laugh', 'wow', 'sad', 'angry'];
    const { set, storedValues } = await acceptedValues('reaction', facebook, { preset: 'facebook' });
    expect(storedValues).toEqual(facebook);
    await refusedValues(set.id, ['+1', 'heart', 'rocket', 'Like']);
  });

  /** 4,000 characters that are no spam (a run of one character is: it would be held, stream/screening.ts). */
  const longest = Array.from({ length: 4000 }, (_, index) => 'abcdefghij'[index % 10]).join('');

  it('message: non-empty text up to 4000 characters, stored verbatim', async () => {
    const { set, storedValues } = await acceptedValues('message', ['Great page!', '  padded  ', longest]);
    expect(storedValues).toEqual(['Great page!', '  padded  ', longest]);
    await refusedValues(set.id, ['x'.repeat(4001), '', '   ', '\n\t', 42, null, { message: 'hi' }, ['hi']]);
  });

  it('tagged-message: {tag, message?} with a tag of the set', async () => {
    const { set, storedValues } = await acceptedValues('tagged-message', [
      { tag: 'idea' },
      { tag: 'error', message: 'Typo in step 2' },
      { tag: 'other', message: longest },
      { tag: 'idea', message: null },
    ]);
    expect(storedValues).toEqual([{ tag: 'idea' }, { tag: 'error', message: 'Typo in step 2' }, { tag: 'other', message: longest }, { tag: 'idea' }]);
    await refusedValues(set.id, [
      { tag: 'bug' },
      { tag: 'IDEA' },
      { message: 'no tag' },
      { tag: 'idea', extra: true },
      { tag: 'idea', message: '' },
      { tag: 'idea', message: '   ' },
      { tag: 'idea', message: 5 },
      { tag: 'idea', message: 'x'.repeat(4001) },
      'idea',
      ['idea'],
      null,
    ]);
  });

  it('tagged-message: custom tags replace the default ones', async () => {
    const tags = [
      { value: 'praise', sentiment: 1 },
      { value: 'complaint', sentiment: -1 },
    ];
    const { set, storedValues } = await acceptedValues('tagged-message', [{ tag: 'praise', message: 'Nice' }], { tags });
    expect(storedValues).toEqual([{ tag: 'praise', message: 'Nice' }]);
    await refusedValues(set.id, [{ tag: 'idea' }, { tag: 'other' }]);
  });
});

describe('context and profiling', () => {
  let contentSetId: string;
  beforeAll(async () => {
    contentSetId = (await createSet('pulse')).id;
  });

  it('stores a flat context of strings, numbers and booleans', async () => {
    const context = { $user: 'reader@example.com', page: 3, ratio: 0.5, logged: false, empty: '' };
    const { responseId } = await respond({ contentSetId, key: 'ctx', value: '+', context });
    expect((await stored(responseId)).context).toEqual(context);
  });

  it('accepts a context of exactly 2 KiB as JSON and refuses one byte more (counted in bytes)', async () => {
    const ascii = { k: 'x'.repeat(2040) };
    const twoByte = { k: 'é'.repeat(1020) };
    expect([Buffer.byteLength(JSON.stringify(ascii)), Buffer.byteLength(JSON.stringify(twoByte))]).toEqual([2048, 2048]);
    for (const context of [ascii, twoByte]) {
      const { responseId } = await respond({ contentSetId, key: 'ctx-size', value: '+', context });
      expect((await stored(responseId)).context).toEqual(context);
    }
    await expectRefusedWithoutWrites([
      {
        args: [{ contentSetId, key: 'ctx-size', value: '+', context: { k: 'x'.repeat(2041) } }],
        status: 400,
        error: 'bad-request',
        fields: ['args.0.context'],
      },
      {
        args: [{ contentSetId, key: 'ctx-size', value: '+', context: { k: 'é'.repeat(1021) } }],
        status: 400,
        error: 'bad-request',
        fields: ['args.0.context'],
      },
    ]);
  });

  it('refuses nested, array, null and non-object contexts, and writes nothing', async () => {
    const answers = await expectRefusedWithoutWrites(
      [{ a: { b: 1 } }, { a: [1, 2] }, { a: null }, [1, 2], 'text', 5, { ['k'.repeat(65)]: 1 }, { '': 1 }].map((context) => ({
        args: [{ contentSetId, key: 'ctx-bad', value: '+', context }],
        status: 400,
        error: 'bad-request',
      })),
    );
    for (const answer of answers) {
      expect(answer.body.data.fields.map((field: { path: string }) => field.path.startsWith('args.0.context'))).not.toContain(false);
    }
  });

  it('accepts only ProfilingData fields, as strings of at most 256 characters', async () => {
    const { responseId } = await respond({ contentSetId, key: 'prof', value: '+', profiling: { sessionId: 's'.repeat(256), country: 'FR' } });
    expect((await stored(responseId)).profiling).toEqual({ sessionId: 's'.repeat(256), country: 'FR' });
    await expectRefusedWithoutWrites([
      {
        args: [{ contentSetId, key: 'prof', value: '+', profiling: { sessionId: 's'.repeat(257) } }],
        status: 400,
        error: 'bad-request',
        fields: ['args.0.profiling.sessionId'],
      },
      { args: [{ contentSetId, key: 'prof', value: '+', profiling: { ip: '1.2.3.4' } }], status: 400, error: 'bad-request', fields: ['args.0.profiling'] },
      { args: [{ contentSetId, key: 'prof', value: '+', profiling: { os: 7 } }], status: 400, error: 'bad-request', fields: ['args.0.profiling.os'] },
      { args: [{ contentSetId, key: 'prof', value: '+', profiling: 'iOS' }], status: 400, error: 'bad-request', fields: ['args.0.profiling'] },
    ]);
  });

  it('derives profiling from User-Agent, Accept-Language, CloudFront viewer headers and context.$user', async () => {
    const answer = await api.call('responses/create', [{ contentSetId, key: 'derived', value: '+', context: { $user: 'reader@example.com' } }], {
      headers: {
        'user-agent': IPHONE_SAFARI,
        'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8',
        'cloudfront-viewer-country': 'CH',
        'cloudfront-viewer-city': 'Z%C3%BCrich',
      },
    });
    expect(answer.status).toBe(200);
    expect((await stored(answer.body.responseId)).profiling).toEqual({
      userId: 'reader@example.com',
      os: 'iOS',
      osVersion: '17.4',
      formFactor: 'mobile',
      device: 'iPhone',
      deviceBrand: 'Apple',
      browser: 'Mobile Safari',
      browserVersion: '17.4',
      country: 'CH',
      city: 'Zürich',
      language: 'fr-CH',
    });
  });

  it('keeps the caller-given fields over the derived ones', async () => {
    const answer = await api.call(
      'responses/create',
      [
        {
          contentSetId,
          key: 'derived',
          value: '+',
          context: { $user: 'from-context' },
          profiling: { os: 'Plan 9', language: 'de', userId: 'given', country: 'NZ' },
        },
      ],
      { headers: { 'user-agent': IPHONE_SAFARI, 'accept-language': 'fr-CH', 'cloudfront-viewer-country': 'CH' } },
    );
    expect(answer.status).toBe(200);
    expect((await stored(answer.body.responseId)).profiling).toMatchObject({
      os: 'Plan 9',
      language: 'de',
      userId: 'given',
      country: 'NZ',
      browser: 'Mobile Safari',
    });
  });

  it('derives nothing when the caller sent nothing to derive from', async () => {
    const { responseId } = await respond({ contentSetId, key: 'bare', value: '+' }, { headers: { 'user-agent': '' } });
    const response = await stored(responseId);
    expect(response).not.toHaveProperty('profiling');
    expect(response).not.toHaveProperty('context');
  });
});

describe('content items created by responses', () => {
  it('gives an item created for an http(s) key its url, and no url to other keys', async () => {
    const set = await createSet('pulse');
    const keys = ['http://example.com/a', 'https://example.com/b?x=1#top', 'page-42', 'ftp://example.com/file', 'mailto:someone@example.com', '/relative/path'];
    for (const key of keys) {
      const { responseId } = await respond({ contentSetId: set.id, key, value: '+' });
      const item = await api.call('contents/get', [(await stored(responseId)).contentItemId], { key: owner.viewer });
      expect({ key, status: item.status, item: item.body }).toEqual({
        key,
        status: 200,
        item: expect.objectContaining({ key, contentSetId: set.id, projectId, state: 'active', metadata: key.startsWith('http') ? { url: key } : {} }),
      });
    }
  });

  it('answers not-found for a new key when the set disallows automatic items, and writes nothing', async () => {
    const set = await createSet('pulse', {}, { disallowAutoContentCreation: true });
    const item = await createItem(set.id, 'known');
    await expectRefusedWithoutWrites([
      { args: [{ contentSetId: set.id, key: 'unknown-page', value: '+' }], status: 404, error: 'not-found' },
      { args: [set.id, 'https://example.com/new', '+', null, null, null, null], status: 404, error: 'not-found' },
    ]);
    const { responseId } = await respond({ contentSetId: set.id, key: 'known', value: '+' });
    expect((await stored(responseId)).contentItemId).toBe(item.id);
  });

  it('refuses responses to an archived project, an archived or inactive set, or an archived or inactive item (409), and writes nothing', async () => {
    const archivedProject = (await api.call('projects/create', [{ name: 'Old site' }], { key: owner.admin })).body.id;
    const setOfArchivedProject = await createSet('pulse', {}, {}, archivedProject);
    const itemOfArchivedProject = await createItem(setOfArchivedProject.id, 'page');
    expect((await api.call('projects/save', [archivedProject, { state: 'archived' }], { key: owner.admin })).status).toBe(200);

    const archivedSet = await createSet('pulse');
    const itemOfArchivedSet = await createItem(archivedSet.id, 'page');
    expect((await api.call('sets/save', [archivedSet.id, { state: 'archived' }], { key: owner.admin })).status).toBe(200);
    const inactiveSet = await createSet('pulse');
    expect((await api.call('sets/save', [inactiveSet.id, { state: 'inactive' }], { key: owner.admin })).status).toBe(200);

    const liveSet = await createSet('pulse');
    const archivedItem = await createItem(liveSet.id, 'archived-page');
    const inactiveItem = await createItem(liveSet.id, 'inactive-page');
    expect((await api.call('contents/save', [archivedItem.id, { state: 'archived' }], { key: owner.admin })).status).toBe(200);
    expect((await api.call('contents/save', [inactiveItem.id, { state: 'inactive' }], { key: owner.admin })).status).toBe(200);

    const answers = await expectRefusedWithoutWrites(
      [
        { contentSetId: setOfArchivedProject.id, key: 'page', value: '+' },
        { contentSetId: setOfArchivedProject.id, key: 'new-page', value: '+' },
        { contentId: itemOfArchivedProject.id, value: '+' },
        { contentSetId: archivedSet.id, key: 'page', value: '+' },
        { contentSetId: archivedSet.id, key: 'new-page', value: '+' },
        { contentId: itemOfArchivedSet.id, value: '+' },
        { contentSetId: inactiveSet.id, key: 'new-page', value: '+' },
        { contentSetId: liveSet.id, key: 'archived-page', value: '+' },
        { contentId: archivedItem.id, value: '+' },
        { contentSetId: liveSet.id, key: 'inactive-page', value: '+' },
        { contentId: inactiveItem.id, value: '+' },
      ].map((input) => ({ args: [input], status: 409, error: 'conflict' })),
    );
    expect(answers.map((answer) => [answer.body.data.entity, answer.body.data.state])).toEqual([
      ['project', 'archived'],
      ['project', 'archived'],
      ['project', 'archived'],
      ['contentSet', 'archived'],
      ['contentSet', 'archived'],
      ['contentSet', 'archived'],
      ['contentSet', 'inactive'],
      ['contentItem', 'archived'],
      ['contentItem', 'archived'],
      ['contentItem', 'inactive'],
      ['contentItem', 'inactive'],
    ]);
  });
});

describe('revocation: responses/edit and responses/remove', () => {
  it('edits within the window, then removes, then refuses a second removal', async () => {
    const set = await createSet('reaction');
    const created = (await api.call('feelbacks/create', [{ contentSetId: set.id, key: 'p', value: 'heart', revokable: true }])).body;
    const edited = await api.call('feelbacks/edit', [{ feelbackId: created.feelbackId, revokeToken: created.revokable.token, value: 'rocket' }]);
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ responseId: created.responseId, feelbackId: created.responseId, revokable: created.revokable });
    expect((await stored(created.responseId)).value).toBe('rocket');

    const wrong = await api.call('responses/remove', [{ responseId: created.responseId, revokeToken: 'nope' }]);
    expect([wrong.status, wrong.body.error]).toEqual([403, 'forbidden']);
    const removed = await api.call('feelbacks/remove', [{ feelbackId: created.responseId, revokeToken: created.revokable.token }]);
    expect([removed.status, removed.body]).toEqual([204, undefined]);
    expect((await stored(created.responseId)).state).toBe('revoked');
    const again = await api.call('responses/remove', [{ responseId: created.responseId, revokeToken: created.revokable.token }]);
    expect([again.status, again.body.error]).toEqual([409, 'conflict']);
  });

  it('issues a token expiring createdAt + the default window of 3600 s, and only ids when not asked', async () => {
    const set = await createSet('pulse');
    const asked = await respond({ contentSetId: set.id, key: 'p', value: '+', revokable: true });
    expect(Object.keys(asked).sort()).toEqual(['feelbackId', 'responseId', 'revokable']);
    expect(asked.revokable).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/), expireAt: expect.any(String) });
    const { createdAt } = await stored(asked.responseId);
    expect(Date.parse(asked.revokable!.expireAt) - Date.parse(createdAt)).toBe(3600 * 1000);
    expect(new Date(asked.revokable!.expireAt).toISOString()).toBe(asked.revokable!.expireAt);

    for (const revokable of [false, null, undefined]) {
      const answer = await respond({ contentSetId: set.id, key: 'p', value: '+', ...(revokable === undefined ? {} : { revokable }) });
      expect(answer).toEqual({ responseId: expect.any(String), feelbackId: answer.responseId });
    }
    const again = await respond({ contentSetId: set.id, key: 'p', value: '+', revokable: true });
    expect(again.revokable!.token).not.toBe(asked.revokable!.token);
  });

  it('uses the set revokeWindow: a custom window, and 0 means never revokable', async () => {
    const custom = await createSet('pulse', {}, { revokeWindow: 120 });
    const answer = await respond({ contentSetId: custom.id, key: 'p', value: '+', revokable: true });
    expect(Date.parse(answer.revokable!.expireAt) - Date.parse((await stored(answer.responseId)).createdAt)).toBe(120 * 1000);

    const never = await createSet('pulse', {}, { revokeWindow: 0 });
    const unrevokable = await respond({ contentSetId: never.id, key: 'p', value: '+', revokable: true });
    expect(unrevokable).toEqual({ responseId: expect.any(String), feelbackId: unrevokable.responseId });
    const positional = await api.call('responses/create', [never.id, 'p', '+', null, null, true, null]);
    expect(positional.body).toEqual({ responseId: expect.any(String), feelbackId: positional.body.responseId });
  });

  it('re-validates the value on edit and stores it canonically; a bad value changes nothing', async () => {
    const set = await createSet('yes-no');
    const created = await respond({ contentSetId: set.id, key: 'p', value: 'y', revokable: true });
    const edited = await api.call('responses/edit', [{ responseId: created.responseId, revokeToken: created.revokable!.token, value: 'no' }]);
    expect([edited.status, edited.body]).toEqual([200, { responseId: created.responseId, feelbackId: created.responseId, revokable: created.revokable }]);
    expect((await stored(created.responseId)).value).toBe('n');

    await expectRefusedWithoutWrites(
      ['maybe', null, 0, { tag: 'y' }].map((value) => ({
        path: 'responses/edit',
        args: [{ responseId: created.responseId, revokeToken: created.revokable!.token, value }],
        status: 400,
        error: 'bad-request',
        fields: ['args.0.value'],
      })),
    );
    expect((await stored(created.responseId)).value).toBe('n');
  });

  it('refuses edit and remove with a wrong or missing token, an unknown id, or contradicting ids, and changes nothing', async () => {
    const set = await createSet('pulse');
    const created = await respond({ contentSetId: set.id, key: 'p', value: '+', revokable: true });
    const unrevokable = await respond({ contentSetId: set.id, key: 'p', value: '+' });
    const other = await respond({ contentSetId: set.id, key: 'p', value: '+', revokable: true });
    const token = created.revokable!.token;
    await expectRefusedWithoutWrites([
      { path: 'responses/edit', args: [{ responseId: created.responseId, revokeToken: 'wrong', value: '+' }], status: 403, error: 'forbidden' },
      { path: 'responses/remove', args: [{ responseId: created.responseId, revokeToken: 'wrong' }], status: 403, error: 'forbidden' },
      { path: 'responses/remove', args: [{ responseId: created.responseId, revokeToken: other.revokable!.token }], status: 403, error: 'forbidden' },
      { path: 'responses/remove', args: [{ responseId: unrevokable.responseId, revokeToken: token }], status: 403, error: 'forbidden' },
      { path: 'responses/edit', args: [{ responseId: UNKNOWN_ID, revokeToken: token, value: '+' }], status: 404, error: 'not-found' },
      { path: 'responses/remove', args: [{ feelbackId: UNKNOWN_ID, revokeToken: token }], status: 404, error: 'not-found' },
      { path: 'responses/remove', args: [{ responseId: created.responseId }], status: 400, error: 'bad-request', fields: ['args.0.revokeToken'] },
      {
        path: 'responses/remove',
        args: [{ responseId: created.responseId, revokeToken: '' }],
        status: 400,
        error: 'bad-request',
        fields: ['args.0.revokeToken'],
      },
      { path: 'responses/remove', args: [{ revokeToken: token }], status: 400, error: 'bad-request', fields: ['args.0.responseId'] },
      { path: 'responses/edit', args: [{ responseId: created.responseId, revokeToken: token }], status: 400, error: 'bad-request', fields: ['args.0.value'] },
      {
        path: 'responses/remove',
        args: [{ responseId: created.responseId, feelbackId: other.responseId, revokeToken: token }],
        status: 400,
        error: 'bad-request',
        fields: ['args.0.feelbackId'],
      },
      {
        path: 'responses/edit',
        args: [{ responseId: created.responseId, feelbackId: other.responseId, revokeToken: token, value: '+' }],
        status: 400,
        error: 'bad-request',
        fields: ['args.0.feelbackId'],
      },
      {
        path: 'responses/remove',
        args: [{ responseId: created.responseId, revokeToken: token, extra: 1 }],
        status: 400,
        error: 'bad-request',
        fields: ['args.0'],
      },
    ]);
    const both = await api.call('responses/remove', [{ responseId: created.responseId, feelbackId: created.responseId, revokeToken: token }]);
    expect(both.status).toBe(204);
  });

  it('refuses edit and remove once the window has closed (403), and changes nothing', async () => {
    const set = await createSet('pulse', {}, { revokeWindow: 1 });
    const created = await respond({ contentSetId: set.id, key: 'p', value: '+', revokable: true });
    expect(Date.parse(created.revokable!.expireAt) - Date.parse((await stored(created.responseId)).createdAt)).toBe(1000);
    await new Promise((wait) => setTimeout(wait, 1100));
    await expectRefusedWithoutWrites([
      {
        path: 'responses/edit',
        args: [{ responseId: created.responseId, revokeToken: created.revokable!.token, value: '+' }],
        status: 403,
        error: 'forbidden',
      },
      { path: 'feelbacks/remove', args: [{ feelbackId: created.responseId, revokeToken: created.revokable!.token }], status: 403, error: 'forbidden' },
    ]);
    expect((await stored(created.responseId)).state).toBe('active');
  });

  it('refuses edit and a second remove after removal (409)', async () => {
    const set = await createSet('reaction');
    const created = await respond({ contentSetId: set.id, key: 'p', value: 'heart', revokable: true });
    const reference = { responseId: created.responseId, revokeToken: created.revokable!.token };
    expect((await api.call('responses/remove', [reference])).status).toBe(204);
    await expectRefusedWithoutWrites([
      { path: 'responses/edit', args: [{ ...reference, value: 'rocket' }], status: 409, error: 'conflict' },
      { path: 'responses/remove', args: [reference], status: 409, error: 'conflict' },
    ]);
    expect(await stored(created.responseId)).toMatchObject({ state: 'revoked', value: 'heart' });
  });

  it('refuses a new value once the project, set or item is archived or inactive, past the 10 s bound (409), and changes nothing', async () => {
    const project = (await api.call('projects/create', [{ name: 'Edits' }], { key: owner.admin })).body.id;
    const setInProject = await createSet('pulse', {}, {}, project);
    const byProject = await respond({ contentSetId: setInProject.id, key: 'p', value: '+', revokable: true });
    const archivedSet = await createSet('pulse');
    const bySet = await respond({ contentSetId: archivedSet.id, key: 'p', value: '+', revokable: true });
    const liveSet = await createSet('pulse');
    const byItem = await respond({ contentSetId: liveSet.id, key: 'p', value: '+', revokable: true });
    expect((await api.call('projects/save', [project, { state: 'archived' }], { key: owner.admin })).status).toBe(200);
    expect((await api.call('sets/save', [archivedSet.id, { state: 'archived' }], { key: owner.admin })).status).toBe(200);
    const itemId = (await stored(byItem.responseId)).contentItemId;
    expect((await api.call('contents/save', [itemId, { state: 'inactive' }], { key: owner.admin })).status).toBe(200);
    // States are remembered for at most 10 s (target-cache.ts TARGET_MAX_AGE_MS; the bound
    // itself is tested in response-write-path.test.ts): past it, as here, edits are refused.
    clearTargetCache();

    const answers = await expectRefusedWithoutWrites(
      [byProject, bySet, byItem].map((created) => ({
        path: 'responses/edit',
        args: [{ responseId: created.responseId, revokeToken: created.revokable!.token, value: '+' }],
        status: 409,
        error: 'conflict',
      })),
    );
    expect(answers.map((answer) => [answer.body.data.entity, answer.body.data.state])).toEqual([
      ['project', 'archived'],
      ['contentSet', 'archived'],
      ['contentItem', 'inactive'],
    ]);
  });

  it('never shows revoke tokens or their hashes in responses/get or responses/list', async () => {
    const set = await createSet('pulse');
    const created = await respond({ contentSetId: set.id, key: 'p', value: '+', revokable: true });
    const token = created.revokable!.token;
    const got = await api.call('responses/get', [created.responseId], { key: owner.admin });
    const listed = await api.call('responses/list', [{ contentSetId: set.id, state: 'all' }], { key: owner.admin });
    expect(listed.body.items).toHaveLength(1);
    for (const text of [JSON.stringify(got.body), JSON.stringify(listed.body)]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(hashSecret(token));
      expect(text).not.toMatch(/revokeToken/i);
    }
    expect(Object.keys(got.body).sort()).toEqual(
      ['accountId', 'contentItemId', 'contentSetId', 'createdAt', 'id', 'projectId', 'state', 'updatedAt', 'value'].sort(),
    );
  });
});

describe('another account', () => {
  it('cannot create responses on this account with its own key, nor edit them', async () => {
    const set = await createSet('pulse');
    const item = await createItem(set.id, 'page');
    const created = await respond({ contentSetId: set.id, key: 'page', value: '+', revokable: true });
    const mine = await respond({ contentSetId: set.id, key: 'page', value: '+' }, { key: owner.admin });
    expect((await stored(mine.responseId)).contentItemId).toBe(item.id);
    await expectRefusedWithoutWrites([
      { args: [{ contentSetId: set.id, key: 'page', value: '+' }], options: { key: other.admin }, status: 404, error: 'not-found' },
      { args: [{ contentSetId: set.id, key: 'new-page', value: '+' }], options: { key: other.viewer }, status: 404, error: 'not-found' },
      { args: [{ contentId: item.id, value: '+' }], options: { key: other.admin }, status: 404, error: 'not-found' },
      { args: [set.id, 'page', '+', null, null, null, null], options: { key: other.admin }, status: 404, error: 'not-found' },
      {
        path: 'responses/edit',
        args: [{ responseId: created.responseId, revokeToken: created.revokable!.token, value: '+' }],
        options: { key: other.admin },
        status: 404,
        error: 'not-found',
      },
      {
        path: 'responses/remove',
        args: [{ responseId: created.responseId, revokeToken: created.revokable!.token }],
        options: { key: other.admin },
        status: 404,
        error: 'not-found',
      },
    ]);
  });

  it("cannot read or list this account's responses", async () => {
    const set = await createSet('pulse');
    const { responseId } = await respond({ contentSetId: set.id, key: 'page', value: '+' });
    const { contentItemId } = await stored(responseId);
    const got = await api.call('responses/get', [responseId], { key: other.viewer });
    expect([got.status, got.body.error]).toEqual([404, 'not-found']);
    for (const scope of [{ projectId }, { contentSetId: set.id }, { contentId: contentItemId }]) {
      const listed = await api.call('responses/list', [scope], { key: other.viewer });
      expect({ scope, status: listed.status, error: listed.body.error }).toEqual({ scope, status: 404, error: 'not-found' });
    }
    const anonymous = await api.call('responses/get', [responseId]);
    expect([anonymous.status, anonymous.body.error]).toEqual([401, 'unauthorized']);
  });
});
