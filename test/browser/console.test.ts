/**
 * The console in real headless Chromium against the local server (console served at `/`,
 * API at `/v0`, DynamoDB Local, the real stream), with data made through the API: sign-in
 * as viewer and admin, every page, the numbers of charts and distributions (read from the
 * DOM and the data tables beside the charts), the embed preview posting a real response,
 * axe-core on every page, 360 px and dark mode, keyboard use, and the budgets.
 * Screenshots go to .tmp/screenshots/.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { ANONYMOUS } from '../../functions/api/auth';
import { issueApiKey, revokeApiKey } from '../../functions/operations/api-keys';
import { createResponse } from '../../functions/operations/response-collection';
import { defaultStore } from '../../functions/store/entity-store';
import type { ConsoleBuild } from '../../console/build';
import { createAccount, startTestApi, type AccountKeys, type TestApi, succeeded } from '../support/api';
import {
  buildTestConsole,
  checkPage,
  describeInBrowser,
  launchBrowser,
  pageOpener,
  SCREENSHOT_DIR,
  screenshot,
  signInAt,
  tearDownConsoleSuite,
} from '../support/browser';
import { join } from 'node:path';
import * as os from 'node:os';

jest.setTimeout(180_000);

const LONG_MESSAGE = `The install guide skips the proxy settings.\n${'Behind our corporate proxy npm cannot reach the registry, and the guide never says how to configure it. '.repeat(6)}Please add a section.`;

describeInBrowser('console in Chromium', () => {
  let build: ConsoleBuild;
  let api: TestApi;
  let account: AccountKeys;
  let browser: Browser;
  let base: string;
  const ids: Record<string, string> = {};

  const call = <T = any>(path: string, args: unknown[], key: string | undefined = account.admin) => succeeded<T>(api, path, args, key);

  const respond = (contentSetId: string, key: string, value: unknown, extra: Record<string, unknown> = {}) =>
    call('responses/create', [{ contentSetId, key, value, ...extra }], undefined);

  const pages = pageOpener(() => browser);

  /** Waits until the locator matches `count` elements. */
  async function expectCount(locator: Locator, count: number): Promise<void> {
    const deadline = Date.now() + 15_000;
    let seen = await locator.count();
    while (seen !== count && Date.now() < deadline) {
      await new Promise((wait) => setTimeout(wait, 100));
      seen = await locator.count();
    }
    expect(seen).toBe(count);
  }

  const signIn = (page: Page, key: string, path = '/projects') => signInAt(page, `${base}${path}`, key);

  /**
   * The fields of a project dialog (create or rename): focus starts on the name; the limits are
   * those of projects/create and projects/save; a blank name cannot be submitted.
   */
  async function projectFields(dialog: Locator, descriptionLabel: string, submitLabel: string): Promise<{ name: Locator; description: Locator }> {
    const name = dialog.getByLabel('Name', { exact: true });
    const description = dialog.getByLabel(descriptionLabel, { exact: true });
    expect(await name.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await name.evaluate((input: HTMLInputElement) => [input.required, input.maxLength])).toEqual([true, 50]);
    expect(await description.evaluate((input: HTMLInputElement) => [input.required, input.maxLength])).toEqual([false, 255]);
    const initial = await name.inputValue();
    await name.fill('   ');
    expect(await dialog.getByRole('button', { name: submitLabel }).isDisabled()).toBe(true);
    await name.fill(initial);
    return { name, description };
  }

  /** Submits a dialog whose operation answers, this once, with the API's own refusal of `refusedArgs`; the dialog shows its message and stays open. */
  async function submitRefusedOnce(page: Page, dialog: Locator, operation: string, refusedArgs: unknown[], submitLabel: string): Promise<void> {
    const refusal = await api.call(operation, refusedArgs, { key: account.admin });
    expect(refusal.status).toBe(400);
    await page.route(
      `**/v0/${operation}`,
      (route) => route.fulfill({ status: refusal.status, contentType: 'application/json', body: JSON.stringify(refusal.body) }),
      { times: 1 },
    );
    await dialog.getByRole('button', { name: submitLabel }).click();
    await expect(dialog.getByRole('alert').innerText()).resolves.toBe(refusal.body.message);
  }

  /**
   * The first chart's bars and x-axis ticks in CSS pixels, read from its canvas: the width of
   * each bar (runs of opaque pixels along the row just above the baseline), the slot each of
   * its `points` has, and the least distance between two ticks (the marks just under the plot,
   * one per label).
   */
  async function chartGeometry(page: Page, points: number): Promise<{ bars: number[]; slot: number; tickSpacing: number }> {
    await page.locator('.chart-canvas canvas').first().waitFor();
    return page.evaluate((points) => {
      const canvas = document.querySelector('.chart-canvas canvas') as HTMLCanvasElement;
      const box = canvas.getBoundingClientRect();
      const plot = (document.querySelector('.chart-canvas .u-over') as HTMLElement).getBoundingClientRect();
      const scale = canvas.width / box.width;
      const context = canvas.getContext('2d')!;
      const runs = (y: number, opaque: (alpha: number) => boolean) => {
        const row = context.getImageData(Math.round((plot.left - box.left) * scale), Math.round((y - box.top) * scale), Math.round(plot.width * scale), 1).data;
        const found: { start: number; length: number }[] = [];
        for (let x = 0; x < row.length / 4; x++) {
          if (!opaque(row[x * 4 + 3])) continue;
          const last = found.at(-1);
          if (last && last.start + last.length === x) last.length++;
          else found.push({ start: x, length: 1 });
        }
        return found.map((run) => ({ centre: (run.start + run.length / 2) / scale, length: run.length / scale }));
      };
      const ticks = runs(plot.bottom + 3, (alpha) => alpha > 0).map((run) => run.centre);
      return {
        bars: runs(plot.bottom - 4, (alpha) => alpha >= 250).map((run) => run.length),
        slot: plot.width / points,
        tickSpacing: Math.min(...ticks.slice(1).map((centre, index) => centre - ticks[index])),
      };
    }, points);
  }

  async function heading(page: Page): Promise<string> {
    return (await page.locator('h1').innerText()).trim();
  }

  /** Distribution table as { label: [count, share] }. */
  async function distribution(page: Page): Promise<Record<string, [string, string]>> {
    const table = page.locator('table.distribution');
    await table.waitFor();
    return table.evaluate((element) =>
      Object.fromEntries(
        [...element.querySelectorAll('tbody tr')].map((row) => {
          const label = (row.querySelector('th') as HTMLElement).innerText.replace(/\s+/g, ' ').trim();
          const cells = [...row.querySelectorAll('td')].map((cell) => (cell as HTMLElement).innerText.trim());
          return [label, [cells[0], cells[1]]];
        }),
      ),
    );
  }

  /** The chart's data table: column names and the rows (point title, cells). */
  async function dataTable(page: Page): Promise<{ columns: string[]; rows: string[][] }> {
    const details = page.locator('details.data-table').first();
    await details.waitFor();
    return details.evaluate((element) => ({
      columns: [...element.querySelectorAll('thead th')].map((cell) => (cell.textContent ?? '').trim()),
      rows: [...element.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => (cell.textContent ?? '').trim())),
    }));
  }

  beforeAll(async () => {
    build = await buildTestConsole();
    api = await startTestApi({ consoleDir: build.outdir });
    base = api.baseUrl.replace(/\/v0$/, '');
    account = await createAccount('console');
    const project = await call('projects/create', [{ name: 'Docs site', description: 'docs.example.com' }]);
    ids.project = project.id;
    ids.emptyProject = (await call('projects/create', [{ name: 'Empty project' }])).id;
    const set = async (name: string, key: string, schema: string, extra: Record<string, unknown> = {}) =>
      (await call('sets/create', [{ projectId: ids.project, key, schema, metadata: { name }, ...extra }])).id as string;
    ids.yesNo = await set('Was it helpful', 'helpful', 'yes-no');
    ids.reaction = await set('Reactions', 'reactions', 'reaction', { schemaConfig: { preset: 'github' } });
    ids.rating = await set('Rating', 'rating', 'rating');
    ids.tagged = await set('Feedback form', 'feedback', 'tagged-message');
    ids.pulse = await set('Love button', 'love', 'pulse');
    ids.busy = await set('Busy', 'busy', 'yes-no');
    ids.quiet = await set('Quiet', 'quiet', 'message');
    for (const value of ['y', 'y', 'y', 'n']) await respond(ids.yesNo, 'https://docs.example.com/intro', value);
    for (const value of ['y', 'n']) await respond(ids.yesNo, 'https://docs.example.com/install', value);
    for (const value of ['+1', '+1', 'heart', 'rocket']) await respond(ids.reaction, 'https://docs.example.com/intro', value);
    for (const value of [5, 4, 4, 2]) await respond(ids.rating, 'https://docs.example.com/intro', value);
    await respond(ids.tagged, 'https://docs.example.com/install', { tag: 'idea', message: LONG_MESSAGE }, { context: { $user: 'ann@example.com' } });
    await respond(ids.tagged, 'https://docs.example.com/install', { tag: 'error', message: 'The copy button copies the prompt too.' });
    for (let index = 0; index < 3; index++) await respond(ids.pulse, 'https://docs.example.com/intro', '+');
    for (let index = 0; index < 30; index++) await respond(ids.busy, `https://docs.example.com/page-${index % 3}`, 'y');
    // A project of its own, so the counts above stay as they are: one answer a day for the last
    // 28 days, written with their past dates, for a chart with a bar on every day.
    const streak = (await call('projects/create', [{ name: 'Streak' }])).id;
    ids.everyDay = (await call('sets/create', [{ projectId: streak, key: 'every-day', schema: 'yes-no', metadata: { name: 'Every day' } }])).id;
    const { store } = defaultStore();
    for (let day = 0; day < 28; day++) {
      await createResponse(
        store,
        ANONYMOUS,
        { contentSetId: ids.everyDay, key: 'https://docs.example.com/daily', value: 'y' },
        { headers: {} },
        new Date(Date.now() - day * 86_400_000),
      );
    }
    await api.drainStream();
    browser = await launchBrowser();
  });

  tearDownConsoleSuite(pages, () => ({ browser, api, build }));

  test('sign-in: a wrong key shows the API message; the key lives in sessionStorage, never in the URL; sign out clears it', async () => {
    const { context, page } = await pages.newPage();
    await page.goto(`${base}/projects`);
    expect(await heading(page)).toBe('Sign in');
    await checkPage(page, 'sign-in');
    const refused = await api.call('projects/lookup', [''], { key: 'fbk_not-a-key' });
    await page.getByLabel('API key').fill('fbk_not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toContain(refused.body.message);
    await screenshot(page, 'sign-in-refused');

    await page.getByLabel('API key').fill(account.admin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    expect(page.url()).toBe(`${base}/projects`);
    expect(await page.evaluate(() => Object.values(sessionStorage).join(' '))).toContain(account.admin);
    expect(await page.evaluate(() => Object.values(localStorage).join(' '))).not.toContain(account.admin);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => Object.values(sessionStorage).join(' '))).not.toContain(account.admin);
    await context.close();
  });

  test('a viewer sees no create, edit or erase controls', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, account.viewer);
    await expect(page.locator('.level-badge').innerText()).resolves.toBe('Viewer');
    expect(await page.getByRole('button', { name: 'New project' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await checkPage(page, 'viewer-projects');
    await page.getByRole('link', { name: 'Docs site' }).click();
    await page.getByRole('heading', { level: 1, name: 'Docs site' }).waitFor();
    for (const name of ['Rename', 'Archive', 'New content set']) expect(await page.getByRole('button', { name }).count()).toBe(0);
    await page.goto(`${base}/sets/${ids.yesNo}`);
    await page.getByRole('heading', { level: 1, name: 'Was it helpful' }).waitFor();
    expect(await page.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await page.goto(`${base}/respondents/ann%40example.com`);
    await page.getByRole('heading', { level: 1, name: 'ann@example.com' }).waitFor();
    expect(await page.getByRole('button', { name: /Erase/ }).count()).toBe(0);
    await page.goto(`${base}/keys`);
    await page.getByRole('heading', { level: 1, name: 'Admins only' }).waitFor();
    await context.close();
  });

  test('a key revoked while signed in returns to sign-in with the API message', async () => {
    const { store } = defaultStore();
    const issued = await issueApiKey(store, { accountId: account.accountId, level: 'admin' }, new Date());
    const { context, page } = await pages.newPage();
    await signIn(page, issued.key);
    await page.getByRole('link', { name: 'Docs site' }).waitFor();
    // Every read of the page done first (the list shows before its counts arrive): a read
    // still to come after the revocation would sign out before the click this test makes. The
    // reads after members/me (signed in) are the list and each row's two counts. (Not
    // `networkidle`: the sign-in moves within the page, so that state had been reached at the
    // sign-in form and resolved at once; on a loaded machine the counts came after the revocation.)
    await page.waitForFunction(() => {
      const counts = [...document.querySelectorAll('[data-testid="project-7d"], [data-testid="project-lifetime"]')];
      return counts.length > 0 && counts.every((count) => count.textContent !== '…');
    });
    await revokeApiKey(store, issued.record.id, new Date());
    const refused = await api.call('projects/get', [ids.project], { key: issued.key });
    await page.getByRole('link', { name: 'Docs site' }).click();
    await page.getByLabel('API key').waitFor();
    await expect(page.getByRole('alert').innerText()).resolves.toContain(refused.body.message);
    expect(await page.evaluate(() => Object.values(sessionStorage).join(' '))).not.toContain(issued.key);
    await context.close();
  });

  test('projects: counts of the last 7 days and lifetime; an admin creates, renames and archives a project (both dialogs: limits, blank name, the API message)', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, account.admin);
    await page.waitForFunction(() => document.querySelector('tr[data-project="Docs site"] [data-testid="project-7d"]')?.textContent === '49');
    await page.waitForFunction(() => document.querySelector('tr[data-project="Docs site"] [data-testid="project-lifetime"]')?.textContent === '49');
    await checkPage(page, 'projects');

    await page.getByRole('button', { name: 'New project' }).click();
    let dialog = page.getByRole('dialog', { name: 'New project' });
    await checkPage(page, 'project-create-dialog');
    let fields = await projectFields(dialog, 'Description (optional)', 'Create project');
    expect([await fields.name.inputValue(), await fields.description.inputValue()]).toEqual(['', '']);
    await fields.name.fill('Blog');
    await fields.description.fill('  Team posts ');
    await submitRefusedOnce(page, dialog, 'projects/create', [{ name: 'x'.repeat(51) }], 'Create project');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { level: 1, name: 'Blog' }).waitFor();
    const created = (await call('projects/lookup', ['Blog']))[0];
    expect([created.name, created.metadata]).toEqual(['Blog', { description: 'Team posts' }]);

    await page.getByRole('button', { name: 'Rename' }).click();
    dialog = page.getByRole('dialog', { name: 'Rename project' });
    fields = await projectFields(dialog, 'Description', 'Save');
    expect([await fields.name.inputValue(), await fields.description.inputValue()]).toEqual(['Blog', 'Team posts']);
    await fields.name.fill('Engineering blog');
    await fields.description.fill('');
    await submitRefusedOnce(page, dialog, 'projects/save', [created.id, { name: 'x'.repeat(51) }], 'Save');
    await checkPage(page, 'project-rename-refused');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: 'Engineering blog' }).waitFor();
    expect(await page.getByText('Team posts').count()).toBe(0);
    expect((await call('projects/get', [created.id])).metadata).toEqual({ description: '' });
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Archive project' }).click();
    await page.getByRole('button', { name: 'Unarchive' }).waitFor();
    const saved = (await call('projects/lookup', ['Engineering', { state: 'all' }]))[0];
    expect([saved.name, saved.state]).toEqual(['Engineering blog', 'archived']);
    await page.getByRole('link', { name: 'Projects', exact: true }).first().click();
    await page.locator('tr[data-project="Docs site"]').waitFor();
    expect(await page.locator('tr[data-project="Engineering blog"]').count()).toBe(0);
    await page.getByLabel('Show archived').check();
    await page.locator('tr[data-project="Engineering blog"]').waitFor();
    await context.close();
  });

  test('a project: its sets with 7-day counts and sparklines, its responses over the period, its top items', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, account.admin, `/projects/${ids.project}`);
    await page.getByRole('heading', { level: 1, name: 'Docs site' }).waitFor();
    const sevenDays = async (name: string) => page.locator(`tr[data-set="${name}"] [data-testid="seven-day-count"]`).innerText();
    await expect(sevenDays('Was it helpful')).resolves.toBe('6');
    await expect(sevenDays('Busy')).resolves.toBe('30');
    await expect(sevenDays('Quiet')).resolves.toBe('0');
    await page.locator('tr[data-set="Was it helpful"] [role="img"]').waitFor();
    await expect(page.getByTestId('summary').innerText()).resolves.toBe('49 responses.');
    // The project's chart (its points are in its one getStats).
    const table = await dataTable(page);
    expect(table.columns).toEqual(['Point', 'Responses']);
    expect(table.rows).toHaveLength(28);
    expect(table.rows.at(-1)![1]).toBe('49');
    expect(table.rows.slice(0, -1).every((row) => row[1] === '0')).toBe(true);
    const top = page.locator('.top-list li');
    await top.first().waitFor();
    await expect(top.first().innerText()).resolves.toContain('page-');
    await checkPage(page, 'project');
    await context.close();
  });

  test('a yes-no set: summary, distribution and chart numbers; previous/next periods; a deep link survives a reload', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, account.admin, `/sets/${ids.yesNo}`);
    await page.getByRole('heading', { level: 1, name: 'Was it helpful' }).waitFor();
    await expect(page.getByTestId('summary').innerText()).resolves.toBe('67% said yes (4 yes, 2 no): somewhat positive overall, score +0.33.');
    expect(await distribution(page)).toEqual({ '👍 Yes': ['4', '67%'], '👎 No': ['2', '33%'] });
    const table = await dataTable(page);
    expect(table.columns).toEqual(['Point', '👍 Yes', '👎 No', 'Total']);
    expect(table.rows.at(-1)!.slice(1)).toEqual(['4', '2', '6']);
    // The chart's code loads apart from the page (prefetched with the stats), so its canvas may come a moment after the table.
    await page.locator('.chart-canvas canvas').first().waitFor();
    expect(await page.locator('.chart-canvas canvas').count()).toBe(1);
    await checkPage(page, 'set-yes-no');

    await page.getByLabel('Period', { exact: true }).selectOption('week');
    await page.waitForURL(/period=week/);
    const thisWeek = await page.getByTestId('period-label').innerText();
    await page.getByRole('button', { name: 'Previous period' }).click();
    await page.waitForURL(/ref=\d{4}-\d{2}-\d{2}/);
    await expect(page.getByTestId('summary').innerText()).resolves.toBe('No feedback in this period.');
    const lastWeek = await page.getByTestId('period-label').innerText();
    expect(lastWeek).not.toBe(thisWeek);
    const deepLink = page.url();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Was it helpful' }).waitFor();
    expect(page.url()).toBe(deepLink);
    await expect(page.getByTestId('period-label').innerText()).resolves.toBe(lastWeek);
    await expect(page.getByLabel('Period', { exact: true }).inputValue()).resolves.toBe('week');
    await expect(page.getByTestId('summary').innerText()).resolves.toBe('No feedback in this period.');
    await page.getByRole('button', { name: 'Next period' }).click();
    await expect(page.getByTestId('summary').innerText()).resolves.toContain('4 yes, 2 no');
    expect(page.url()).not.toContain('ref=');
    expect(await page.getByRole('button', { name: 'Next period' }).isDisabled()).toBe(true);
    await context.close();
  });

  test('sets of the other schemas: reaction emoji and shares, rating average, tagged messages, pulse points', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, account.admin, `/sets/${ids.reaction}?period=rolling7d`);
    await page.getByRole('heading', { level: 1, name: 'Reactions' }).waitFor();
    const reactions = await distribution(page);
    expect(reactions['👍 Like']).toEqual(['2', '50%']);
    expect(reactions['❤️ Love']).toEqual(['1', '25%']);
    expect(reactions["🚀 Let's go!"]).toEqual(['1', '25%']);
    expect(reactions['👎 Dislike']).toEqual(['0', '0%']);
    await expect(page.getByTestId('summary').innerText()).resolves.toContain('Most chosen: 👍 Like (50%)');
    expect((await dataTable(page)).rows).toHaveLength(7);
    await checkPage(page, 'set-reaction');

    await page.goto(`${base}/sets/${ids.rating}`);
    await page.getByRole('heading', { level: 1, name: 'Rating' }).waitFor();
    await expect(page.getByTestId('summary').innerText()).resolves.toBe('Average rating 3.75 out of 5 from 4 ratings.');
    expect(await distribution(page)).toEqual({ '1 ★': ['0', '0%'], '2 ★': ['1', '25%'], '3 ★': ['0', '0%'], '4 ★': ['2', '50%'], '5 ★': ['1', '25%'] });
    const rating = await dataTable(page);
    expect(rating.columns).toEqual(['Point', 'Ratings', 'Average']);
    expect(rating.rows.at(-1)!.slice(1)).toEqual(['4', '3.75']);
    await checkPage(page, 'set-rating');

    await page.goto(`${base}/sets/${ids.tagged}`);
    await page.getByRole('heading', { level: 1, name: 'Feedback form' }).waitFor();
    expect(await distribution(page)).toEqual({ '💡 Idea': ['1', '50%'], '💥 Error': ['1', '50%'], '💬 Other': ['0', '0%'] });
    await checkPage(page, 'set-tagged-message');

    await page.goto(`${base}/sets/${ids.pulse}?period=month`);
    await page.getByRole('heading', { level: 1, name: 'Love button' }).waitFor();
    await expect(page.getByTestId('summary').innerText()).resolves.toBe('3 responses.');
    const pulse = await dataTable(page);
    expect(pulse.rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(3);
    await checkPage(page, 'set-pulse');
    await context.close();
  });

  test('a content item: its title and URL, its statistics, its responses', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, account.admin, `/sets/${ids.yesNo}`);
    await page.locator('.top-list').getByRole('link', { name: 'https://docs.example.com/intro' }).click();
    await page.getByRole('heading', { level: 1, name: 'https://docs.example.com/intro' }).waitFor();
    const link = page.locator('a.item-url');
    expect(await link.getAttribute('href')).toBe('https://docs.example.com/intro');
    expect(await distribution(page)).toEqual({ '👍 Yes': ['3', '75%'], '👎 No': ['1', '25%'] });
    await expectCount(page.locator('[data-response]'), 4);
    await checkPage(page, 'item');
    await context.close();
  });

  test('responses: newest first, messages in full, filters, profiling, Load more', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, account.admin, `/sets/${ids.tagged}/responses`);
    await page.getByRole('heading', { level: 1, name: 'Responses to Feedback form' }).waitFor();
    const items = page.locator('[data-response]');
    await expectCount(items, 2);
    await expect(items.nth(0).innerText()).resolves.toContain('The copy button copies the prompt too.');
    const message = items.nth(1).locator('.message');
    expect(await message.innerText()).toBe(LONG_MESSAGE);
    expect(await items.nth(1).getByRole('link', { name: 'ann@example.com' }).count()).toBe(1);
    await checkPage(page, 'responses');
    await page.getByLabel('Tag').selectOption('idea');
    await expectCount(items, 1);
    await expect(items.first().innerText()).resolves.toContain('💡 Idea');
    await page.getByLabel('Tag').selectOption('');
    await page.getByLabel('Message contains').fill('copy button');
    await expectCount(items, 1);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('State').selectOption('revoked');
    await page.getByText('No responses match these filters.').waitFor();
    await page.getByLabel('State').selectOption('active');
    const tomorrow = new Date(Date.now() + 86_400_000);
    const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    await page.getByLabel('From').fill(day);
    await page.getByLabel('From').press('Enter');
    await page.getByText('No responses match these filters.').waitFor();

    await page.goto(`${base}/sets/${ids.busy}/responses`);
    await expectCount(items, 25);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expectCount(items, 30);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await page.goto(`${base}/projects/${ids.project}/responses`);
    await page.getByRole('heading', { level: 1, name: 'Responses to Docs site' }).waitFor();
    await expectCount(items, 25);
    await checkPage(page, 'responses-project');
    // The one match is older than the first page: the list reads on by itself, nothing clicked.
    await page.getByLabel('Value contains').fill('copy button');
    await expectCount(items, 1);
    await expect(items.first().innerText()).resolves.toContain('The copy button copies the prompt too.');
    const status = page.locator('.responses p[role="status"]');
    await status.getByText(/^1 response of \d+ loaded match\.$/).waitFor();
    expect(Number(/of (\d+) loaded/.exec(await status.innerText())![1])).toBeGreaterThan(25);
    await screenshot(page, 'responses-read-on');
    await context.close();
  });

  test('embed: snippets with this endpoint and the set id; the live @feelback/react preview records a real response and takes it back', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, account.admin, `/sets/${ids.yesNo}/embed`);
    await page.getByRole('heading', { level: 1, name: 'Was it helpful' }).waitFor();
    const react = await page.getByTestId('snippet-react').innerText();
    expect(react).toContain(`<FeelbackProvider endpoint="${base}/v0">`);
    // One attribute a line once an element is long (console/src/schemas/view.ts, jsxElement).
    expect(react).toContain(`<FeelbackYesNo\n        contentSetId="${ids.yesNo}"\n        preset={PRESET_YESNO_LIKE_DISLIKE}`);
    await page.getByRole('tab', { name: 'astro-feelback' }).click();
    const astro = await page.getByTestId('snippet-astro').innerText();
    expect(astro).toContain(`PUBLIC_ENDPOINT=${base}/v0`);
    expect(astro).toContain(`<FeelbackYesNo\n  contentSetId="${ids.yesNo}"`);
    await page.getByRole('tab', { name: /HTML/ }).click();
    const html = await page.getByTestId('snippet-html').innerText();
    expect(html).toContain(`data-feelback-set="${ids.yesNo}"`);
    expect(html).toContain(`setupFeelback({ endpoint: "${base}/v0" })`);
    const before = (await call('responses/list', [{ contentSetId: ids.yesNo, $size: 100 }])).items.length;
    await page.getByTestId('widget-preview').getByRole('button', { name: 'No' }).click();
    await page.getByTestId('preview-status').getByText('Recorded, taken back and erased: nothing of it remains.').waitFor();
    // A real response on the item of the page's address, taken back and erased: none is left, in any state.
    const [item] = (await call('contents/lookup', [`${base}/sets/${ids.yesNo}/embed`, { contentSetId: ids.yesNo }])).filter(
      (entry: { key: string }) => entry.key === `${base}/sets/${ids.yesNo}/embed`,
    );
    expect((await call('responses/list', [{ contentId: item.id, state: 'all' }])).items).toEqual([]);
    expect((await call('responses/list', [{ contentSetId: ids.yesNo, $size: 100 }])).items).toHaveLength(before);
    await checkPage(page, 'embed');
    await context.close();

    // A viewer cannot erase, so sees no preview, and the reason.
    const viewer = await pages.newPage();
    await signIn(viewer.page, account.viewer, `/sets/${ids.yesNo}/embed`);
    await expect(viewer.page.getByTestId('preview-off').innerText()).resolves.toContain('The live preview is for admins');
    expect(await viewer.page.getByTestId('widget-preview').count()).toBe(0);
    await viewer.context.close();
  });

  test('settings: an admin changes name, description, public counts, the count to hide below, one vote per visitor, the review limits, automatic items, revoke window and state', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, account.admin, `/sets/${ids.pulse}/settings`);
    await page.getByRole('heading', { level: 1, name: 'Love button' }).waitFor();
    await checkPage(page, 'settings');
    await page.getByLabel('Name', { exact: true }).fill('Love it');
    await page.getByLabel('Description').fill('The heart under each post');
    await page.getByLabel(/Public counts/).check();
    // A pulse set counts one vote per visitor by default.
    expect(await page.getByLabel(/One vote per visitor/).isChecked()).toBe(true);
    await page.getByLabel(/One vote per visitor/).uncheck();
    await page.getByLabel('Hide public counts below (responses)').fill('3');
    await page.getByLabel(/Create content items automatically/).uncheck();
    await page.getByLabel('Revoke window (minutes)').fill('10');
    await page.getByLabel('Responses one visitor may give on a page within a minute').fill('8');
    await page.getByLabel('Browsers one address may answer with on a page each day').fill('40');
    await page.getByLabel(/Hold messages that look like spam/).uncheck();
    await page.getByLabel('State').selectOption('inactive');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();
    const saved = await call('sets/get', [ids.pulse]);
    expect([saved.name, saved.metadata, saved.state]).toEqual([
      'Love it',
      {
        description: 'The heart under each post',
        publicAggregates: true,
        disallowAutoContentCreation: true,
        revokeWindow: 600,
        alerts: { enabled: false, minResponses: 20 },
        onePerVisitor: false,
        publicMinCount: 3,
        quarantine: { visitorBurst: 8, addressLimit: 40, surgeFactor: 20, surgeFloor: 600, spamCheck: false },
      },
      'inactive',
    ]);
    await context.close();
  });

  test('loading, empty and error states: never a blank page', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, account.admin, `/projects/${ids.emptyProject}`);
    await page.getByText('No content sets yet').waitFor();
    await page.goto(`${base}/sets/${ids.quiet}`);
    await page.getByText('No feedback yet').first().waitFor();
    expect(await page.getByRole('link', { name: 'Embed a widget' }).first().getAttribute('href')).toBe(`/sets/${ids.quiet}/embed`);
    await checkPage(page, 'set-empty');
    const missing = await api.call('sets/get', ['no-such-set'], { key: account.admin });
    await page.goto(`${base}/sets/no-such-set`);
    await expect(page.getByRole('alert').innerText()).resolves.toContain(missing.body.message);
    await checkPage(page, 'set-not-found');
    await page.goto(`${base}/no/such/page`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await context.close();
  });

  test('keyboard only: sign in, skip to content, open a project', async () => {
    const { context, page } = await pages.newPage();
    await page.goto(`${base}/projects`);
    // React renders after the load event goto waits for: a Tab before that focuses nothing.
    await page.getByLabel('API key').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('api-key');
    await page.keyboard.type(account.viewer);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    for (let step = 0; step < 10; step++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Docs site') break;
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Docs site' }).waitFor();
    await context.close();
  });

  test('usable at 360 px wide and in the dark: no sideways scrolling, OS colour scheme followed, 28 days of chart bars readable (and as before when widened)', async () => {
    const { context, page } = await pages.newPage({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
    await signIn(page, account.admin);
    for (const [name, path] of [
      ['narrow-projects', '/projects'],
      ['narrow-project', `/projects/${ids.project}`],
      ['narrow-set', `/sets/${ids.yesNo}`],
      ['narrow-responses', `/sets/${ids.tagged}/responses`],
      ['narrow-embed', `/sets/${ids.reaction}/embed`],
    ]) {
      await page.goto(`${base}${path}`);
      await page.locator('h1').waitFor();
      await checkPage(page, name);
      expect({ name, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ name, width: 360 });
    }
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(15, 17, 21)');

    // 28 days of bars on a phone: each apart from the next but filling its slot, labels clear of
    // each other; widened to a desktop's (the chart follows), bars keep to 70% of their slot.
    await page.goto(`${base}/sets/${ids.everyDay}`);
    // 28 unless the day changed since the answers were written.
    const days = (await dataTable(page)).rows.filter((row) => row[1] === '1').length;
    expect(days).toBeGreaterThanOrEqual(27);
    const chart = page.locator('.period-chart').first();
    const narrow = await chartGeometry(page, 28);
    await chart.screenshot({ path: join(SCREENSHOT_DIR, 'narrow-chart-28-days.png') });
    expect(narrow.bars).toHaveLength(days);
    // A 2 px gap, and up to a pixel at each edge that is not fully opaque.
    for (const bar of narrow.bars) expect(bar).toBeGreaterThanOrEqual(narrow.slot - 3.5);
    expect(narrow.tickSpacing).toBeGreaterThanOrEqual(50);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForFunction(
      (narrowWidth) => document.querySelector('.chart-canvas .u-over')!.getBoundingClientRect().width > 2 * narrowWidth,
      narrow.slot * 28,
    );
    const wide = await chartGeometry(page, 28);
    await chart.screenshot({ path: join(SCREENSHOT_DIR, 'chart-28-days.png') });
    expect(wide.bars).toHaveLength(days);
    for (const bar of wide.bars) expect(bar / wide.slot).toBeGreaterThanOrEqual(0.6);
    for (const bar of wide.bars) expect(bar / wide.slot).toBeLessThanOrEqual(0.75);
    expect(wide.tickSpacing).toBeGreaterThanOrEqual(50);
    await context.close();
  });

  test('budgets: initial JavaScript <= 250 KB gzip; render time of a set page with a year of data (measured and reported)', async () => {
    // A year of data: one response a day for 365 days, written with their past dates.
    const { store } = defaultStore();
    const yearSet = (await call('sets/create', [{ projectId: ids.project, key: 'year', schema: 'yes-no', metadata: { name: 'A year of answers' } }])).id;
    const now = Date.now();
    for (let week = 0; week < 365; week += 7) {
      const days = Array.from({ length: Math.min(7, 365 - week) }, (_, offset) => week + offset);
      await Promise.all(
        days.map((day) =>
          createResponse(
            store,
            ANONYMOUS,
            { contentSetId: yearSet, key: `https://docs.example.com/page-${day % 12}`, value: day % 4 === 0 ? 'n' : 'y' },
            { headers: {} },
            new Date(now - day * 86_400_000),
          ),
        ),
      );
    }
    await api.drainStream();

    const expected = await call('sets/getStats', [yearSet, { period: 'rolling12m' }], account.viewer);
    const { context, page } = await pages.newPage();
    const scripts: Promise<number>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'script')
        scripts.push(
          request.sizes().then(
            (sizes) => sizes.responseBodySize,
            () => 0,
          ),
        );
    });
    await page.goto(`${base}/projects`);
    await page.getByLabel('API key').waitFor();
    await page.waitForLoadState('networkidle');
    const initialTransfer = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0);
    // Bytes do not depend on the machine: this budget is held.
    expect(build.initialScriptGzipBytes).toBeLessThanOrEqual(250_000);
    expect(initialTransfer).toBeLessThanOrEqual(250_000);
    await page.getByLabel('API key').fill(account.viewer);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();

    // A full page load (HTML, scripts, API calls, chart) until the year's numbers show. Loaded
    // once: the figure is reported, not asserted, and repeating loads for a best-of figure is a
    // bench's work, not the suite's (issue 42).
    const started = Date.now();
    await page.goto(`${base}/sets/${yearSet}?period=rolling12m`);
    await page.getByTestId('summary').getByText(`${expected.data.counts[0]} yes, ${expected.data.counts[1]} no`).waitFor();
    await page.locator('table.distribution').waitFor();
    await page.locator('.chart-canvas canvas').waitFor();
    const loadMs = Date.now() - started;
    await screenshot(page, 'set-year');
    const load = `load average ${os
      .loadavg()
      .map((average) => average.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores`;
    process.stdout.write(
      `\nBUDGETS initial JS: ${build.initialScriptGzipBytes} B gzip built (${build.initialScripts.length} files), ${initialTransfer} B transferred gzip; ` +
        `set page with a year of data (rolling12m, ${expected.count} of 365 daily responses): ${loadMs} ms (${load})\n`,
    );
    // The budget is 1 s. Time depends on the machine (shared, 2 cores, other suites running), so
    // it is measured and reported, not asserted; a miss is reported with the load it was measured under.
    if (loadMs >= 1000) process.stdout.write(`NOTICE: set page render budget (1000 ms) missed: ${loadMs} ms with ${load}\n`);
    await context.close();
  }, 400_000);
});
