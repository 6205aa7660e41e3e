/**
 * Which answers may be cached (CloudFront in front of the API on AWS, browsers anywhere):
 * only responses/getAggregates over GET for a set with public aggregates, for
 * AGGREGATES_MAX_AGE_SECONDS (default 10); every other answer, errors included, is no-store.
 */
import { aggregatesMaxAge, publicCacheControl } from '../../functions/api/cache-control';
import { createAccount, createContentSet, startTestApi, type AccountKeys, type TestApi } from '../support/api';

let api: TestApi;
let owner: AccountKeys;
let publicSet: string;
let privateSet: string;

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('cache-control');
  const projectId = (await api.call('projects/create', [{ name: 'Cached' }], { key: owner.admin })).body.id;
  publicSet = await createContentSet(api, owner.admin, projectId, 'yes-no', { metadata: { publicAggregates: true } });
  privateSet = await createContentSet(api, owner.admin, projectId, 'yes-no');
  await api.call('responses/create', [{ contentSetId: publicSet, key: 'page', value: 'y' }]);
});
afterAll(() => api.close());

const cacheControl = (answer: { headers: Headers }) => answer.headers.get('cache-control');

describe('Cache-Control', () => {
  test("a GET of a public set's counts: public, max-age=0, s-maxage=10 by default, whether or not the key has an item yet", async () => {
    for (const key of ['page', 'nobody-answered-yet']) {
      const answer = await api.call('feelbacks/getAggregates', [{ contentSetId: publicSet, key }], { method: 'GET' });
      expect([answer.status, cacheControl(answer)]).toEqual([200, 'public, max-age=0, s-maxage=10']);
    }
    // A keyed GET of the same public counts is as shareable (CloudFront keys its cache on Authorization).
    const keyed = await api.call('responses/getAggregates', [{ contentSetId: publicSet, key: 'page' }], { method: 'GET', key: owner.viewer });
    expect([keyed.status, cacheControl(keyed)]).toEqual([200, 'public, max-age=0, s-maxage=10']);
  });

  test('AGGREGATES_MAX_AGE_SECONDS sets N; 0 turns caching off', async () => {
    const saved = process.env.AGGREGATES_MAX_AGE_SECONDS;
    try {
      process.env.AGGREGATES_MAX_AGE_SECONDS = '30';
      const answer = await api.call('feelbacks/getAggregates', [{ contentSetId: publicSet, key: 'page' }], { method: 'GET' });
      expect(cacheControl(answer)).toBe('public, max-age=0, s-maxage=30');
      process.env.AGGREGATES_MAX_AGE_SECONDS = '0';
      expect(cacheControl(await api.call('feelbacks/getAggregates', [{ contentSetId: publicSet, key: 'page' }], { method: 'GET' }))).toBe('no-store');
    } finally {
      if (saved === undefined) delete process.env.AGGREGATES_MAX_AGE_SECONDS;
      else process.env.AGGREGATES_MAX_AGE_SECONDS = saved;
    }
    expect([aggregatesMaxAge({}), aggregatesMaxAge({ AGGREGATES_MAX_AGE_SECONDS: 'x' }), publicCacheControl(5)]).toEqual([
      10,
      10,
      'public, max-age=0, s-maxage=5',
    ]);
  });

  test('no-store for everything else: a private set (keyed), POST, errors, other operations', async () => {
    const answers = [
      await api.call('responses/getAggregates', [{ contentSetId: privateSet, key: 'page' }], { method: 'GET', key: owner.viewer }),
      await api.call('responses/getAggregates', [{ contentSetId: publicSet, key: 'page' }]),
      await api.call('feelbacks/getAggregates', [{ contentSetId: privateSet, key: 'page' }], { method: 'GET' }),
      await api.call('feelbacks/getAggregates', [{ contentSetId: 'A'.repeat(22), key: 'page' }], { method: 'GET' }),
      await api.call('responses/create', [{ contentSetId: publicSet, key: 'page', value: 'n' }]),
      await api.call('sets/get', [publicSet], { method: 'GET', key: owner.viewer }),
    ];
    expect(answers.map((answer) => [answer.status, cacheControl(answer)])).toEqual([
      [200, 'no-store'],
      [200, 'no-store'],
      [401, 'no-store'],
      [404, 'no-store'],
      [200, 'no-store'],
      [200, 'no-store'],
    ]);
  });
});
