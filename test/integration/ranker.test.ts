import { TOP_PERIODS } from '../../shared/periods';
import { ANONYMOUS } from '../../functions/api/auth';
import { refreshTopList, runRanker } from '../../functions/jobs/ranker';
import { createResponse } from '../../functions/operations/response-collection';
import { topContentItems } from '../../functions/operations/top';
import { defaultStore } from '../../functions/store/entity-store';
import { minuteKey, readTopList } from '../../functions/store/top-lists';
import { meterClient } from '../../scripts/dynamo-meter';
import { createAccount, createContentSet, startTestApi, type AccountKeys, type TestApi } from '../support/api';

/**
 * The ranker against counters made by the real stream consumer: rankings follow the counts
 * by one run, a rolling window's slide is recounted on the first run of a day without any
 * new response, and concurrent runs on one list lose nothing.
 */
let api: TestApi;
let owner: AccountKeys;
let projectId: string;
let contentSetId: string;
const DAY = 86_400_000;
const { store } = defaultStore();

async function vote(key: string, times: number, at = new Date()) {
  for (let index = 0; index < times; index++) {
    await createResponse(store, ANONYMOUS, { contentSetId, key, value: '+' }, { headers: {} }, at);
  }
}

const ranked = async (period: 'rolling7d' | 'week', now = new Date()) =>
  (await topContentItems(store, owner.accountId, { contentSetId, period, $size: 10, $sort: 'count', $minCount: 1 }, now)).map((entry) => [
    entry.key,
    entry.stats.count,
  ]);

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('ranker');
  projectId = (await api.call('projects/create', [{ name: 'Ranked' }], { key: owner.admin })).body.id;
  contentSetId = await createContentSet(api, owner.admin, projectId, 'pulse');
}, 60_000);
afterAll(() => api.close());

describe('the ranker', () => {
  it('ranks what the consumer counted at its next run, not before, from one change record per batch', async () => {
    await vote('a', 2);
    await api.drainStream({ rank: false });
    expect(await ranked('rolling7d')).toEqual([]);
    const result = await runRanker(store, new Date());
    expect(result.changeRecords).toBeGreaterThanOrEqual(1);
    expect(result.written).toBeGreaterThanOrEqual(1);
    expect(await ranked('rolling7d')).toEqual([['a', 2]]);
    // Nothing changed since: the next run reads back CHANGE_READ_OVERLAP_MS but skips the records the last run read.
    const again = await runRanker(store, new Date());
    expect([again.changeRecords, again.written]).toEqual([0, 0]);
  });

  it('recounts a slid rolling window on the first run of a day, with no new response', async () => {
    await vote('old', 5, new Date(Date.now() - 6 * DAY));
    await vote('b', 3);
    await api.drainStream();
    expect(await ranked('rolling7d')).toEqual([
      ['old', 5],
      ['b', 3],
      ['a', 2],
    ]);
    // Tomorrow, the day of `old`'s responses has left the window: the first run of the day recounts it.
    const tomorrow = new Date(Date.now() + DAY);
    const result = await runRanker(store, tomorrow);
    expect(result.dailyRecount).toBe(true);
    expect(await ranked('rolling7d', tomorrow)).toEqual([
      ['b', 3],
      ['a', 2],
    ]);
    expect((await runRanker(store, tomorrow)).dailyRecount).toBe(false);
  });

  it('loses nothing when two runs rewrite one list at once', async () => {
    await vote('c', 4);
    await vote('d', 1);
    await api.drainStream({ rank: false });
    const items = await contentItemIds(['c', 'd']);
    const scope = { accountId: owner.accountId, projectId, contentSetId };
    const outcomes = await Promise.all([refreshTopList(store, scope, [items.c], new Date()), refreshTopList(store, scope, [items.d], new Date())]);
    // Both wrote (one after starting over on the other's version), or one found nothing left to write.
    expect(outcomes.filter((outcome) => outcome.written).length).toBeGreaterThanOrEqual(1);
    const list = await readTopList(store, scope, { consistent: true });
    const SEVEN_DAYS = TOP_PERIODS.indexOf('rolling7d');
    expect(list!.list.items.get(items.c)![SEVEN_DAYS]).toBe(4);
    expect(list!.list.items.get(items.d)![SEVEN_DAYS]).toBe(1);
  });

  it("rewrites one part of the list for a response on one item, the set's counts with it", async () => {
    const items = await contentItemIds(['a', 'c']);
    const scope = { accountId: owner.accountId, projectId, contentSetId };
    const before = (await readTopList(store, scope, { consistent: true }))!;
    await vote('a', 1);
    await api.drainStream({ rank: false });
    const meter = meterClient(defaultStore().client);
    const start = meter.snapshot();
    expect((await refreshTopList(store, scope, [items.a], new Date())).written).toBe(true);
    // One PutItem: the part holding `a`; no header item of the set's own.
    expect(meter.since(start).commands.PutItemCommand).toBe(1);
    const after = (await readTopList(store, scope, { consistent: true }))!;
    const SEVEN_DAYS = TOP_PERIODS.indexOf('rolling7d');
    expect(after.list.set[SEVEN_DAYS]).toBe(before.list.set[SEVEN_DAYS] + 1);
    expect(after.list.items.get(items.a)![SEVEN_DAYS]).toBe(before.list.items.get(items.a)![SEVEN_DAYS] + 1);
    expect(after.list.items.get(items.c)).toEqual(before.list.items.get(items.c));
  });

  it('names change records by the minute they were written', () => {
    expect(minuteKey(new Date('2026-11-25T10:11:59.999Z'))).toBe('2026-11-25T10:11');
  });
});

async function contentItemIds(keys: string[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const key of keys) {
    const answer = await api.call('contents/lookup', [key, { contentSetId }], { key: owner.viewer });
    ids[key] = answer.body.find((item: { key: string }) => item.key === key).id;
  }
  return ids;
}
