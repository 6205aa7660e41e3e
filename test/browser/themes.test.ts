/**
 * Themes in the console (issue 40 §5), in headless Chromium against the local server: a shop's
 * help-centre messages (test/fixtures/themes/shop.tsv, moved to end yesterday) imported into a
 * tagged-message set and through the themes job. The set's Why panel starts with the "no"
 * messages and shows each theme's count, share and interval, the rising one, quotes and pages;
 * a theme's link lists exactly its messages; an admin renames and merges themes (recorded and
 * shown, then in the themes after the job's next run), a viewer sees no curation; the item's
 * panel and Needs attention name the theme that grew on its page. At 1280 and 360 px, with axe.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { ConsoleBuild } from '../../console/build';
import { runThemes } from '../../functions/jobs/themes';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, startTestApi, succeeded, type AccountKeys, type TestApi } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, signInAt, tearDownConsoleSuite } from '../support/browser';

jest.setTimeout(300_000);

const DAY = 86_400_000;
/** The fixture's last day: its dates are moved so that it ends yesterday (UTC). */
const FIXTURE_END = Date.parse('2026-06-29T00:00:00Z');
const RISING_PAGE = '/help/payments';

interface Theme {
  id: string;
  label: string;
  count: number;
  rising?: boolean;
  new?: boolean;
}

