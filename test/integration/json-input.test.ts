import fc from 'fast-check';
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
  api = await startTestApi();
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
