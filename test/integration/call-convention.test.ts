import { MAX_BODY_BYTES } from '../../functions/api/adapter';
import { operationPath } from '../../functions/api/operation';
import { operationList } from '../../functions/api/registry';
import { logger } from '../../functions/observability/logger';
import { createAccount, startTestApi, tableSnapshot, type AccountKeys, type ApiAnswer, type TestApi } from '../support/api';

let api: TestApi;
let owner: AccountKeys;
let projectId: string;
/** Every error answer seen in this file, checked for the ApiError shape at the end. */
const errors: ApiAnswer[] = [];

function expectError(answer: ApiAnswer, status: number, error: string): void {
  if (answer.status >= 400) errors.push(answer);
  expect([answer.status, answer.body?.error]).toEqual([status, error]);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
}

function fieldPaths(answer: ApiAnswer): string[] {
  return answer.body.data.fields.map((field: { path: string }) => field.path);
}

/** A request the TestApi helper cannot make (other methods, paths outside /v0, raw bodies). */
async function raw(path: string, init: RequestInit = {}): Promise<ApiAnswer> {
  const origin = new URL(api.baseUrl).origin;
  const response = await fetch(`${origin}${path}`, init);
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
}

beforeAll(async () => {
  api = await startTestApi({ stream: false });
  owner = await createAccount('owner');
  projectId = (await api.call('projects/create', [{ name: 'Convention' }], { key: owner.admin })).body.id;
});
afterAll(() => api.close());

