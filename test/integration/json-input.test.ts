import fc from 'fast-check';
import { ApiError } from '../../functions/api/errors';
import { checkJsonInput, MAX_ARGUMENT_DEPTH } from '../../functions/api/json-input';
import { isStorableNumber } from '../../functions/domain/stored-numbers';
import { createAccount, createContentSet, startTestApi, type AccountKeys, type TestApi } from '../support/api';

/**
 * Any JSON object key a caller sends is either stored and read back exactly as sent, or
 * refused with bad-request naming where it is: never a 500, never silently dropped.
 */
let api: TestApi;
let owner: AccountKeys;
let projectId: string;
let contentSetId: string;

beforeAll(async () => {
  api = await startTestApi({ stream: false });
  owner = await createAccount('json-input');
  projectId = (await api.call('projects/create', [{ name: 'JSON input' }], { key: owner.admin })).body.id;
  contentSetId = await createContentSet(api, owner.admin, projectId, 'message');
});
afterAll(() => api.close());

const PROTOTYPE_MEMBERS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'];
const LONE_SURROGATES = ['\uD800', 'a\uDC00', '\uDBFFz'];

/** Object keys: the prototype's member names, lone surrogates, and any string of code points. */
const objectKey = fc.oneof(
  fc.constantFrom(...PROTOTYPE_MEMBERS, ...LONE_SURROGATES),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }),
);

