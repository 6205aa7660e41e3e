/**
 * The Review page in headless Chromium against the local server (issue 39 §7): held votes
 * grouped by page and reason in one sentence each ("7 votes on “Pricing” from one visitor
 * within a minute"), their values by the set's labels, each reason in words (the address
 * limit with its number and who shares an address), a group approved or discarded at once,
 * or opened and judged one by one; by keyboard, at 360 px, with axe.
 */
import type { Browser, Page } from 'playwright-core';
import type { ConsoleBuild } from '../../console/build';
import { createAccount, startTestApi, succeeded, type AccountKeys, type TestApi } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, signInAt, tearDownConsoleSuite } from '../support/browser';
import { until } from '../support/webhook-receiver';

jest.setTimeout(180_000);

describeInBrowser('console in Chromium: the Review page', () => {
  let build: ConsoleBuild;
  let api: TestApi;
  let account: AccountKeys;
  let browser: Browser;
  let base: string;
  let projectId: string;
  const pages = pageOpener(() => browser);
  const call = (path: string, args: unknown[]) => succeeded(api, path, args, account.admin);
  /** One visitor: one browser at one address. */
  const visitor = (agent: string, address = '203.0.113.7') => ({ headers: { 'user-agent': agent, 'x-forwarded-for': address } });
  const groups = (page: Page) => page.locator('tr[data-group]');

  beforeAll(async () => {
    build = await buildTestConsole();
    api = await startTestApi({ consoleDir: build.outdir });
    base = api.baseUrl.replace(/\/v0$/, '');
    account = await createAccount('console-review');
    projectId = (await call('projects/create', [{ name: 'Docs' }])).id;
    // Votes that are each a response (not one per visitor), so a script's are a burst.
    const set = (await call('sets/create', [{ projectId, key: 'helpful', schema: 'yes-no', metadata: { name: 'Was this helpful', onePerVisitor: false } }])).id;
    await call('contents/create', [{ contentSetId: set, key: 'https://docs.example.com/pricing', metadata: { title: 'Pricing' } }]);
    await call('contents/create', [{ contentSetId: set, key: 'https://docs.example.com/start', metadata: { title: 'Getting started' } }]);
    const vote = async (key: string, value: string, options: { headers: Record<string, string> }) => {
      const answer = await api.call('responses/create', [{ contentSetId: set, key: `https://docs.example.com/${key}`, value }], options);
      expect(answer.status).toBe(200);
    };
    // One script on Pricing: 12 "no" within the minute, the last 7 past visitorBurst (5).
    for (let index = 0; index < 12; index++) await vote('pricing', 'n', visitor('script/1.0'));
    // Five browsers of one address on Getting started: the last two past addressLimit (3).
    for (let index = 0; index < 5; index++) await vote('start', 'y', visitor(`browser/${index}`, '198.51.100.20'));
    await api.drainStream();
    browser = await launchBrowser();
  });

  tearDownConsoleSuite(pages, () => ({ browser, api, build }));

  test('groups held votes by page and reason in words, values by their labels; a group approved at once', async () => {
    const { context, page } = await pages.newPage();
    await signInAt(page, `${base}/projects/${projectId}/review`, account.admin);
    const burst = groups(page).filter({ hasText: '7 votes on “Pricing” from one visitor within a minute' });
    await burst.waitFor();
    expect(await burst.innerText()).toContain('👎 No × 7');
    expect(await burst.innerText()).toContain('Pricing in Was this helpful');
    const address = groups(page).filter({ hasText: '2 votes on “Getting started” from more than 3 visitors of one network address today' });
    expect(await address.innerText()).toContain('👍 Yes × 2');
    expect(await address.innerText()).toContain('share an address: approve them if they are real');
    expect(await groups(page).count()).toBe(2);
    // No row reads like a raw value.
    expect(await page.locator('table').first().innerText()).not.toMatch(/^\s*n\s*$/m);
    await checkPage(page, 'review-groups');

    // The office's two visitors are real: approved together, and counted.
    await address.getByRole('button', { name: /^Approve all 2: 2 votes on “Getting started”/ }).click();
    await page.getByRole('status').filter({ hasText: 'Approved 2 responses.' }).waitFor();
    await address.waitFor({ state: 'detached' });
    await api.drainStream();
    const start = (await api.call('contents/lookup', ['https://docs.example.com/start'], { key: account.viewer })).body[0];
    const stats = await succeeded(api, 'contents/getStats', [start.id], account.viewer);
    expect(stats.count).toBe(5);
    await context.close();
  });

  test('a group opened and judged one by one, by keyboard; at 360 px nothing leaves the screen', async () => {
    const { context, page } = await pages.newPage({ viewport: { width: 360, height: 740 } });
    await signInAt(page, `${base}/projects/${projectId}/review`, account.admin);
    const burst = groups(page).filter({ hasText: 'votes on “Pricing” from one visitor within a minute' });
    await burst.waitFor();
    // Open the group from the keyboard: the list of its votes gets the focus, under its sentence.
    const open = burst.getByRole('button', { name: /^One by one: 7 votes on “Pricing”/ });
    await open.focus();
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { level: 2, name: '7 votes on “Pricing” from one visitor within a minute' });
    await until(async () => (await heading.evaluate((element) => element === document.activeElement)) === true, 10_000, 'the focus on the opened group');
    // The same button now closes the group.
    expect(await burst.getByRole('button', { name: /^Close: 7 votes on “Pricing”/ }).getAttribute('aria-expanded')).toBe('true');
    const rows = page.locator('tr[data-response-id]');
    expect(await rows.count()).toBe(7);
    expect(await rows.first().innerText()).toContain('👎 No');
    // Discard one by keyboard: the group is one smaller.
    await rows.first().getByRole('button', { name: 'Discard', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Discarded 1 response.' }).waitFor();
    await groups(page).filter({ hasText: '6 votes on “Pricing” from one visitor within a minute' }).waitFor();
    await until(async () => (await rows.count()) === 6, 10_000, 'six votes left in the open group');
    const offScreen = await page.evaluate(
      () =>
        [...document.querySelectorAll('main button, main a, table.list-table td, table.list-table th')]
          .map((element) => element.getBoundingClientRect())
          .filter((rect) => rect.width > 1 && (rect.left < -0.5 || rect.right > window.innerWidth + 0.5)).length,
    );
    expect(offScreen).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
    await checkPage(page, 'review-one-by-one-phone');
    await context.close();
  });

  test('a viewer reads the groups and opens them, without verdicts', async () => {
    const { context, page } = await pages.newPage();
    await signInAt(page, `${base}/projects/${projectId}/review`, account.viewer);
    const burst = groups(page).filter({ hasText: 'votes on “Pricing” from one visitor within a minute' });
    await burst.waitFor();
    expect(await burst.getByRole('button', { name: /^(Approve|Discard)/ }).count()).toBe(0);
    await burst.getByRole('button', { name: /^One by one/ }).click();
    await page.locator('tr[data-response-id]').first().waitFor();
    expect(await page.getByRole('button', { name: /^(Approve|Discard)/ }).count()).toBe(0);
    await context.close();
  });
});