describe('request bodies', () => {
  it.each([
    ['not JSON', '[{"name": "x"'],
    ['JSON that is not an array (object)', '{"name":"x"}'],
    ['JSON that is not an array (string)', '"x"'],
    ['JSON null', 'null'],
  ])('refuses a body that is %s with bad-request on args, writing nothing', async (_case, rawBody) => {
    const before = await tableSnapshot();
    const answer = await api.call('projects/create', undefined, { key: owner.admin, rawBody });
    expectError(answer, 400, 'bad-request');
    expect(answer.body.data.fields).toEqual([{ path: 'args', message: expect.any(String) }]);
    expect(await tableSnapshot()).toEqual(before);
  });

  it.each([
    ['no argument', 'projects/get', [], ['args']],
    ['too many arguments', 'projects/get', ['A'.repeat(22), 'extra'], ['args']],
    ['a number for a string', 'projects/get', [42], ['args.0']],
    ['null for a string', 'projects/get', [null], ['args.0']],
    ['a number for the name', 'projects/create', [{ name: 5 }], ['args.0.name']],
    ['an array for the object', 'projects/create', [['Docs']], ['args.0']],
    ['a wrong filter type', 'projects/lookup', ['x', { state: 1 }], ['args.1.state']],
    ['a string for the filters', 'projects/lookup', ['x', 'active'], ['args.1']],
    [
      'several wrong fields',
      'sets/create',
      [{ projectId: 1, key: 2, schema: 'nope', metadata: { name: 3 } }],
      ['args.0.projectId', 'args.0.key', 'args.0.schema', 'args.0.metadata.name'],
    ],
  ])('refuses %s with bad-request listing the fields, writing nothing', async (_case, path, args, paths) => {
    const before = await tableSnapshot();
    const answer = await api.call(path, args, { key: owner.admin });
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer).sort()).toEqual([...paths].sort());
    for (const field of answer.body.data.fields) expect(typeof field.message).toBe('string');
    expect(await tableSnapshot()).toEqual(before);
  });

  it('reads no body, an empty body and [] as no arguments', async () => {
    const empty = await api.call('projects/create', [], { key: owner.admin });
    expectError(empty, 400, 'bad-request');
    for (const rawBody of [undefined, '', '  \n']) {
      const answer = await api.call('projects/create', undefined, { key: owner.admin, rawBody });
      expectError(answer, 400, 'bad-request');
      expect(answer.body.data).toEqual(empty.body.data);
    }
  });

  it('answers an operation whose arguments are all optional alike with no body, an empty body and []', async () => {
    // A member's own notifications answer a signed-in person only (an API key has no
    // mailbox: 403, as test/integration/mail.test.ts shows); every other such read answers a key.
    const personOnly = new Set(['members/notifications']);
    const optional = operationList.filter(
      (operation) => operation.readOnly && operation.level !== 'admin' && operation.args.safeParse([]).success && !personOnly.has(operationPath(operation)),
    );
    expect(optional.length).toBeGreaterThan(0);
    for (const path of personOnly) expectError(await api.call(path, [], { key: owner.viewer }), 403, 'forbidden');
    for (const operation of optional) {
      const path = `${operation.resource}/${operation.name}`;
      const withArray = await api.call(path, [], { key: owner.viewer });
      expect(withArray.status).toBe(200);
      for (const rawBody of [undefined, '']) {
        const answer = await api.call(path, undefined, { key: owner.viewer, rawBody });
        expect([answer.status, answer.body]).toEqual([200, withArray.body]);
      }
    }
  });

  it('accepts a body of exactly 64 KiB and refuses one byte more with payload-too-large', async () => {
    const exact = (size: number) => {
      const body = `[{"name":"${'x'.repeat(size - 13)}"}]`;
      expect(Buffer.byteLength(body)).toBe(size);
      return body;
    };
    const before = await tableSnapshot();
    const atLimit = await api.call('projects/create', undefined, { key: owner.admin, rawBody: exact(MAX_BODY_BYTES) });
    expectError(atLimit, 400, 'bad-request');
    expect(fieldPaths(atLimit)).toEqual(['args.0.name']);
    const over = await api.call('projects/create', undefined, { key: owner.admin, rawBody: exact(MAX_BODY_BYTES + 1) });
    expectError(over, 413, 'payload-too-large');
    expect(MAX_BODY_BYTES).toBe(64 * 1024);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('counts the limit in bytes, not characters', async () => {
    const body = `[{"name":"${'😀'.repeat(16384)}"}]`;
    expect(body.length).toBeLessThan(MAX_BODY_BYTES);
    expect(Buffer.byteLength(body)).toBeGreaterThan(MAX_BODY_BYTES);
    const before = await tableSnapshot();
    expectError(await api.call('projects/create', undefined, { key: owner.admin, rawBody: body }), 413, 'payload-too-large');
    expect(await tableSnapshot()).toEqual(before);
  });

  it('checks the size before the key', async () => {
    expectError(await api.call('projects/create', undefined, { rawBody: `["${'x'.repeat(MAX_BODY_BYTES)}"]` }), 413, 'payload-too-large');
  });

  it('answers JSON with status 200 on success', async () => {
    const answer = await api.call('projects/get', [projectId], { key: owner.viewer });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body.id).toBe(projectId);
  });
});

describe('log lines', () => {
  /** The lines logged during `work`, by message: the local server's access lines and the function's own. */
  async function linesOf(work: () => Promise<unknown>): Promise<{ message: string; fields: Record<string, unknown> }[]> {
    const info = jest.spyOn(logger, 'info');
    try {
      await work();
      return info.mock.calls.map(([message, fields]) => ({ message: String(message), fields: fields as Record<string, unknown> }));
    } finally {
      info.mockRestore();
    }
  }

  it('log every call in the access line, and a function line only for a failed one, with its error code', async () => {
    const succeeded = await linesOf(() => api.call('projects/get', [projectId], { key: owner.viewer }));
    expect(succeeded.map((line) => [line.message, line.fields.status])).toEqual([['access', 200]]);
    const failed = await linesOf(() => api.call('projects/get', ['AAAAAAAAAAAAAAAAAAAAAA'], { key: owner.viewer }));
    expect(failed.map((line) => [line.message, line.fields.status, line.fields.error])).toEqual([
      ['request', 404, 'not-found'],
      ['access', 404, undefined],
    ]);
    // Neither line holds an argument or an address.
    expect(JSON.stringify(failed)).not.toMatch(/AAAAAAAAAAAAAAAAAAAAAA|127\.0\.0\.1/);
  });
});

