/**
 * Alerts and the weekly digest end to end: history written through the domain function
 * with chosen dates (one page much worse in its last 7 days than in the 28 before, another
 * steady), counted by the real stream consumer; the alerts job; the alert's record going
 * through the stream to the webhooks consumer and a real receiver, signed (checked with the
 * `standardwebhooks` package); alerts/list; projects/digest and the digest job.
 */
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

import { Webhook } from 'standardwebhooks';
import { ANONYMOUS } from '../../functions/api/auth';
import type { ResponseCreateModel } from '../../functions/api/response-models';
import { evaluateEntities, runAlerts } from '../../functions/jobs/alerts';
import { runDigests } from '../../functions/jobs/digest';
import { createResponse } from '../../functions/operations/response-collection';
import { defaultStore } from '../../functions/store/entity-store';
import { addBuckets, bucketKey, bucketStart } from '../../shared/periods';
import { createAccount, createContentSet, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { startReceiver, until, type Receiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

const { store } = defaultStore();
const CONSOLE = 'http://localhost:3000';
const DAY = 86_400_000;

let api: TestApi;
let owner: AccountKeys;
let projectId: string;
let setId: string;
let standard: Receiver;
let slack: Receiver;
let standardSecret: string;
const now = new Date();
const today = bucketKey('day', now);
/** Each response's item and day, to compute the expected weeks. */
const written: { key: string; day: string; value: 'y' | 'n' }[] = [];

async function ok<T = any>(path: string, args: unknown[], key = owner.admin): Promise<T> {
  const answer = await api.call<T>(path, args, { key });
  if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** `yes` and `no` responses to page `key`, spread over `days` (days before today: 0 is today). */
async function history(key: string, yes: number, no: number, days: number[]) {
  const values = [...Array<'y'>(yes).fill('y'), ...Array<'n'>(no).fill('n')];
  await Promise.all(
    values.map((value, index) => {
      const at = new Date(now.getTime() - days[index % days.length] * DAY);
      written.push({ key, day: bucketKey('day', at), value });
      return createResponse(store, ANONYMOUS, { contentSetId: setId, key, value: value as ResponseCreateModel['value'] }, { headers: {} }, at);
    }),
  );
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('alerts');
  projectId = (await ok('projects/create', [{ name: 'Docs' }])).id;
  setId = await createContentSet(api, owner.admin, projectId, 'yes-no', { metadata: { name: 'Helpful?' } });
  [standard, slack] = await Promise.all([startReceiver(), startReceiver()]);
  standardSecret = (await ok('webhooks/create', [{ url: standard.url, events: ['stats.alert', 'digest.weekly'] }])).secret;
  await ok('webhooks/create', [{ url: slack.url, events: ['stats.alert'], format: 'slack' }]);
  await ok('contents/create', [{ contentSetId: setId, key: 'getting-started', metadata: { title: 'Getting started' } }]);
  // The 28 days before the last 7 (days 7 to 34 ago): both pages 80% helpful.
  // The last 7 days: "Getting started" falls to a third, "Reference" stays at 80%.
  await Promise.all([
    history('getting-started', 40, 10, range(7, 34)),
    history('reference', 40, 10, range(7, 34)),
    history('getting-started', 10, 20, range(0, 6)),
    history('reference', 40, 10, range(0, 6)),
  ]);
  await api.drainStream({ rank: false });
});

afterAll(async () => {
  await Promise.all([standard?.close(), slack?.close()]);
  await api.close();
});

test('sets/get shows the alert settings with their defaults; sets/save changes the fields given', async () => {
  expect((await ok('sets/get', [setId], owner.viewer)).metadata.alerts).toEqual({ enabled: true, minResponses: 20, minDrop: 0.1 });
  // The set as a whole dropped from 80% to 62.5%: more than 0.10, less than 0.20. Only the page's drop (47 points) matters here.
  const saved = await ok('sets/save', [setId, { alerts: { minDrop: 0.2 } }]);
  expect(saved.metadata.alerts).toEqual({ enabled: true, minResponses: 20, minDrop: 0.2 });
});

test('one alert for the page that got worse, delivered once and signed, not raised again', async () => {
  // The job reads the change records up to the real time (the day guard keeps this file on one day).
  const first = await runAlerts(store, new Date(), { consoleUrl: CONSOLE });
  expect(first.alerts).toHaveLength(1);
  // The set and both pages were evaluated: they changed in the change records.
  expect(first.evaluated).toBeGreaterThanOrEqual(3);
  await api.drainStream({ rank: false });
  const [delivered] = await standard.waitFor(1);
  const body = new Webhook(standardSecret).verify(delivered.body, delivered.headers as Record<string, string>) as any;
  const item = (await ok('contents/lookup', ['getting-started', { contentSetId: setId }], owner.viewer))[0];
  expect(body).toMatchObject({
    type: 'stats.alert',
    data: {
      alertId: first.alerts[0],
      entity: 'contentItem',
      entityId: item.id,
      projectId,
      contentSetId: setId,
      name: 'Getting started',
      url: `${CONSOLE}/items/${item.id}`,
      current: { count: 30, from: bucketKey('day', new Date(now.getTime() - 6 * DAY)), to: today, score: { method: 'wilson' } },
      previous: { count: 50, score: { value: 0.8, method: 'wilson' } },
      change: { significant: true, method: 'newcombe' },
    },
  });
  expect(body.data.current.score.value).toBeCloseTo(1 / 3, 10);
  expect(body.data.change.high).toBeLessThan(-0.2);
  const [line] = await slack.waitFor(1);
  expect(JSON.parse(line.body).text).toMatch(
    /^\*Getting started\*: helpful fell from 80% \(\d+-\d+%\) to 33% \(\d+-\d+%\) over the last 7 days, 30 responses /,
  );

  const listed = await ok('alerts/list', [{ projectId }], owner.viewer);
  expect(listed.items).toEqual([expect.objectContaining({ id: first.alerts[0], entityId: item.id, name: 'Getting started' })]);
  expect((await ok('alerts/list', [{ contentSetId: 'another-set' }], owner.viewer)).items).toEqual([]);

  // The next run has nothing new; two evaluations at once of everything alert nothing either (the entity's guard).
  expect((await runAlerts(store, new Date(), { consoleUrl: CONSOLE })).alerts).toEqual([]);
  const entities = [
    { entity: 'contentItem' as const, id: item.id, accountId: owner.accountId, projectId, contentSetId: setId },
    { entity: 'contentSet' as const, id: setId, accountId: owner.accountId, projectId, contentSetId: setId },
  ];
  const again = await Promise.all([evaluateEntities(store, entities, now), evaluateEntities(store, entities, now)]);
  expect(again).toEqual([[], []]);
  await api.drainStream({ rank: false });
  await new Promise((settle) => setTimeout(settle, 500));
  expect(standard.requests).toHaveLength(1);
  expect(slack.requests).toHaveLength(1);
});

test("projects/digest and the digest job: the week's worst and best pages, its counts and its alerts", async () => {
  // The week that holds today is complete at next Monday 00:00.
  const nextMonday = addBuckets('week', bucketStart('week', now), 1);
  const weekFrom = bucketKey('day', bucketStart('week', now));
  const weekTo = bucketKey('day', addBuckets('day', nextMonday, -1));
  const previousFrom = bucketKey('day', addBuckets('week', bucketStart('week', now), -1));
  const inWeek = (from: string, to: string) => written.filter((response) => response.day >= from && response.day <= to).length;

  const digest = await ok('projects/digest', [projectId, { reference: nextMonday.toISOString() }], owner.viewer);
  // A date is the same instant as its UTC midnight, as in every date argument (getStats' reference among them).
  expect(await ok('projects/digest', [projectId, { reference: bucketKey('day', nextMonday) }], owner.viewer)).toEqual(digest);
  const refused = await api.call('projects/digest', [projectId, { reference: '2026-11-16T10:00:00' }], { key: owner.viewer });
  expect([refused.status, refused.body.data.fields]).toEqual([
    400,
    [{ path: 'args.1.reference', message: 'must be a date YYYY-MM-DD (its UTC midnight) or a date-time YYYY-MM-DDTHH:MM:SS with Z or an offset (±HH:MM)' }],
  ]);
  expect(digest).toMatchObject({
    projectId,
    projectName: 'Docs',
    week: { from: weekFrom, to: weekTo },
    previousWeek: { from: previousFrom },
    responses: { count: inWeek(weekFrom, weekTo), previous: inWeek(previousFrom, bucketKey('day', addBuckets('day', bucketStart('week', now), -1))) },
  });
  expect(digest.schemas).toHaveLength(1);
  const [part] = digest.schemas;
  expect(part).toMatchObject({ schema: 'yes-no', measure: 'share' });
  // Pages with fewer than 10 responses in the week are left out of best and worst.
  const counted = (key: string) => written.filter((response) => response.key === key && response.day >= weekFrom).length;
  const expected = ['getting-started', 'reference'].filter((key) => counted(key) >= 10);
  expect(part.worst.map((page: any) => page.name)).toEqual(expected.map((key) => (key === 'getting-started' ? 'Getting started' : key)));
  expect(part.best.map((page: any) => page.name)).toEqual([...part.worst.map((page: any) => page.name)].reverse());
  expect(digest.alerts).toEqual([expect.objectContaining({ name: 'Getting started', projectId })]);

  // The job sends it from Monday 08:00, once a week.
  expect((await runDigests(store, new Date(nextMonday.getTime() + 7 * 3600_000))).ran).toBe(false);
  const sent = await runDigests(store, new Date(nextMonday.getTime() + 9 * 3600_000));
  expect(sent).toMatchObject({ ran: true, sent: [expect.any(String)] });
  expect((await runDigests(store, new Date(nextMonday.getTime() + 10 * 3600_000))).ran).toBe(false);
  await api.drainStream({ rank: false });
  await until(() => standard.requests.length === 2, 30_000, 'the digest delivery');
  const body = new Webhook(standardSecret).verify(standard.requests[1].body, standard.requests[1].headers as Record<string, string>) as any;
  expect(body.type).toBe('digest.weekly');
  expect(body.data).toEqual({ digestId: sent.sent[0], ...digest });
  // The Slack webhook asked for alerts only.
  expect(slack.requests).toHaveLength(1);
});
