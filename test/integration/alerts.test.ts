/**
 * Alerts and the weekly digest end to end: history written through the domain function
 * with chosen dates (one page much worse in its last 7 complete days than in the 28 before,
 * another steady), counted by the real stream consumer; the alerts job; the alert's record
 * going through the stream to the webhooks consumer and a real receiver, signed (checked
 * with the `standardwebhooks` package); alerts/list; projects/digest and the digest job.
 *
 * Beside it, in a second project of the same account, a small null set and a few true
 * drops imported through responses/import: the job decides over the account's tests
 * together (Benjamini-Hochberg), so the pages that dropped alert and the stable ones whose
 * change alone would have passed the old per-page 95% rule do not.
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

jest.setTimeout(240_000);

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
/** Each response's item and day, to compute the expected weeks. */
const written: { key: string; day: string; value: 'y' | 'n' }[] = [];

async function ok<T = any>(path: string, args: unknown[], key = owner.admin): Promise<T> {
  const answer = await api.call<T>(path, args, { key });
  if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** `yes` and `no` responses to page `key`, spread over `days` (days before today: 1 is yesterday). */
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

/**
 * The second project's pages: 40 of 50 helpful in the 28 days before, and in the last 7
 * complete days 24 of 30 on 22 stable pages; 17 of 30 on 2 unlucky stable pages (alone each
 * would alert: p = 0.025, a drop of 23 points); 12 of 30 on 2 pages that truly dropped.
 */
const PAGES = [
  ...Array.from({ length: 22 }, (_, index) => ({ key: `stable-${index}`, current: 24 })),
  { key: 'unlucky-0', current: 17 },
  { key: 'unlucky-1', current: 17 },
  { key: 'dropped-0', current: 12 },
  { key: 'dropped-1', current: 12 },
];
let referenceProjectId: string;

async function importPages() {
  referenceProjectId = (await ok('projects/create', [{ name: 'Reference' }])).id;
  const referenceSetId = await createContentSet(api, owner.admin, referenceProjectId, 'yes-no', { metadata: { name: 'Reference helpful?' } });
  const rows = PAGES.flatMap(({ key, current }) =>
    [
      ...Array.from({ length: 50 }, (_, index) => ({ value: index < 40 ? 'y' : 'n', daysAgo: 8 + (index % 3) })),
      ...Array.from({ length: 30 }, (_, index) => ({ value: index < current ? 'y' : 'n', daysAgo: 1 + (index % 2) })),
    ].map(({ value, daysAgo }, index) => ({
      key,
      value,
      createdAt: new Date(now.getTime() - daysAgo * DAY - index * 1000).toISOString(),
      importId: `${key}-${index}`,
    })),
  );
  for (let start = 0; start < rows.length; start += 1000) {
    const { rows: answers } = await ok('responses/import', [referenceSetId, rows.slice(start, start + 1000)]);
    expect(answers.filter((row: { status: string }) => row.status !== 'imported')).toEqual([]);
  }
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await createAccount('alerts');
  projectId = (await ok('projects/create', [{ name: 'Docs' }])).id;
  setId = await createContentSet(api, owner.admin, projectId, 'yes-no', { metadata: { name: 'Helpful?' } });
  [standard, slack] = await Promise.all([startReceiver(), startReceiver()]);
  // The webhooks hear this project only: the second project's alerts are asserted through alerts/list.
  standardSecret = (await ok('webhooks/create', [{ url: standard.url, projectId, events: ['stats.alert', 'digest.weekly'] }])).secret;
  await ok('webhooks/create', [{ url: slack.url, projectId, events: ['stats.alert'], format: 'slack' }]);
  await ok('contents/create', [{ contentSetId: setId, key: 'getting-started', metadata: { title: 'Getting started' } }]);
  // The 28 days before the last 7 complete days (days 8 to 35 ago): both pages 80% helpful.
  // The last 7 complete days: "Getting started" falls to a third, "Reference" stays at 80%.
  await Promise.all([
    history('getting-started', 40, 10, range(8, 35)),
    history('reference', 40, 10, range(8, 35)),
    history('getting-started', 10, 20, range(1, 7)),
    history('reference', 40, 10, range(1, 7)),
    // Today's, for the digest's week (whatever the weekday): in neither window of today's evaluation.
    history('getting-started', 3, 7, [0]),
    history('reference', 8, 2, [0]),
  ]);
  await importPages();
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
  // Both sets and their 28 pages, tested together: the account's 30 tests.
  expect(first).toMatchObject({ daily: true, tested: 2 + 2 + PAGES.length });
  expect(first.alerts).toHaveLength(3);
  await api.drainStream({ rank: false });
  const [delivered] = await standard.waitFor(1);
  const body = new Webhook(standardSecret).verify(delivered.body, delivered.headers as Record<string, string>) as any;
  const item = (await ok('contents/lookup', ['getting-started', { contentSetId: setId }], owner.viewer))[0];
  expect(body).toMatchObject({
    type: 'stats.alert',
    data: {
      entity: 'contentItem',
      entityId: item.id,
      projectId,
      contentSetId: setId,
      name: 'Getting started',
      url: `${CONSOLE}/items/${item.id}`,
      current: {
        count: 30,
        from: bucketKey('day', new Date(now.getTime() - 7 * DAY)),
        to: bucketKey('day', new Date(now.getTime() - DAY)),
        score: { method: 'wilson' },
      },
      previous: { count: 50, score: { value: 0.8, method: 'wilson' } },
      change: { significant: true, method: 'newcombe' },
      // Three significant changes among the account's 30 tests: the threshold is 3 x 0.05 / 30.
      significance: { method: 'benjamini-hochberg', falseDiscoveryRate: 0.05, tested: 30, threshold: expect.closeTo((3 * 0.05) / 30, 12) },
    },
  });
  expect(first.alerts).toContain(body.data.alertId);
  expect(body.data.current.score.value).toBeCloseTo(1 / 3, 10);
  expect(body.data.change.high).toBeLessThan(-0.2);
  expect(body.data.significance.pValue).toBeLessThanOrEqual(body.data.significance.threshold);
  expect(body.data.significance.adjustedPValue).toBeLessThanOrEqual(0.05);
  const [line] = await slack.waitFor(1);
  expect(JSON.parse(line.body).text).toMatch(
    /^\*Getting started\*: helpful fell from 80% \(\d+-\d+%\) to 33% \(\d+-\d+%\) over the last 7 days, 30 responses\. p (= 0\.\d+|&lt; 0\.000001), under 0\.\d+, the threshold of the day’s 30 tests at a 5% false discovery rate\. http:\/\/localhost:3000\/items\//,
  );

  const listed = await ok('alerts/list', [{ projectId }], owner.viewer);
  expect(listed.items).toEqual([expect.objectContaining({ id: body.data.alertId, entityId: item.id, name: 'Getting started' })]);
  expect((await ok('alerts/list', [{ contentSetId: 'another-set' }], owner.viewer)).items).toEqual([]);

  // The second project: the pages that dropped alert; the unlucky stable pages, whose change
  // alone passes the 95% rule (p about 0.025 < 0.05), do not: 0.025 is above 3 x 0.05 / 30.
  const reference = (await ok('alerts/list', [{ projectId: referenceProjectId }], owner.viewer)).items;
  expect(reference.map((alert: { name: string }) => alert.name).sort()).toEqual(['dropped-0', 'dropped-1']);
  for (const alert of reference) {
    expect(alert.significance).toEqual({ ...body.data.significance, pValue: expect.any(Number), adjustedPValue: expect.any(Number) });
    expect(alert.significance.pValue).toBeLessThan(alert.significance.threshold);
  }

  // The next run has nothing new and tests nothing again today; two evaluations at once of
  // everything alert nothing either (the entity's guard: it is not even tested).
  expect(await runAlerts(store, new Date(), { consoleUrl: CONSOLE })).toMatchObject({ daily: false, tested: 0, alerts: [] });
  const entities = [
    { entity: 'contentItem' as const, id: item.id, accountId: owner.accountId, projectId, contentSetId: setId },
    { entity: 'contentSet' as const, id: setId, accountId: owner.accountId, projectId, contentSetId: setId },
  ];
  const again = await Promise.all([evaluateEntities(store, entities, now), evaluateEntities(store, entities, now)]);
  expect(again.map((evaluation) => evaluation.alerts)).toEqual([[], []]);
  expect(again.map((evaluation) => evaluation.tested.map((entity) => entity.entity))).toEqual([['contentSet'], ['contentSet']]);
  await api.drainStream({ rank: false });
  await new Promise((settle) => setTimeout(settle, 500));
  expect(standard.requests).toHaveLength(1);
  expect(slack.requests).toHaveLength(1);
});