describe('methods', () => {
  it('serves read-only operations on GET with ?$p=', async () => {
    const viaPost = await api.call('projects/get', [projectId], { key: owner.viewer });
    const viaGet = await api.call('projects/get', [projectId], { key: owner.viewer, method: 'GET' });
    expect([viaGet.status, viaGet.body]).toEqual([200, viaPost.body]);
    const exists = await api.call('sets/exists', [{ projectId, key: 'none' }], { key: owner.viewer, method: 'GET' });
    expect([exists.status, exists.body]).toEqual([200, false]);
    const lookup = await api.call('contents/lookup', ['x'], { key: owner.viewer, method: 'GET' });
    expect([lookup.status, lookup.body]).toEqual([200, []]);
  });

  it('reads a GET without $p as no arguments and checks $p like a body', async () => {
    const none = await api.call('projects/get', undefined, { key: owner.viewer, method: 'GET' });
    expectError(none, 400, 'bad-request');
    expect(fieldPaths(none)).toEqual(['args']);
    const invalid = await raw(`/v0/projects/get?$p=${encodeURIComponent('[oops')}`, { headers: { authorization: `API-KEY ${owner.viewer}` } });
    expectError(invalid, 400, 'bad-request');
    expect(fieldPaths(invalid)).toEqual(['args']);
    const wrongType = await api.call('projects/get', [1], { key: owner.viewer, method: 'GET' });
    expectError(wrongType, 400, 'bad-request');
    expect(fieldPaths(wrongType)).toEqual(['args.0']);
  });

  it('refuses an unauthenticated GET whose $p cannot be rebuilt from thousands of parameters, naming the query', async () => {
    // The adversarial review's request: before the bound it held the server for seconds.
    const bare = '&b'.repeat(3900);
    const answer = await raw(`/v0/responses/getAggregates?$p=%5B%22${'a'.repeat(2000)}${bare}`);
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer)).toEqual(['query']);
    expect((await raw('/v0/health')).status).toBe(200);
  });

  it('answers a GET too long for the query limit, or for any server, with an ApiError body', async () => {
    // 20 KiB of $p: past the adapter's 16 KiB query limit, which names the query (Node's 16 KiB header limit answered a bare 431 first).
    const long = encodeURIComponent(JSON.stringify(Array.from({ length: 700 }, () => 'Su7n2fvooirIQHXfoKojcA')));
    const answer = await raw(`/v0/sets/get?$p=${long}`, { headers: { authorization: `API-KEY ${owner.viewer}` } });
    expectError(answer, 400, 'bad-request');
    expect(fieldPaths(answer)).toEqual(['query']);
    // Past the server's 64 KiB for the request line and headers: refused before any handler, still as an ApiError.
    const huge = await raw(`/v0/sets/get?$p=${'a'.repeat(70_000)}`);
    expectError(huge, 400, 'bad-request');
    expect(huge.body.message).toMatch(/request line and headers must be at most 65536 bytes/);
    expect((await raw('/v0/health')).status).toBe(200);
  });

  it.each(['projects/create', 'projects/save', 'sets/create', 'sets/save', 'contents/create', 'contents/save'])(
    'refuses GET on %s with method-not-allowed and writes nothing',
    async (path) => {
      const before = await tableSnapshot();
      expectError(await api.call(path, [{ name: 'via GET' }], { key: owner.admin, method: 'GET' }), 405, 'method-not-allowed');
      expectError(await api.call(path, [{ name: 'via GET' }], { method: 'GET' }), 405, 'method-not-allowed');
      expect(await tableSnapshot()).toEqual(before);
    },
  );

  it.each(['PUT', 'DELETE', 'PATCH'])('refuses %s with method-not-allowed', async (method) => {
    const before = await tableSnapshot();
    const answer = await raw('/v0/projects/create', {
      method,
      headers: { 'content-type': 'application/json', authorization: `API-KEY ${owner.admin}` },
      body: JSON.stringify([{ name: 'x' }]),
    });
    expectError(answer, 405, 'method-not-allowed');
    expectError(await raw('/v0/projects/get', { method, headers: { authorization: `API-KEY ${owner.viewer}` } }), 405, 'method-not-allowed');
    expect(await tableSnapshot()).toEqual(before);
  });
});

