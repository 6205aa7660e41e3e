/**
 * What a site owner would trip over in the console (issue 21), in real headless Chromium
 * against the local server: the live preview leaves every statistic, ranking and export as it
 * was and can be tried again; top items say which period they rank (or are absent for one
 * they cannot); the project's Day chart adds up to the day; no page load calls a changing
 * operation or shows a failed resource; the error box retries; each sparkline has its own scale;
 * date filters read and write dates as the console shows them.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { ANONYMOUS } from '../../functions/api/auth';
import { operations } from '../../functions/api/registry';
import { runAlerts } from '../../functions/jobs/alerts';
import { createResponse } from '../../functions/operations/response-collection';
import { defaultStore } from '../../functions/store/entity-store';
import type { ConsoleBuild } from '../../console/build';
import { createAccount, startTestApi, type AccountKeys, type TestApi, succeeded } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, screenshot, signInAt, tearDownConsoleSuite } from '../support/browser';
import { startReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);
// A webhook to a page of its own; disabled, so nothing is sent to this machine's address.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

const STAT_PERIODS = ['day', 'week', 'month', 'year', 'lifetime', 'rolling7d', 'rolling28d', 'rolling12m'] as const;
const TOP_PERIODS = ['week', 'month', 'year', 'rolling7d', 'rolling28d', 'rolling12m'] as const;

describeInBrowser('console in Chromium: what a site owner trips over', () => {
  let build: ConsoleBuild;
  let api: TestApi;
  let account: AccountKeys;
  let browser: Browser;
  let base: string;
  const ids: Record<string, string> = {};

  const call = <T = any>(path: string, args: unknown[], key: string | undefined = account.admin) => succeeded<T>(api, path, args, key);

  const pages = pageOpener(() => browser);
  const signIn = (page: Page, path: string) => signInAt(page, `${base}${path}`, account.admin);

  /** One run of the alerts job over what beforeAll wrote (the local schedule may have run it already: an entity alerts once a week). */
  async function raiseAlerts(): Promise<void> {
    await runAlerts(defaultStore().store, new Date());
    await until(
      async () => (await call('alerts/list', [{ projectId: ids.docs }])).items.some((alert: { entityId: string }) => alert.entityId === ids.start),
      'the alert of "Getting started"',
    );
  }

  async function until(check: () => Promise<boolean>, what: string, timeout = 15_000): Promise<void> {
    const deadline = Date.now() + timeout;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }

  /** The chart's data table rows: [point title, cells...]. */
  async function dataRows(page: Page): Promise<string[][]> {
    const details = page.locator('details.data-table').first();
    await details.waitFor();
    return details.evaluate((element) =>
      [...element.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => (cell.textContent ?? '').trim())),
    );
  }

  /**
   * Every number the API gives about the project and its sets: getStats of each period,
   * the rankings of each ranked period, and the default export. Counter timestamps
   * (createdAt, updatedAt) are left out: they say when a counter was last written, not what it counts.
   */
  async function everyStatistic(): Promise<unknown> {
    const numbers = (stats: Record<string, unknown>) => {
      const { createdAt: _created, updatedAt: _updated, ...rest } = stats;
      return rest;
    };
    // Reads only, so asked all at once (one after another, ~50 round trips took seconds).
    const result: Record<string, Promise<unknown>> = {};
    for (const period of STAT_PERIODS) {
      result[`project ${period}`] = call('projects/getStats', [ids.project, { period }]).then(numbers);
      for (const set of ['yesNo', 'pulse']) result[`${set} ${period}`] = call('sets/getStats', [ids[set], { period }]).then(numbers);
    }
    const ranking = (entries: { id: string; stats: Record<string, unknown> }[]) => entries.map((entry) => [entry.id, numbers(entry.stats)]);
    for (const period of TOP_PERIODS) {
      result[`top items of the project, ${period}`] = call('contents/top', [{ projectId: ids.project, period, $size: 100 }]).then(ranking);
      result[`top items of the set, ${period}`] = call('contents/top', [{ contentSetId: ids.yesNo, period, $size: 100 }]).then(ranking);
      result[`top sets of the project, ${period}`] = call('sets/top', [{ projectId: ids.project, period, $size: 100 }]).then(ranking);
      result[`top sets of the account, ${period}`] = call('sets/top', [{ period, $size: 100 }]).then(ranking);
    }
    result.export = call('responses/export', [{ projectId: ids.project, format: 'ndjson' }]).then((answer) => answer.data);
    result.aggregates = call('responses/getAggregates', [{ contentSetId: ids.yesNo, key: 'https://owner.example.com/' }]);
    return Object.fromEntries(await Promise.all(Object.entries(result).map(async ([name, read]) => [name, await read])));
  }

  beforeAll(async () => {
    build = await buildTestConsole();
    api = await startTestApi({ consoleDir: build.outdir });
    base = api.baseUrl.replace(/\/v0$/, '');
    account = await createAccount('site-owner');
    ids.project = (await call('projects/create', [{ name: 'Owner site' }])).id;
    const set = async (name: string, key: string, schema: string) =>
      (await call('sets/create', [{ projectId: ids.project, key, schema, metadata: { name } }])).id as string;
    ids.yesNo = await set('Helpful', 'helpful', 'yes-no');
    ids.pulse = await set('Hearts', 'hearts', 'pulse');
    ids.calm = await set('Calm', 'calm', 'message');
    // Today, spread over the hours gone by (UTC), so the Day chart has bars of its own.
    const { store } = defaultStore();
    const today = new Date();
    today.setUTCHours(0, 0, 0, 0);
    const hours = new Date().getUTCHours();
    const at = (index: number) => new Date(today.getTime() + ((index * 5) % (hours + 1)) * 3_600_000 + 60_000);
    const write = (contentSetId: string, key: string, value: string, index: number, context?: Record<string, string>) =>
      createResponse(store, ANONYMOUS, { contentSetId, key, value, ...(context ? { context } : {}) }, { headers: {} }, at(index));
    for (let index = 0; index < 6; index++)
      await write(ids.yesNo, 'https://owner.example.com/', index % 3 === 0 ? 'n' : 'y', index, { $user: 'ann@example.com' });
    for (let index = 0; index < 2; index++) await write(ids.yesNo, 'https://owner.example.com/guide', 'y', index + 6);
    for (let index = 0; index < 3; index++) await write(ids.pulse, 'https://owner.example.com/', '+', index + 8);
    await write(ids.calm, 'https://owner.example.com/', 'Nice', 11);
    // A project of its own (the counts above stay as they are) whose pages changed: over the
    // 7 days before the last 7, "Getting started" had 18 yes of 20 and "Install" 8 of 10; over
    // the last 7, 5 of 20 and 8 of 10.
    ids.docs = (await call('projects/create', [{ name: 'Docs' }])).id;
    ids.docsHelpful = (await call('sets/create', [{ projectId: ids.docs, key: 'helpful', schema: 'yes-no', metadata: { name: 'Docs helpful' } }])).id;
    const daysAgo = (days: number, index: number) => new Date(Date.now() - days * 86_400_000 - (index % 20) * 60_000);
    const history: [key: string, yes: number, total: number, days: number][] = [
      ['https://docs.example.com/start', 18, 20, 10],
      ['https://docs.example.com/start', 5, 20, 2],
      ['https://docs.example.com/install', 8, 10, 10],
      ['https://docs.example.com/install', 8, 10, 2],
    ];
    for (const [key, yes, total, days] of history)
      for (let index = 0; index < total; index++)
        await createResponse(store, ANONYMOUS, { contentSetId: ids.docsHelpful, key, value: index < yes ? 'y' : 'n' }, { headers: {} }, daysAgo(days, index));
    // And a rating set whose FAQ fell from 4.5 stars (the week before last) to 1.5 (last week,
    // Monday to Sunday: the digest's week).
    ids.docsRating = (await call('sets/create', [{ projectId: ids.docs, key: 'rating', schema: 'rating', metadata: { name: 'Docs rating' } }])).id;
    const thisMonday = new Date();
    thisMonday.setUTCHours(12, 0, 0, 0);
    thisMonday.setUTCDate(thisMonday.getUTCDate() - ((thisMonday.getUTCDay() + 6) % 7));
    for (let index = 0; index < 20; index++) {
      for (const [weeksAgo, value] of [
        [2, index % 2 === 0 ? 5 : 4],
        [1, index % 2 === 0 ? 1 : 2],
      ])
        await createResponse(
          store,
          ANONYMOUS,
          { contentSetId: ids.docsRating, key: 'https://docs.example.com/faq', value },
          { headers: {} },
          new Date(thisMonday.getTime() - weeksAgo * 7 * 86_400_000 + 2 * 86_400_000 + index * 60_000),
        );
    }
    // And its API page: 9 ratings of 1 and 2 stars today, one short of being ranked by quality.
    for (let index = 0; index < 9; index++)
      await createResponse(
        store,
        ANONYMOUS,
        { contentSetId: ids.docsRating, key: 'https://docs.example.com/api', value: index % 2 === 0 ? 1 : 2 },
        { headers: {} },
        new Date(Date.now() - (index + 1) * 60_000),
      );
    await api.drainStream();
    ids.item = (await call('contents/lookup', ['https://owner.example.com/guide', { contentSetId: ids.yesNo }]))[0].id;
    ids.start = (await call('contents/lookup', ['https://docs.example.com/start', { contentSetId: ids.docsHelpful }]))[0].id;
    ids.webhook = (await call('webhooks/create', [{ url: 'http://127.0.0.1:9/feedback', enabled: false }])).id;
    browser = await launchBrowser();
  });

  tearDownConsoleSuite(pages, () => ({ browser, api, build }));

  test('the live preview records a real response and takes it back: every statistic, ranking and export unchanged, no webhook told; it can be tried again', async () => {
    const before = await everyStatistic();
    // A team's chat, subscribed to every event of the account: it must hear nothing of the preview.
    const chat = await startReceiver();
    const hook = (await call('webhooks/create', [{ url: chat.url }])).id;
    const { context, page } = await pages.newPage();
    await signIn(page, `/sets/${ids.yesNo}/embed`);
    await expect(page.getByTestId('preview-explanation').innerText()).resolves.toContain('no webhook hears of it');
    const preview = page.getByTestId('widget-preview');
    const status = page.getByTestId('preview-status');
    await preview.getByRole('button', { name: 'No' }).click();
    await status.getByText('Recorded, taken back and erased: nothing of it remains.').waitFor();
    await screenshot(page, 'preview-taken-back');
    await page.getByRole('button', { name: 'Try again' }).click();
    await preview.getByRole('button', { name: 'Yes' }).click();
    await status.getByText('Recorded, taken back and erased: nothing of it remains.').waitFor();
    await checkPage(page, 'preview-tried-twice');

    // Both were real responses on the preview's item (the page's address), taken back and then erased: none is left, in any state.
    const [item] = (await call('contents/lookup', [`${base}/sets/${ids.yesNo}/embed`, { contentSetId: ids.yesNo }])).filter(
      (entry: { key: string }) => entry.key === `${base}/sets/${ids.yesNo}/embed`,
    );
    expect(item).toBeDefined();
    expect((await call('responses/list', [{ contentId: item.id, state: 'all' }])).items).toEqual([]);
    await api.drainStream();
    expect(await everyStatistic()).toEqual(before);
    // Not even the preview's item, created by its first click, was announced.
    expect((await call('webhooks/deliveries', [{ webhookId: hook }])).items).toEqual([]);
    expect(chat.requests).toEqual([]);
    await call('webhooks/remove', [hook]);
    await chat.close();
    await context.close();
  });

  test('top items: labelled with the current period they rank, a day too; absent, with the reason, for last week', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, `/sets/${ids.yesNo}?period=week`);
    const label = page.getByTestId('top-items-period');
    await expect(label.innerText()).resolves.toMatch(/^Ranked by responses in this week \(\d+ \w+( \d{4})? – \d+ \w+ \d{4}\)\.$/);
    await page.locator('.top-list li').first().waitFor();
    await expect(page.locator('.top-list li').first().innerText()).resolves.toContain('https://owner.example.com/');

    await page.getByRole('button', { name: 'Previous period' }).click();
    await page.waitForURL(/ref=\d{4}-\d{2}-\d{2}/);
    await expect(page.getByTestId('summary').innerText()).resolves.toBe('No feedback in this period.');
    const lastWeek = await page.getByTestId('period-label').innerText();
    const note = page.getByTestId('top-items-note');
    await expect(note.innerText()).resolves.toBe(`Rankings exist for the current week only, not for ${lastWeek}. Show this week`);
    expect(await page.locator('.top-list').count()).toBe(0);
    await checkPage(page, 'top-items-last-week');
    await note.getByRole('button', { name: 'Show this week' }).click();
    await label.waitFor();
    expect(page.url()).not.toContain('ref=');

    await page.goto(`${base}/projects/${ids.project}?period=day`);
    await expect(page.getByTestId('top-items-period').innerText()).resolves.toMatch(/^Ranked by responses today \(/);
    await page.goto(`${base}/projects/${ids.project}?period=rolling28d`);
    await expect(page.getByTestId('top-items-period').innerText()).resolves.toMatch(/^Ranked by responses in the last 28 days \(/);

    // Every period names what it ranks: a day by its date, the lifetime by its years (history imported from 2024).
    // In a project of its own: the other tests count this file's project's responses.
    const archive = (await call('projects/create', [{ name: 'Archive' }])).id;
    const history = (await call('sets/create', [{ projectId: archive, key: 'history', schema: 'yes-no', metadata: { name: 'History' } }])).id;
    const rows = ['2024-05-01', new Date().toISOString().slice(0, 10)].map((createdAt, index) => ({
      key: 'https://owner.example.com/history',
      value: 'y',
      createdAt,
      importId: `history-${index}`,
    }));
    await call('responses/import', [history, rows]);
    await api.drainStream();
    const year = new Date().getUTCFullYear();
    for (const [period, words] of [
      ['day', /^Ranked by responses today \(\w+day \d{1,2} \w+ \d{4}, UTC\)\.$/],
      ['lifetime', new RegExp(`^Ranked by every response ever received \\(2024 – ${year}\\)\\.$`)],
      ['year', new RegExp(`^Ranked by responses in this year \\(${year}\\)\\.$`)],
    ] as const) {
      await page.goto(`${base}/sets/${history}?period=${period}`);
      await page.locator('.top-list li').first().waitFor();
      expect({ period, words: await page.getByTestId('top-items-period').innerText() }).toEqual({ period, words: expect.stringMatching(words) });
    }
    await checkPage(page, 'top-items-lifetime');
    await context.close();
  });

  test("the project's Day chart: 24 hourly points adding up to the day's total", async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, `/projects/${ids.project}?period=day`);
    const day = await call('projects/getStats', [ids.project, { period: 'day' }]);
    expect(day.count).toBe(12);
    await expect(page.getByTestId('summary').innerText()).resolves.toBe('12 responses.');
    const rows = await dataRows(page);
    expect(rows).toHaveLength(24);
    expect(rows[0][0]).toMatch(/^\d{1,2} \w{3} \d{4}, 00:00 UTC$/);
    expect(rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(12);
    expect(rows.map((row) => Number(row[1]))).toEqual(day.data.points);
    await page.locator('.chart-canvas canvas').first().waitFor();
    await checkPage(page, 'project-day');
    await context.close();
  });

  test('no page load calls a changing operation, and none shows a failed resource in the console', async () => {
    const readOnly = new Set(Object.entries(operations).flatMap(([path, operation]) => (operation.readOnly ? [path] : [])));
    const { context, page } = await pages.newPage();
    const calls: string[] = [];
    const failures: string[] = [];
    const operationOf = (request: Request) => {
      const path = new URL(request.url()).pathname.replace(/^\/v0\//, '');
      return path.replace(/^feelbacks\//, 'responses/');
    };
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v0/')) calls.push(`${request.method()} ${operationOf(request)}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    // A request the next navigation cancels is no failure the reader sees.
    page.on('requestfailed', (request) => {
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') failures.push(`failed ${request.url()}: ${request.failure()?.errorText}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(`console: ${message.text()}`);
    });
    await signIn(page, '/projects');
    const paths = [
      '/projects',
      `/projects/${ids.project}`,
      `/projects/${ids.project}?period=day`,
      `/projects/${ids.project}/responses`,
      `/sets/${ids.yesNo}`,
      `/sets/${ids.yesNo}/responses`,
      `/sets/${ids.yesNo}/embed`,
      `/sets/${ids.yesNo}/settings`,
      `/items/${ids.item}`,
      `/projects/${ids.docs}`,
      '/alerts',
      '/respondents',
      '/respondents/ann%40example.com',
      '/webhooks',
      `/webhooks/${ids.webhook}`,
      '/keys',
      '/members',
      '/audit',
    ];
    const seen: Record<string, string[]> = {};
    for (const path of paths) {
      calls.length = 0;
      await page.goto(`${base}${path}`);
      await page.locator('h1').waitFor();
      await page.waitForLoadState('networkidle');
      await page.waitForFunction(() => !document.querySelector('.loading'), undefined, { timeout: 20_000 });
      seen[path] = [...new Set(calls)];
    }
    const writes = Object.entries(seen).flatMap(([path, made]) => made.filter((made) => !readOnly.has(made.split(' ')[1])).map((made) => `${path}: ${made}`));
    expect(writes).toEqual([]);
    // Every page asked something, so the check above had calls to look at.
    for (const path of paths) expect({ path, calls: seen[path].length > 0 }).toEqual({ path, calls: true });
    // The role comes from members/me, which is what the old probe (projects/create []) was not.
    expect(seen['/projects'].map((made) => made.split(' ')[1])).toContain('members/me');
    expect([readOnly.has('members/me'), readOnly.has('projects/create')]).toEqual([true, false]);
    expect(failures).toEqual([]);
    await context.close();
  });

  test('the error box offers Retry, which loads the page', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, '/projects');
    await page.route(
      '**/v0/sets/get**',
      (route) => route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ error: 'too-many-requests', message: 'Slow down.' }) }),
      { times: 1 },
    );
    await page.goto(`${base}/sets/${ids.yesNo}`);
    const alert = page.getByRole('alert');
    await expect(alert.innerText()).resolves.toContain('Could not load this. Slow down.');
    await checkPage(page, 'error-retry');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { level: 1, name: 'Helpful' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    // A list that failed to load offers no export of it until it loads.
    await page.route(
      '**/v0/responses/list**',
      (route) => route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ error: 'too-many-requests', message: 'Slow down.' }) }),
      { times: 1 },
    );
    await page.goto(`${base}/sets/${ids.yesNo}/responses`);
    await page.getByRole('alert').waitFor();
    const exports = [page.getByRole('button', { name: 'Export CSV' }), page.getByRole('button', { name: 'Export NDJSON' })];
    for (const button of exports) expect(await button.isDisabled()).toBe(true);
    await expect(page.getByTestId('export-unavailable').innerText()).resolves.toBe('Export waits until the list loads.');
    await checkPage(page, 'export-waits-for-list');
    await page.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('response-list').waitFor();
    for (const button of exports) expect(await button.isEnabled()).toBe(true);
    await context.close();
  });

  test("each set's sparkline is drawn to its own busiest day, with its total beside it", async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, `/projects/${ids.project}`);
    // Responses per day: a yes-no point is [yes, no], a pulse or message point the count.
    const dayTotal = (point: number | [number, number]) => (typeof point === 'number' ? point : point[0] + point[1]);
    const highestDay = async (setId: string) => Math.max(...(await call('sets/getStats', [setId, { period: 'rolling7d' }])).data.points.map(dayTotal));
    expect([await highestDay(ids.yesNo), await highestDay(ids.pulse), await highestDay(ids.calm)]).toEqual([8, 3, 1]);
    const row = (name: string) => page.locator(`tr[data-set="${name}"]`);
    for (const [name, busiest] of [
      ['Helpful', '8'],
      ['Hearts', '3'],
      ['Calm', '1'],
    ]) {
      await until(async () => (await row(name).locator('.seven-days').getAttribute('data-scale-max')) === busiest, `${name} scaled to ${busiest}`);
      await expect(row(name).getByTestId('seven-day-count').innerText()).resolves.toBe(busiest);
    }
    await expect(page.getByTestId('sparkline-scale').innerText()).resolves.toContain('drawn to its own busiest day');
    // The tallest bar of each, in pixels: all their responses came today, so each fills its own chart, 1 as tall as 8.
    await page.locator('.seven-days canvas').nth(2).waitFor();
    const heights = await page.locator('.seven-days canvas').evaluateAll((canvases) =>
      (canvases as HTMLCanvasElement[]).map((canvas) => {
        const context = canvas.getContext('2d')!;
        const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
        let top = height;
        for (let y = 0; y < height && top === height; y++) for (let x = 0; x < width; x++) if (data[(y * width + x) * 4 + 3] > 200) top = y;
        return height - top;
      }),
    );
    expect(Math.min(...heights)).toBeGreaterThan(0);
    expect(Math.min(...heights) / Math.max(...heights)).toBeGreaterThan(0.9);
    await page.locator('.chart-canvas canvas').first().waitFor();
    await checkPage(page, 'sparklines-own-scale');
    await context.close();
  });

  test('set and item pages say this period against the previous one in words: outside the noise or within it', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, `/sets/${ids.docsHelpful}?period=rolling7d`);
    const change = page.getByTestId('change');
    // 13 of 30 against 26 of 30: 43 points down, and Newcombe's interval excludes no change.
    const set = await call('sets/getStats', [ids.docsHelpful, { period: 'rolling7d', compare: 'previous' }]);
    expect([set.count, set.previous.count, set.change.significant]).toEqual([30, 30, true]);
    const sentence = await change.innerText();
    expect(sentence).toMatch(
      /^This period vs the previous one \((.+)\): the share of yes is down 43 points, outside the noise\. The change lies between −\d+ points and −\d+ points \(95%\)\. 30 responses now, 30 then\.$/,
    );
    await checkPage(page, 'set-change-outside-noise');
    // The period it names is the one "Previous period" shows.
    await page.getByRole('button', { name: 'Previous period' }).click();
    await page.waitForURL(/ref=/);
    expect(sentence).toContain(`(${await page.getByTestId('period-label').innerText()})`);

    // "Getting started" alone: 5 of 20 against 18 of 20, also outside the noise; "Install", 8 of 10 both times, unchanged.
    await page.goto(`${base}/items/${ids.start}?period=rolling7d`);
    await expect(change.locator('strong').innerText()).resolves.toBe('the share of yes is down 65 points, outside the noise');
    const install = (await call('contents/lookup', ['https://docs.example.com/install', { contentSetId: ids.docsHelpful }]))[0].id;
    await page.goto(`${base}/items/${install}?period=rolling7d`);
    await expect(change.locator('strong').innerText()).resolves.toBe('the share of yes is unchanged, within the noise');
    // The last 28 days against the 28 before them: nothing then, so nothing to compare.
    await page.goto(`${base}/items/${install}?period=rolling28d`);
    await expect(change.innerText()).resolves.toMatch(/: nothing to compare, since the period before has no responses\.$/);
    // Lifetime has no period before: nothing is said.
    await page.goto(`${base}/items/${install}?period=lifetime`);
    await page.getByTestId('summary').waitFor();
    expect(await change.count()).toBe(0);
    await context.close();
  });

  test("the project page: what needs attention, the live last 7 days' worst pages with their intervals drawn, last week's drops, the alerts", async () => {
    await raiseAlerts();
    const { context, page } = await pages.newPage();
    await signIn(page, `/projects/${ids.docs}`);
    const section = page.getByRole('region', { name: 'Needs attention' });
    // The worst pages of the last 7 days, named with their dates (today the last).
    // A day as the console writes it (date-fns' "d MMM yyyy", UTC): "7 Dec 2026".
    const day = (date: Date) =>
      `${date.getUTCDate()} ${'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ')[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
    await expect(section.getByTestId('attention-days').innerText()).resolves.toMatch(new RegExp(`^\\d+ \\w{3}( \\d{4})? – ${day(new Date())}, today included`));
    // Read live from the rankings: "Getting started" (5 yes of 20, 2 days ago) with its interval.
    const [start] = await call('contents/top', [{ projectId: ids.docs, schema: 'yes-no', period: 'rolling7d', $sort: 'worst' }]);
    expect(start.id).toBe(ids.start);
    const percent = (value: number) => `${Math.round(value * 100)}%`;
    const startItem = section.getByTestId('worst-yes-no').locator('li[data-item="https://docs.example.com/start"]');
    // Its comparison is a read of its own (getStats with compare), drawn when that answers:
    // on a loaded machine after the rest of the item.
    await startItem.getByTestId('attention-change').waitFor();
    await expect(startItem.evaluate((item) => item.textContent)).resolves.toMatch(
      new RegExp(
        `^https://docs\\.example\\.com/start in Docs helpful25% \\(${percent(start.score.low)}–${percent(start.score.high)}\\)20 responses` +
          // Against the 7 days before (18 yes of 20, 10 days ago): newly bad.
          'Against the 7 days before \\(\\d+ \\w{3}( \\d{4})? – \\d+ \\w{3} \\d{4}, 20 responses\\): down 65 points, outside the noise\\.$',
      ),
    );
    // The API page has 9 ratings today: not ranked. A 10th, created now, ranks it at the next
    // read of the page, without waiting for a week's digest (whose week ended before today).
    const rating = section.getByTestId('worst-rating');
    await rating.waitFor();
    const worstApi = rating.locator('li[data-item="https://docs.example.com/api"]');
    expect(await worstApi.count()).toBe(0);
    await call('responses/create', [{ contentSetId: ids.docsRating, key: 'https://docs.example.com/api', value: 2 }]);
    await api.drainStream();
    await page.reload();
    await worstApi.waitFor();
    const [apiWorst] = (await call('contents/top', [{ projectId: ids.docs, schema: 'rating', period: 'rolling7d', $sort: 'worst' }])).filter(
      (entry: { key: string }) => entry.key === 'https://docs.example.com/api',
    );
    const stars = (value: number) => `${Math.round(value * 10) / 10} ★`;
    await worstApi.getByTestId('attention-change').waitFor();
    await expect(worstApi.evaluate((item) => item.textContent)).resolves.toMatch(
      new RegExp(
        `^https://docs\\.example\\.com/api in Docs rating${stars(1.5)} \\(${stars(apiWorst.score.low)}–${stars(apiWorst.score.high)}\\)10 responses` +
          'No responses the 7 days before \\(\\d+ \\w{3}( \\d{4})? – \\d+ \\w{3} \\d{4}\\)\\.$',
      ),
    );
    // The interval is drawn where it lies on the set's 1-5 scale.
    const track = (await worstApi.locator('.interval-track').boundingBox())!;
    const range = (await worstApi.locator('.interval-range').boundingBox())!;
    const at = (score: number) => track.x + ((score - 1) / 4) * track.width;
    expect(Math.abs(range.x - at(apiWorst.score.low))).toBeLessThan(2);
    expect(Math.abs(range.x + range.width - at(apiWorst.score.high))).toBeLessThan(2);
    // Last week's drops beyond the noise, from the digest and named as its week: the FAQ, 4.5 to 1.5 stars.
    const digest = await call('projects/digest', [ids.docs]);
    await expect(section.getByTestId('attention-week').innerText()).resolves.toBe(
      `The week of ${day(new Date(digest.week.from))} – ${day(new Date(digest.week.to))} against the week before (the weekly digest).`,
    );
    const faq = section.getByTestId('drops').locator('li[data-item="https://docs.example.com/faq"]');
    await expect(faq.innerText()).resolves.toMatch(/the average rating down 3 stars, outside the noise: 4\.5 ★ → 1\.5 ★\s+20 responses$/);
    // The latest alerts: the job's, for "Getting started" (5 of 20 against 18 of 20) and its set.
    const alerts = section.getByRole('region', { name: 'Recent alerts' });
    const startAlert = alerts.locator(`li[data-alert="${ids.start}"]`);
    await startAlert.waitFor();
    await expect(startAlert.innerText()).resolves.toMatch(
      /^https:\/\/docs\.example\.com\/start\s+The share of yes fell from 90% \(\d+%–\d+%\) to 25% \(\d+%–\d+%\) over the last 7 days, 20 responses\.\s+p (= 0\.\d+|< 0\.000001), under 0\.\d+, the threshold of the day’s \d+ tests? at a 5% false discovery rate\.\s+\d+ \w{3} \d{4}, \d{2}:\d{2}$/,
    );
    await expect(alerts.locator(`li[data-alert="${ids.docsHelpful}"]`).innerText()).resolves.toMatch(
      /^Docs helpful\s+\(the whole set\)\s+The share of yes fell from 87% /,
    );
    await checkPage(page, 'project-needs-attention');
    // A person follows an alert by keyboard to its page.
    await startAlert.getByRole('link', { name: 'https://docs.example.com/start' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/items/${ids.start}`);
    await context.close();

    const phone = await pages.newPage({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
    await signIn(phone.page, `/projects/${ids.docs}`);
    await phone.page.getByTestId('drops').waitFor();
    await phone.page.getByTestId('worst-rating').locator('li[data-item="https://docs.example.com/api"]').waitFor();
    await checkPage(phone.page, 'narrow-needs-attention');
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
    await phone.context.close();
  });

  test("the Alerts page lists the account's alerts, newest first; a set's settings turn its alerts off and set the drop in points", async () => {
    await raiseAlerts();
    const { context, page } = await pages.newPage();
    await signIn(page, '/projects');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    const listed = (await call('alerts/list', [{}])).items as { entityId: string; name: string }[];
    const shown = page.locator('.alert-list li');
    await until(async () => (await shown.count()) === listed.length, 'every alert');
    expect(await shown.evaluateAll((items) => items.map((item) => item.getAttribute('data-alert')))).toEqual(listed.map((alert) => alert.entityId));
    expect(listed.map((alert) => alert.entityId)).toEqual(expect.arrayContaining([ids.start, ids.docsHelpful]));
    await checkPage(page, 'alerts');

    // The account's false discovery rate, in percent: 5 by default; an admin sets 10.
    const rate = page.getByLabel('False discovery rate (%)');
    await expect(rate.inputValue()).resolves.toBe('5');
    await expect(page.getByText('Of the alerts it raises, about 5% on average are false alarms').count()).resolves.toBe(1);
    await rate.fill('30');
    await expect(page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).resolves.toBe(true);
    await rate.fill('10');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('about 10% on average are false alarms').waitFor();
    expect(await call('alerts/settings', [])).toEqual({ falseDiscoveryRate: 0.1 });
    await page.reload();
    await expect(page.getByLabel('False discovery rate (%)').inputValue()).resolves.toBe('10');
    await call('alerts/saveSettings', [{ falseDiscoveryRate: 0.05 }]);

    // The set's settings: alerts on by default, 20 responses, a drop of 10 points; saved as a share.
    await page.goto(`${base}/sets/${ids.docsHelpful}/settings`);
    const group = page.getByRole('group', { name: 'Alerts' });
    const enabled = group.getByLabel('Alert when feedback turns worse');
    await expect(enabled.isChecked()).resolves.toBe(true);
    await expect(group.getByLabel('Fewest responses in each window').inputValue()).resolves.toBe('20');
    const drop = group.getByLabel('Smallest drop that matters (percentage points)');
    await expect(drop.inputValue()).resolves.toBe('10');
    await checkPage(page, 'set-settings-alerts');
    await enabled.uncheck();
    await drop.fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('The smallest drop must be a number above 0.').waitFor();
    await drop.fill('15');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    expect((await call('sets/get', [ids.docsHelpful])).metadata.alerts).toEqual({ enabled: false, minResponses: 20, minDrop: 0.15 });
    await page.reload();
    await expect(group.getByLabel('Smallest drop that matters (percentage points)').inputValue()).resolves.toBe('15');
    await expect(group.getByLabel('Alert when feedback turns worse').isChecked()).resolves.toBe(false);
    // A rating set's drop is in stars.
    await page.goto(`${base}/sets/${ids.docsRating}/settings`);
    await expect(group.getByLabel('Smallest drop that matters (stars)').inputValue()).resolves.toBe('0.5');
    await context.close();
  });

  test('dates: filters read and write "24 Nov 2026" like every date shown; anything else is refused with a hint', async () => {
    const { context, page } = await pages.newPage({ locale: 'en-US' });
    await signIn(page, `/sets/${ids.yesNo}/responses`);
    const items = page.locator('[data-response]');
    await until(async () => (await items.count()) === 8, 'eight responses');
    const shown = await items.first().locator('time').innerText();
    expect(shown).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    const from = page.getByLabel('From');
    const tomorrow = new Date(Date.now() + 86_400_000);
    const written = tomorrow.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).replace('Sept', 'Sep');
    const iso = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    await from.fill(iso);
    await from.press('Enter');
    await expect(from.inputValue()).resolves.toBe(written);
    await page.getByText('No responses match these filters.').waitFor();
    await from.fill('');
    await from.press('Enter');
    await until(async () => (await items.count()) === 8, 'the filter cleared');
    await from.fill(`${tomorrow.getMonth() + 1}/${tomorrow.getDate()}/${tomorrow.getFullYear()}`);
    await from.press('Enter');
    await page.getByText('Write a day as 24 Nov 2026.').waitFor();
    expect(await from.getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'date-filter-refused');
    await from.fill(written);
    await from.press('Tab');
    await page.getByText('No responses match these filters.').waitFor();
    expect(await from.getAttribute('aria-invalid')).toBeNull();
    await context.close();
  });
});
