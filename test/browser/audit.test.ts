/**
 * The console's audit log in headless Chromium against the local server: a change made in
 * the console (a new API key) shows as the newest entry, with its key id as target and the
 * signed-in key as actor; the filters narrow the list; "Load more" reads on by cursor; viewers
 * get no link to it.
 */
import type { Browser, Page } from 'playwright-core';
import type { ConsoleBuild } from '../../console/build';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, signInAt, tearDownConsoleSuite } from '../support/browser';
import { until } from '../support/webhook-receiver';

jest.setTimeout(180_000);

describeInBrowser('console in Chromium: the audit log', () => {
  let build: ConsoleBuild;
  let api: TestApi;
  let account: AccountKeys;
  let browser: Browser;
  let base: string;

  const pages = pageOpener(() => browser);
  const signIn = (page: Page, path: string, key = account.admin) => signInAt(page, `${base}${path}`, key);

  beforeAll(async () => {
    build = await buildTestConsole();
    api = await startTestApi({ consoleDir: build.outdir });
    base = api.baseUrl.replace(/\/v0$/, '');
    account = await createAccount('console-audit');
    // 51 earlier changes: more than the page's 50, so "Load more" has something to read.
    for (let index = 0; index < 51; index++) {
      const answer = await api.call('projects/create', [{ name: `Audited ${index}` }], { key: account.admin });
      expect(answer.status).toBe(200);
    }
    browser = await launchBrowser();
  });

  tearDownConsoleSuite(pages, () => ({ browser, api, build }));

  test('a change made in the console is the newest entry; filters and Load more', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, '/keys');
    await page.getByRole('button', { name: 'New API key' }).click();
    await page.getByLabel('Level').selectOption('viewer');
    await page.getByLabel('Label (optional)').fill('audited key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-key').inputValue();
    await page.getByRole('button', { name: 'Done' }).click();
    const keyRow = page.locator('tr', { hasText: 'audited key' });
    // The key's own id (the first code of the row; "Created by" names its maker's id too).
    const keyId = (await keyRow.locator('code').first().innerText()).trim();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const rows = page.locator('tr[data-entry]');
    await rows.first().waitFor();
    const newest = await rows.first().innerText();
    expect(newest).toContain('keys/create');
    expect(newest).toContain(keyId);
    expect(newest).toContain('127.0.0.1');
    expect(newest).toContain('ok');
    // Ids only: neither the new key nor its label is in the log.
    expect(await page.locator('table').innerText()).not.toContain(key);
    expect(await page.locator('table').innerText()).not.toContain('audited key');
    expect(await rows.count()).toBe(50);
    await checkPage(page, 'audit');

    await page.getByRole('button', { name: 'Load more' }).click();
    await until(async () => (await rows.count()) === 52, 15_000, '52 rows');

    await page.getByLabel('Operation').fill('keys/create');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(async () => (await rows.count()) === 1, 15_000, 'one keys/create row');
    await page.getByLabel('Operation').fill('');
    await page.getByLabel('Target id').fill(keyId);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(async () => (await rows.count()) === 1 && (await rows.first().innerText()).includes('keys/create'), 15_000, 'the entry of the key');
    const tomorrow = new Date(Date.now() + 2 * 24 * 3600 * 1000);
    const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    await page.getByLabel('From').fill(day);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No entries match these filters.').waitFor();
    await context.close();
  });

  test('viewers have no audit log', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, '/projects', account.viewer);
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await page.goto(`${base}/audit`);
    await page.getByText('This page needs an admin key.').waitFor();
    await context.close();
  });
});