describeInBrowser('console in Chromium: the Why panel and curation of themes', () => {
  let build: ConsoleBuild;
  let api: TestApi;
  let account: AccountKeys;
  let browser: Browser;
  let base: string;
  let projectId: string;
  let setId: string;
  let paymentsId: string;
  const pages = pageOpener(() => browser);
  const call = <T = any>(path: string, args: unknown[]) => succeeded<T>(api, path, args, account.admin);
  const themeEntries = (page: Page) => page.locator('[data-testid="themes"] > li');
  const rolling7d = (path: string) => `${base}${path}?period=rolling7d`;
  const weekThemes = () => call<{ themes: Theme[]; messages: number; from: string; to: string }>('sets/themes', [setId, { period: 'rolling7d', tag: 'no', compare: 'previous' }]);

  beforeAll(async () => {
    build = await buildTestConsole();
    api = await startTestApi({ consoleDir: build.outdir });
    base = api.baseUrl.replace(/\/v0$/, '');
    account = await createAccount('console-themes');
    projectId = (await call('projects/create', [{ name: 'Outdoor shop' }])).id;
    setId = (
      await call('sets/create', [
        {
          projectId,
          key: 'help',
          schema: 'tagged-message',
          schemaConfig: {
            tags: [
              { value: 'yes', sentiment: 1, label: 'Helpful' },
              { value: 'no', sentiment: -1, label: 'Not helpful' },
            ],
          },
          metadata: { name: 'Help centre' },
        },
      ])
    ).id;
    const now = Date.now();
    const shift = Math.floor((now - FIXTURE_END) / DAY) * DAY;
    const rows = readFileSync('test/fixtures/themes/shop.tsv', 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => {
        const [id, , tag, page, createdAt, text] = line.split('\t');
        return { importId: id, key: page, value: { tag, message: text }, createdAt: new Date(Date.parse(createdAt) + shift).toISOString() };
      });
    await call('responses/import', [setId, rows]);
    await api.drainStream({ rank: false });
    await runThemes(defaultStore().store, new Date());
    paymentsId = (await call('contents/lookup', [RISING_PAGE, { contentSetId: setId }]))[0].id;
    browser = await launchBrowser();
  });

  tearDownConsoleSuite(pages, () => ({ browser, api, build }));

  test('the set’s Why panel: the “no” messages’ themes with shares, the rising one, quotes, phrases', async () => {
    const expected = await weekThemes();
    expect(expected.themes.length).toBeGreaterThanOrEqual(3);
    const { context, page } = await pages.newPage();
    await signInAt(page, rolling7d(`/sets/${setId}`), account.admin);
    const why = page.getByTestId('why');
    await themeEntries(page).first().waitFor();
    expect(await why.getByLabel('Messages tagged').inputValue()).toBe('no');
    expect(await page.getByTestId('why-summary').innerText()).toContain(`${expected.messages} messages`);
    // The API's themes, in its order, each with its count of the period's messages.
    const shown = await themeEntries(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-theme')));
    expect(shown).toEqual(expected.themes.map((theme) => theme.label));
    const top = expected.themes[0];
    const first = themeEntries(page).first();
    expect(await first.innerText()).toContain(`${top.count} of ${expected.messages} messages`);
    expect(await first.locator('.theme-quote').count()).toBeGreaterThan(0);
    // The rising theme says so.
    const rising = expected.themes.find((theme) => theme.rising);
    expect(rising).toBeDefined();
    expect(await page.locator(`[data-theme="${rising!.label}"] .theme-rising`).count()).toBe(1);
    expect(await page.getByTestId('phrases').locator('li').count()).toBeGreaterThan(0);
    await checkPage(page, 'themes-set-why');
    await context.close();
  });

  test('an admin renames and merges themes; the records show, and the themes after the job’s next run', async () => {
    const before = await weekThemes();
    const [first, second, third] = before.themes;
    const { context, page } = await pages.newPage();
    await signInAt(page, rolling7d(`/sets/${setId}`), account.admin);
    const entry = page.locator(`[data-theme="${first.label}"]`);
    await entry.getByRole('button', { name: 'Rename' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename theme' });
    await dialog.getByLabel('New name').fill('Charged twice for one order');
    await dialog.getByRole('button', { name: 'Rename theme' }).click();
    await page.getByRole('status').filter({ hasText: 'Recorded.' }).waitFor();
    await page.getByTestId('curations').getByText(`Renamed “${first.label}” to “Charged twice for one order”`).waitFor();

    await page.locator(`[data-theme="${second.label}"]`).getByRole('button', { name: 'Merge…' }).click();
    const merge = page.getByRole('dialog', { name: 'Merge themes' });
    await merge.getByLabel(third.label).check();
    await merge.getByRole('button', { name: 'Merge themes' }).click();
    await page.getByTestId('curations').getByText(`Merged 2 themes into “${second.label}”`).waitFor();
    await checkPage(page, 'themes-curated-records');

    // The job's next run applies them; the panel reads the themes again by itself.
    await runThemes(defaultStore().store, new Date());
    const renamed = page.locator('[data-theme="Charged twice for one order"]');
    await renamed.waitFor({ timeout: 30_000 });
    expect(await renamed.locator('.theme-badge').allInnerTexts()).toContain('curated');
    expect(await page.locator(`[data-theme="${third.label}"]`).count()).toBe(0);
    const after = await weekThemes();
    expect(after.themes.find((theme) => theme.id === second.id)?.count).toBe(second.count + third.count);
    await context.close();
  });

  test('a viewer reads the curations but has no curation buttons', async () => {
    const { context, page } = await pages.newPage();
    await signInAt(page, rolling7d(`/sets/${setId}`), account.viewer);
    await themeEntries(page).first().waitFor();
    await page.getByTestId('curations').locator('li').first().waitFor();
    expect(await page.getByRole('button', { name: 'Rename' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Pin a new theme' }).count()).toBe(0);
    await context.close();
  });

  test('at 360 px: the item’s Why panel and Needs attention name the theme that grew on the page', async () => {
    const item = await call<{ themes: Theme[]; messages: number }>('contents/themes', [paymentsId, { period: 'rolling7d', tag: 'no', compare: 'previous' }]);
    const grew = item.themes.find((theme) => theme.rising || theme.new) ?? item.themes[0];
    const { context, page } = await pages.newPage({ viewport: { width: 360, height: 740 } });
    await signInAt(page, rolling7d(`/items/${paymentsId}`), account.admin);
    await page.locator(`[data-theme="${grew.label}"]`).waitFor();
    await checkPage(page, 'themes-item-why-360');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await page.goto(`${base}/projects/${projectId}`);
    const reason = page.locator(`[data-item="${RISING_PAGE}"] [data-testid="attention-reason"]`);
    await reason.waitFor();
    expect(await reason.innerText()).toContain(grew.label);
    await checkPage(page, 'themes-needs-attention-360');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await context.close();
  });
});