/** The entries of a JSON object as read from JSON text (own properties only, `__proto__` included), sorted. */
function entries(value: unknown): [string, unknown][] {
  return Object.entries(value as object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function fieldPaths(body: { data?: { fields?: { path: string }[] } }): string[] {
  return (body.data?.fields ?? []).map((field) => field.path);
}

const RUNS = { numRuns: 40 };

describe('object keys in arguments', () => {
  it('a context key is stored and read back exactly, or refused with bad-request naming the context', async () => {
    await fc.assert(
      fc.asyncProperty(objectKey, fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean()), async (key, value) => {
        const context = JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`);
        const answer = await api.call('responses/create', undefined, {
          rawBody: `[{"contentSetId":${JSON.stringify(contentSetId)},"key":"k","value":"hi","context":${JSON.stringify(context)}}]`,
        });
        expect(answer.status).not.toBe(500);
        if (answer.status === 200) {
          const read = await api.call('responses/get', [answer.body.responseId], { key: owner.viewer });
          expect(entries(read.body.context)).toEqual(entries(context));
        } else {
          expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
          expect(fieldPaths(answer.body).every((path) => path.startsWith('args.0.context'))).toBe(true);
          expect(fieldPaths(answer.body).length).toBeGreaterThan(0);
        }
      }),
      RUNS,
    );
  });

  it('a key in set metadata or schemaConfig is stored and read back, or refused naming it', async () => {
    await fc.assert(
      fc.asyncProperty(objectKey, fc.constantFrom('metadata', 'schemaConfig'), async (key, where) => {
        const pair = `${JSON.stringify(key)}:true`;
        const metadata = where === 'metadata' ? `{"name":"Keys",${pair}}` : '{"name":"Keys"}';
        const schemaConfig = where === 'schemaConfig' ? `{${pair}}` : 'null';
        const setKey = `set-${Math.random().toString(36).slice(2, 10)}`;
        const rawBody = `[{"projectId":"${projectId}","key":"${setKey}","schema":"rating","metadata":${metadata},"schemaConfig":${schemaConfig}}]`;
        const answer = await api.call('sets/create', undefined, { key: owner.admin, rawBody });
        expect(answer.status).not.toBe(500);
        if (answer.status === 200) {
          const read = await api.call('sets/get', [answer.body.id], { key: owner.viewer });
          expect(entries(read.body[where])).toEqual(expect.arrayContaining([[key, true]]));
        } else {
          expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
          expect(fieldPaths(answer.body).some((path) => path.startsWith(`args.0.${where}`))).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses the context key %s, also through /v0/feelbacks/create', async (key) => {
    for (const path of ['responses/create', 'feelbacks/create']) {
      const answer = await api.call(path, undefined, {
        rawBody: `[{"contentSetId":${JSON.stringify(contentSetId)},"key":"k","value":"hi","context":{${JSON.stringify(key)}:"x"}}]`,
      });
      expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
      expect(fieldPaths(answer.body)).toEqual([`args.0.context.${key}`]);
    }
  });

  it('refuses a lone surrogate in a text value, naming it', async () => {
    const answer = await api.call('responses/create', undefined, {
      rawBody: `[{"contentSetId":${JSON.stringify(contentSetId)},"key":"k","value":"\\ud800 hi"}]`,
    });
    expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
    expect(fieldPaths(answer.body)).toEqual(['args.0.value']);
  });
});

/** `depth` arrays around `inner`, as JSON text. */
const nestedText = (depth: number, inner = '0') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

function expectTooDeep(answer: { status: number; body: { error?: string; message?: string; data?: { fields?: { path: string }[] } } }): void {
  expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
  expect(answer.body.message).toContain(`${MAX_ARGUMENT_DEPTH} levels`);
  expect(fieldPaths(answer.body)).toHaveLength(1);
}

describe('nesting depth', () => {
  it.each([5_000, 30_000])('refuses a POST body nested %i deep with bad-request naming the limit', async (depth) => {
    const bodies = [
      nestedText(depth),
      `[{"contentSetId":${JSON.stringify(contentSetId)},"key":"k","value":${nestedText(depth)}}]`,
      `[{"contentSetId":${JSON.stringify(contentSetId)},"key":"k","value":"hi","context":{"a":${nestedText(depth)}}}]`,
    ];
    for (const rawBody of bodies) expectTooDeep(await api.call('responses/create', undefined, { rawBody }));
    const setBody = `[{"projectId":"${projectId}","key":"deep","schema":"rating","metadata":{"name":"Deep"},"schemaConfig":${nestedText(depth, '{}')}}]`;
    expectTooDeep(await api.call('sets/create', undefined, { key: owner.admin, rawBody: setBody }));
  });

  it('refuses $p nested 5,000 deep with bad-request naming the limit; 30,000 deep is over the URL limit', async () => {
    // Brackets unencoded, as the widgets write their JSON into the URL.
    const get = async (text: string) => {
      const response = await fetch(`${api.baseUrl}/responses/getAggregates?$p=${text}`);
      const body = await response.text();
      return { status: response.status, body: body === '' ? {} : JSON.parse(body) };
    };
    expectTooDeep(await get(nestedText(5_000)));
    // 60,000 characters: past the 16 KiB a query string may hold (docs/api.md), refused before anything is parsed.
    const tooLong = await get(nestedText(30_000));
    expect([tooLong.status, tooLong.body.error]).toEqual([400, 'bad-request']);
    expect(JSON.stringify(tooLong.body.data)).toContain('query');
  });

  it(`allows ${MAX_ARGUMENT_DEPTH} levels, the argument list counting as the first, and names the first place past them`, () => {
    const nested = (depth: number): unknown[] => JSON.parse(nestedText(depth - 1, '[]'));
    expect(() => checkJsonInput(nested(MAX_ARGUMENT_DEPTH))).not.toThrow();
    expect(() => checkJsonInput([{ a: nested(MAX_ARGUMENT_DEPTH - 1) }])).toThrow(ApiError);
    try {
      checkJsonInput(nested(MAX_ARGUMENT_DEPTH + 1));
      throw new Error('not refused');
    } catch (error) {
      expect((error as ApiError).toBody()).toEqual({
        error: 'bad-request',
        message: expect.stringContaining(`at most ${MAX_ARGUMENT_DEPTH} levels`),
        data: { fields: [{ path: `args${'.0'.repeat(MAX_ARGUMENT_DEPTH)}`, message: `nests deeper than ${MAX_ARGUMENT_DEPTH} levels` }] },
      });
    }
  });

  it('reports the places of other refusals in the order they were sent', () => {
    try {
      checkJsonInput(JSON.parse('[{"a":{"constructor":1},"b":"\\ud800","prototype":[{"__proto__":2}]}]'));
      throw new Error('not refused');
    } catch (error) {
      expect(fieldPaths((error as ApiError).toBody() as Parameters<typeof fieldPaths>[0])).toEqual([
        'args.0.a.constructor',
        'args.0.b',
        'args.0.prototype',
        'args.0.prototype.0.__proto__',
      ]);
    }
  });

  /** Where a caller can put a value of their own, as a template of the raw body around it. */
  const FREE_FORM_PLACES: { name: string; path: () => string; body: (value: string) => string; key?: boolean }[] = [
    {
      name: 'responses/create value',
      path: () => 'responses/create',
      body: (value) => `[{"contentSetId":${JSON.stringify(contentSetId)},"key":"k","value":${value}}]`,
    },
    {
      name: 'responses/create context',
      path: () => 'responses/create',
      body: (value) => `[{"contentSetId":${JSON.stringify(contentSetId)},"key":"k","value":"hi","context":{"a":${value}}}]`,
    },
    { name: 'responses/create positional', path: () => 'responses/create', body: (value) => `[${JSON.stringify(contentSetId)},"k",${value},${value}]` },
    {
      name: 'responses/create profiling',
      path: () => 'responses/create',
      body: (value) => `[{"contentSetId":${JSON.stringify(contentSetId)},"key":"k","value":"hi","profiling":{"os":${value}}}]`,
    },
    {
      name: 'responses/edit value',
      path: () => 'responses/edit',
      body: (value) => `[{"responseId":"AAAAAAAAAAAAAAAAAAAAAA","revokeToken":"t","value":${value}}]`,
    },
    {
      name: 'sets/create schemaConfig',
      path: () => 'sets/create',
      key: true,
      body: (value) => `[{"projectId":"${projectId}","key":"deep","schema":"reaction","metadata":{"name":"Deep"},"schemaConfig":{"options":[${value}]}}]`,
    },
    {
      name: 'sets/create metadata',
      path: () => 'sets/create',
      key: true,
      body: (value) => `[{"projectId":"${projectId}","key":"deep","schema":"pulse","metadata":${value}}]`,
    },
    { name: 'projects/lookup filters', path: () => 'projects/lookup', key: true, body: (value) => `["",${value}]` },
    { name: 'the argument list', path: () => 'projects/create', key: true, body: (value) => `[${value}]` },
  ];

  /** Arrays and objects nested `depth` deep around a scalar. */
  const nestedValue = fc
    .record({ depth: fc.integer({ min: 1, max: 200 }), shapes: fc.array(fc.boolean(), { minLength: 200, maxLength: 200 }) })
    .map(({ depth, shapes }) => ({
      depth,
      text: shapes.slice(0, depth).reduce((inner, asObject) => (asObject ? `{"k":${inner}}` : `[${inner}]`), '1'),
    }));

  it('no nesting in any free-form field answers 500; past the limit it is bad-request naming it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FREE_FORM_PLACES), nestedValue, async (place, { depth, text }) => {
        const answer = await api.call(place.path(), undefined, { rawBody: place.body(text), ...(place.key ? { key: owner.admin } : {}) });
        expect(answer.status).not.toBe(500);
        expect(answer.status).toBeLessThan(500);
        // Every place sits inside at most 4 levels, so a value this deep is always past the limit.
        if (depth > MAX_ARGUMENT_DEPTH) expectTooDeep(answer);
      }),
      { numRuns: 60 },
    );
  });
});

describe('numbers in free-form fields', () => {
  let ratingSetId: string;
  let ratedItemId: string;
  let edited: { responseId: string; revokeToken: string };

  beforeAll(async () => {
    // Ratings -1, 0 and 1: a tiny number is within the value check's tolerance of 0.
    ratingSetId = await createContentSet(api, owner.admin, projectId, 'rating', { schemaConfig: { min: -1, max: 1, step: 1 } });
    const first = await api.call('responses/create', [{ contentSetId: ratingSetId, key: 'rated', value: 1, revokable: true }]);
    expect(first.status).toBe(200);
    ratedItemId = (await api.call('responses/get', [first.body.responseId], { key: owner.viewer })).body.contentItemId;
    expect(ratedItemId).toEqual(expect.any(String));
    edited = { responseId: first.body.responseId, revokeToken: first.body.revokable.token };
  });

  /** Every double JSON can carry, and the edges of what DynamoDB and the SDK store. */
  const anyNumber = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.constantFrom(2 ** 53, 2 ** 53 - 1, -(2 ** 53), 1e125, 1e126, 1e-130, 1e-131, -1e-131, 1e-200, Number.MIN_VALUE, 0, -0),
  );
  const newKey = () => `n-${Math.random().toString(36).slice(2, 10)}`;

  /** A free-form place for a number: the request, and the field a refusal must name. */
  interface NumberPlace {
    name: string;
    call: (value: number) => Promise<{ status: number; body: any }>;
    field: string;
    /** Reads back what was stored, when it was accepted. */
    stored?: (answer: { body: any }) => Promise<unknown>;
  }
  const createSet = (schema: string, schemaConfig: unknown) =>
    api.call('sets/create', [{ projectId, key: newKey(), schema, metadata: { name: 'Numbers' }, schemaConfig }], { key: owner.admin });
  const readContext = async (answer: { body: any }) => (await api.call('responses/get', [answer.body.responseId], { key: owner.viewer })).body.context.n;
  const readConfig = async (answer: { body: any }) => (await api.call('sets/get', [answer.body.id], { key: owner.viewer })).body.schemaConfig;
  const PLACES: NumberPlace[] = [
    {
      name: 'context, new key',
      call: (n) => api.call('responses/create', [{ contentSetId, key: newKey(), value: 'hi', context: { n } }]),
      field: 'args.0.context.n',
      stored: readContext,
    },
    {
      name: 'context, existing item',
      call: (n) => api.call('responses/create', [{ contentSetId, key: 'k', value: 'hi', context: { n } }]),
      field: 'args.0.context.n',
      stored: readContext,
    },
    {
      name: 'context, positional',
      call: (n) => api.call('responses/create', [contentSetId, 'k', 'hi', { n }]),
      field: 'args.3.n',
      stored: readContext,
    },
    { name: 'rating, new key', call: (n) => api.call('responses/create', [{ contentSetId: ratingSetId, key: newKey(), value: n }]), field: 'args.0.value' },
    { name: 'rating, existing item', call: (n) => api.call('responses/create', [{ contentId: ratedItemId, value: n }]), field: 'args.0.value' },
    { name: 'rating as a string', call: (n) => api.call('responses/create', [{ contentId: ratedItemId, value: String(n) }]), field: 'args.0.value' },
    { name: 'rating, edited', call: (n) => api.call('responses/edit', [{ ...edited, value: n }]), field: 'args.0.value' },
    { name: 'rating min', call: (n) => createSet('rating', { min: n, max: n + 1 }), field: 'args.0.schemaConfig', stored: readConfig },
    { name: 'rating max', call: (n) => createSet('rating', { min: n - 1, max: n }), field: 'args.0.schemaConfig', stored: readConfig },
    { name: 'rating step', call: (n) => createSet('rating', { min: 0, max: n, step: n }), field: 'args.0.schemaConfig', stored: readConfig },
    {
      name: 'reaction sentiment',
      call: (n) => createSet('reaction', { options: [{ value: 'a', sentiment: n, intensity: 0.5 }] }),
      field: 'args.0.schemaConfig.options.0.sentiment',
      stored: readConfig,
    },
    {
      name: 'reaction intensity',
      call: (n) => createSet('reaction', { options: [{ value: 'a', sentiment: 0, intensity: n }] }),
      field: 'args.0.schemaConfig.options.0.intensity',
      stored: readConfig,
    },
    {
      name: 'tag sentiment',
      call: (n) => createSet('tagged-message', { tags: [{ value: 'a', sentiment: n }] }),
      field: 'args.0.schemaConfig.tags.0.sentiment',
      stored: readConfig,
    },
  ];

  it('no number in any free-form field answers 500: it is stored as sent, or refused naming its field', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PLACES), anyNumber, async (place, n) => {
        const answer = await place.call(n);
        expect({ place: place.name, n, status: answer.status }).toEqual({ place: place.name, n, status: expect.any(Number) });
        expect(answer.status).toBeLessThan(500);
        if (answer.status === 200) {
          expect(isStorableNumber(n)).toBe(true);
          if (place.stored) expect(JSON.stringify(await place.stored(answer))).toContain(JSON.stringify(n));
        } else {
          expect([answer.status, answer.body.error]).toEqual([400, 'bad-request']);
          expect(fieldPaths(answer.body).some((path) => path.startsWith(place.field))).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });

  it.each([2 ** 53, -(2 ** 53), 1e125, 1e-131])('refuses the context number %d, for an existing item and a new key, naming the field', async (n) => {
    for (const key of ['k', newKey()]) {
      const answer = await api.call('responses/create', [{ contentSetId, key, value: 'hi', context: { n } }]);
      expect([answer.status, answer.body.error, fieldPaths(answer.body)]).toEqual([400, 'bad-request', ['args.0.context.n']]);
      expect(answer.body.data.fields[0].message).toContain('2^53-1');
    }
  });

  it('stores the context numbers at the edges of the range exactly', async () => {
    for (const n of [2 ** 53 - 1, -(2 ** 53 - 1), 1e-130, -1e-130, 0.1, 0]) {
      const answer = await api.call('responses/create', [{ contentSetId, key: newKey(), value: 'hi', context: { n } }]);
      expect([n, answer.status]).toEqual([n, 200]);
      expect(await readContext(answer)).toBe(n);
    }
  });
});