describe('routes', () => {
  it.each(['/v0/projects/nope', '/v0/unknown/get', '/v0/projects', '/v0', '/', '/v1/projects/get', '/projects/get', '/v0/projects/get/extra'])(
    'answers not-found for %s',
    async (path) => {
      const answer = await raw(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' });
      expectError(answer, 404, 'not-found');
      expect(answer.body).toEqual({ error: 'not-found', message: expect.any(String), data: { path } });
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    },
  );

  it('routes every operation of the registry under /v0', async () => {
    for (const operation of operationList) {
      const answer = await raw(`/v0/${operation.resource}/${operation.name}`, { method: 'POST', body: '[' });
      // Not the unknown-route answer: the operation itself answered (size, auth or arguments).
      expect(answer.body?.data?.path).toBeUndefined();
      expect(answer.status).not.toBe(404);
    }
  });

  it('serves the responses operations under /v0/feelbacks too', async () => {
    const responses = operationList.filter((operation) => operation.resource === 'responses');
    expect(responses.map((operation) => operation.name).sort()).toEqual([
      'create',
      'discard',
      'edit',
      'erase',
      'export',
      'get',
      'getAggregates',
      'import',
      'list',
      'release',
      'remove',
    ]);
    for (const operation of responses) {
      const canonical = await raw(`/v0/responses/${operation.name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      const alias = await raw(`/v0/feelbacks/${operation.name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(alias.body?.data?.path).toBeUndefined();
      expect([alias.status, alias.body?.error]).toEqual([canonical.status, canonical.body?.error]);
      expect(alias.status).not.toBe(404);
    }
    expectError(await raw('/v0/feelbacks/top', { method: 'POST', body: '[]' }), 404, 'not-found');
    expectError(await raw('/v0/feelbacks/nope', { method: 'POST', body: '[]' }), 404, 'not-found');
  });

  it('answers /v0/health with 200', async () => {
    const answer = await raw('/v0/health');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok' });
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('authentication', () => {
  it.each([
    ['another scheme', (key: string) => `Bearer ${key}`],
    ['the key alone', (key: string) => key],
    ['the scheme alone', () => 'API-KEY'],
    ['two values', (key: string) => `API-KEY ${key} ${key}`],
    ['an unknown key', () => 'API-KEY fbk_doesnotexist'],
  ])('refuses %s with unauthorized, even on an operation open to viewers', async (_case, header) => {
    const before = await tableSnapshot();
    expectError(await api.call('projects/get', [projectId], { headers: { authorization: header(owner.viewer) } }), 401, 'unauthorized');
    expectError(await api.call('projects/create', [{ name: 'x' }], { headers: { authorization: header(owner.admin) } }), 401, 'unauthorized');
    expect(await tableSnapshot()).toEqual(before);
  });

  it.each([
    ['an empty header', ''],
    ['a no-break space', '\u00a0'],
    ['blanks', '   '],
    ['a no-break space between scheme and key', (key: string) => `API-KEY\u00a0${key}`],
    ['a no-break space after the key', (key: string) => `API-KEY ${key}\u00a0`],
    ['the Basic scheme', (key: string) => `Basic ${Buffer.from(`x:${key}`).toString('base64')}`],
  ])('refuses %s with unauthorized, also on the anonymous operations', async (_case, header) => {
    const value = typeof header === 'string' ? header : header(owner.viewer);
    const before = await tableSnapshot();
    const headers = { authorization: value, 'content-type': 'application/json' };
    expectError(await raw('/v0/responses/getAggregates', { method: 'POST', headers, body: '[]' }), 401, 'unauthorized');
    expectError(await raw('/v0/responses/create', { method: 'POST', headers, body: '[]' }), 401, 'unauthorized');
    expectError(await raw('/v0/feelbacks/create', { method: 'POST', headers, body: '[]' }), 401, 'unauthorized');
    expect(await tableSnapshot()).toEqual(before);
  });

  it('accepts tabs and spaces around the key', async () => {
    const answer = await api.call('projects/get', [projectId], { headers: { authorization: `API-KEY \t ${owner.viewer}\t ` } });
    expect(answer.status).toBe(200);
  });

  it('accepts the scheme in any case', async () => {
    const answer = await api.call('projects/get', [projectId], { headers: { authorization: `api-key ${owner.viewer}` } });
    expect(answer.status).toBe(200);
  });

  it('authenticates before it validates arguments', async () => {
    expectError(await api.call('projects/get', [42]), 401, 'unauthorized');
    expectError(await api.call('projects/create', [{}], { key: owner.viewer }), 403, 'forbidden');
  });
});

describe('security headers', () => {
  it('every API answer carries X-Content-Type-Options: nosniff (success, error, unknown route, preflight, health)', async () => {
    const answers = [
      await api.call('projects/get', [projectId], { key: owner.viewer }),
      await api.call('projects/get', [projectId]),
      await raw('/v0/nothing/here', { method: 'POST' }),
      await raw('/v0/projects/get', { method: 'OPTIONS', headers: { origin: 'https://site.example', 'access-control-request-method': 'POST' } }),
      await raw('/v0/health'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 404, 204, 200]);
    for (const answer of answers) expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('CORS', () => {
  it('answers a preflight with the CORS headers', async () => {
    for (const path of ['/v0/projects/create', '/v0/feelbacks/create']) {
      const response = await fetch(`${new URL(api.baseUrl).origin}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://site.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,authorization',
        },
      });
      expect(response.status).toBeLessThan(300);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')?.split(',')).toEqual(expect.arrayContaining(['GET', 'POST', 'OPTIONS']));
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual(expect.arrayContaining(['content-type', 'authorization']));
      expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    }
  });

  it('sets Access-Control-Allow-Origin on every answer', async () => {
    const answers: ApiAnswer[] = [
      await api.call('projects/get', [projectId], { key: owner.viewer, headers: { origin: 'https://site.example' } }),
      await api.call('projects/get', [projectId], { key: owner.viewer, method: 'GET' }),
      await api.call('projects/get', [projectId]),
      await api.call('projects/create', [{}], { key: owner.viewer }),
      await api.call('projects/create', [{ name: '' }], { key: owner.admin }),
      await api.call('projects/get', ['A'.repeat(22)], { key: owner.viewer }),
      await api.call('projects/create', [{ name: 'x' }], { method: 'GET' }),
      await api.call('projects/create', undefined, { rawBody: `["${'x'.repeat(MAX_BODY_BYTES)}"]` }),
      await api.call('sets/create', [{ projectId, key: 'cors', schema: 'pulse', metadata: { name: 'CORS' } }], { key: owner.admin }),
      await api.call('sets/create', [{ projectId, key: 'cors', schema: 'pulse', metadata: { name: 'CORS' } }], { key: owner.admin }),
      await raw('/v0/nowhere'),
      await raw('/v0/health'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401, 403, 400, 404, 405, 413, 200, 409, 404, 200]);
    for (const answer of answers) expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('error bodies', () => {
  it('have exactly error, message and an optional data object, and never a stack trace', () => {
    expect(errors.length).toBeGreaterThan(30);
    for (const { body } of errors) {
      expect(Object.keys(body).every((name) => ['error', 'message', 'data'].includes(name))).toBe(true);
      expect(typeof body.error).toBe('string');
      expect(typeof body.message).toBe('string');
      expect(body.message.length).toBeGreaterThan(0);
      if ('data' in body) expect(body.data !== null && typeof body.data === 'object' && !Array.isArray(body.data)).toBe(true);
      const text = JSON.stringify(body);
      expect(text).not.toMatch(/stack|\s+at\s+\S+\s+\(|\.ts:\d+|node_modules/);
    }
  });
});