test("an account's false discovery rate: alerts/settings and alerts/saveSettings", async () => {
  expect(await ok('alerts/settings', [], owner.viewer)).toEqual({ falseDiscoveryRate: 0.05 });
  expect(await ok('alerts/saveSettings', [{ falseDiscoveryRate: 0.1 }])).toEqual({ falseDiscoveryRate: 0.1 });
  expect(await ok('alerts/settings', [], owner.viewer)).toEqual({ falseDiscoveryRate: 0.1 });
  for (const falseDiscoveryRate of [0, 0.0009, 0.26, 1, '0.1']) {
    const refused = await api.call('alerts/saveSettings', [{ falseDiscoveryRate }], { key: owner.admin });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'bad-request', data: { fields: [expect.objectContaining({ path: 'args.0.falseDiscoveryRate' })] } });
  }
  expect((await api.call('alerts/saveSettings', [{ falseDiscoveryRate: 0.1 }], { key: owner.viewer })).status).toBe(403);
  // Another account keeps its own.
  const other = await createAccount('alerts-other');
  expect(await ok('alerts/settings', [], other.viewer)).toEqual({ falseDiscoveryRate: 0.05 });
  await ok('alerts/saveSettings', [{ falseDiscoveryRate: 0.05 }]);
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
  const counted = (key: string) => written.filter((response) => response.key === key && response.day >= weekFrom && response.day <= weekTo).length;
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
