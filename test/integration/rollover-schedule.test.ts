import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANONYMOUS } from '../../functions/api/auth';
import { bucketKey } from '../../shared/periods';
import { LocalRolloverSchedule } from '../../local/rollover-schedule';
import { createResponse } from '../../functions/operations/response-collection';
import { getRawItems } from '../../functions/store/batch';
import { defaultStore } from '../../functions/store/entity-store';
import { counterFromItem, rollingSk } from '../../functions/store/counters';
import { createAccount, createContentSet, startTestApi, type TestApi } from '../support/api';

/**
 * `npm start` left running across midnight UTC keeps rolling windows right: the local
 * schedule runs the rollover once a day after 00:05 UTC on its own clock (moved here), and
 * catches up the days it missed.
 */
const DAY_MS = 24 * 3600 * 1000;
const { store } = defaultStore();
const folder = mkdtempSync(join(tmpdir(), 'rollover-schedule-'));

let api: TestApi;
let contentSetId: string;
/** The real day the consumer counted the responses on. */
let today: Date;

const midnightAfter = (date: Date, days: number, minutes: number) => new Date(Date.parse(bucketKey('day', date)) + days * DAY_MS + minutes * 60_000);

async function rolling7dCount(): Promise<number> {
  const [item] = await getRawItems(store, [{ pk: `agg#contentSet#${contentSetId}`, sk: rollingSk('rolling7d') }]);
  return counterFromItem(item, 0).count;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

beforeAll(async () => {
  api = await startTestApi();
  const owner = await createAccount('rollover-schedule');
  const projectId = (await api.call('projects/create', [{ name: 'Schedule' }], { key: owner.admin })).body.id;
  contentSetId = await createContentSet(api, owner.admin, projectId, 'pulse');
  today = new Date();
  // One response 6 days ago (inside rolling7d until tomorrow's run), two 5 days ago (inside until the day after).
  for (const [daysAgo, count] of [
    [6, 1],
    [5, 2],
  ]) {
    for (let index = 0; index < count; index++) {
      await createResponse(store, ANONYMOUS, { contentSetId, key: 'page', value: '+' }, { headers: {} }, new Date(today.getTime() - daysAgo * DAY_MS));
    }
  }
  await api.drainStream();
}, 60_000);

afterAll(async () => {
  await api.close();
  rmSync(folder, { recursive: true, force: true });
});

it('runs at 00:05 UTC on its clock, once a day, and catches up missed days after a restart', async () => {
  expect(await rolling7dCount()).toBe(3);
  let now = midnightAfter(today, 0, 12 * 60);
  const schedule = new LocalRolloverSchedule({ store, dataDir: folder, clock: () => now, checkEveryMs: 20 });
  schedule.start();
  // The first look at the clock runs today's (a fresh data folder): nothing leaves today.
  const stateFile = join(folder, 'rollover.json');
  await until(async () => existsSync(stateFile) && JSON.parse(readFileSync(stateFile, 'utf8')).lastRunDay === bucketKey('day', today));
  expect(await rolling7dCount()).toBe(3);

  // 00:04 the next day: not yet due.
  now = midnightAfter(today, 1, 4);
  await new Promise((wait) => setTimeout(wait, 200));
  expect(await rolling7dCount()).toBe(3);

  // 00:05: the day 6 days before today leaves rolling7d.
  now = midnightAfter(today, 1, 5);
  await until(async () => (await rolling7dCount()) === 2);
  await schedule.stop();

  // Stopped for a day; a new schedule on the same data folder catches the missed run up.
  now = midnightAfter(today, 3, 30);
  const restarted = new LocalRolloverSchedule({ store, dataDir: folder, clock: () => now });
  const result = await restarted.runIfDue();
  expect(result?.leaving.map((bucket) => bucket.key)).toEqual(
    expect.arrayContaining([bucketKey('day', new Date(today.getTime() - 5 * DAY_MS)), bucketKey('day', new Date(today.getTime() - 4 * DAY_MS))]),
  );
  expect(await rolling7dCount()).toBe(0);
  // Done for that day: asking again runs nothing.
  expect(await restarted.runIfDue()).toBeUndefined();
});
