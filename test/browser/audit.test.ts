/**
 * The console's audit log in headless Chromium against the local server: a change made in
 * the console (a new API key) shows as the newest entry, one line, its target and actor by
 * their labels (ids on hover); the filters (person or key, operation, outcome, days) narrow
 * the list; "Load more" reads on by cursor; the exports write what the filters select; a
 * curation of themes names its set, its record in words and its theme, linked to the set;
 * viewers get no link to it.
 */
import type { Browser, Page } from 'playwright-core';
import type { ConsoleBuild } from '../../console/build';
import { readFileSync } from 'node:fs';
import { issueApiKey } from '../../functions/operations/api-keys';
import { createProject } from '../../functions/operations/projects';
import { runThemes } from '../../functions/jobs/themes';
import { defaultStore } from '../../functions/store/entity-store';
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
  /** The admin key labelled "console admin", which signs in to the console. */
  let adminKey: string;
  const signIn = (page: Page, path: string, key = adminKey) => signInAt(page, `${base}${path}`, key);

  beforeAll(async () => {
    build = await buildTestConsole();
    api = await startTestApi({ consoleDir: build.outdir });
    base = api.baseUrl.replace(/\/v0$/, '');
    account = await createAccount('console-audit');
    // Labelled keys: the log names who by the key's label.
    const { store } = defaultStore();
    const labelled = async (label: string) => (await issueApiKey(store, { accountId: account.accountId, level: 'admin', label }, new Date())).key;
    adminKey = await labelled('console admin');
    const second = await labelled('second admin');
    // 51 earlier changes: more than the page's 50, so "Load more" has something to read.
    const projectIds: string[] = [];
    for (let index = 0; index < 51; index++) {
      const answer = await api.call('projects/create', [{ name: `Audited ${index}` }], { key: adminKey });
      expect(answer.status).toBe(200);
      projectIds.push(answer.body.id);
    }
    // One change by the second key, and one refused call (a viewer may not create).
    expect((await api.call('projects/save', [projectIds[0], { description: 'by the second key' }], { key: second })).status).toBe(200);
    expect((await api.call('projects/create', [{ name: 'Refused' }], { key: account.viewer })).status).toBe(403);
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
    // Who and what by name: the key signed in with by its label, the new key by its label, linked; the ids on hover.
    const newest = rows.first();
    await newest.getByRole('link', { name: 'audited key' }).waitFor();
    expect(await newest.innerText()).toContain('keys/create');
    expect(await newest.innerText()).toContain('console admin (key)');
    expect(await newest.innerText()).toContain('127.0.0.1');
    expect(await newest.innerText()).toContain('ok');
    expect(await newest.getByRole('link', { name: 'audited key' }).getAttribute('title')).toBe(`key ${keyId}`);
    // A compact date, the whole date and time on hover.
    const when = newest.locator('time');
    expect(await when.innerText()).toMatch(/^\d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2}$/);
    expect(await when.getAttribute('title')).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    // The projects made through the API are named by their names, linked to them.
    await page.getByRole('link', { name: 'Audited 50' }).first().waitFor();
    // Never the key itself.
    expect(await page.locator('table').innerText()).not.toContain(key);
    expect(await rows.count()).toBe(50);
    // One line per entry at 1280 px, every column in view: no row taller than a line, nothing scrolls sideways.
    const heights = await rows.evaluateAll((all) => all.map((row) => row.getBoundingClientRect().height));
    expect(Math.max(...heights)).toBeLessThan(48);
    expect(await page.locator('.list-table-box').evaluate((box) => box.scrollWidth <= box.clientWidth + 1)).toBe(true);
    // The date filters are empty, and say so: no sample date that reads like a filter already set.
    for (const label of ['From', 'To']) {
      expect(await page.getByLabel(label).inputValue()).toBe('');
      expect(await page.getByLabel(label).getAttribute('placeholder')).toBe('any day');
    }
    await checkPage(page, 'audit');

    await page.getByRole('button', { name: 'Load more' }).click();
    await until(async () => (await rows.count()) === 54, 15_000, '54 rows');

    // The operation from a list.
    await page.getByLabel('Operation').selectOption('keys/create');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(async () => (await rows.count()) === 1, 15_000, 'one keys/create row');
    // A person or key from the account's members and keys: the other admin key made none of these.
    await page.getByLabel('Operation').selectOption('');
    await page.getByLabel('Person or key').selectOption({ label: 'second admin' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(async () => (await rows.count()) === 1 && (await rows.first().innerText()).includes('projects/save'), 15_000, "the second key's one entry");
    // The outcome: refused calls only.
    await page.getByLabel('Person or key').selectOption('');
    await page.getByLabel('Outcome').selectOption('refused');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(async () => (await rows.count()) === 1 && (await rows.first().innerText()).includes('forbidden'), 15_000, 'the refused call');

    // Export what the filters select, as CSV and as NDJSON.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csvText = readFileSync((await csv.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csvText[0]).toBe('id,at,actorType,keyId,label,memberId,email,operation,targetIds,sourceIp,outcome,requestId,count,counts');
    expect(csvText).toHaveLength(2);
    expect(csvText[1]).toContain('forbidden');
    await page.getByLabel('Outcome').selectOption('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // The unfiltered list again, as loaded before (both pages, from the cache).
    await until(async () => (await rows.count()) === 54, 15_000, 'every entry again');
    const [ndjson] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export NDJSON' }).click()]);
    const lines = readFileSync((await ndjson.path())!, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(54);
    expect(lines.map((line) => line.operation).slice(0, 3)).toEqual(['keys/create', 'projects/create', 'projects/save']);

    const tomorrow = new Date(Date.now() + 2 * 24 * 3600 * 1000);
    await page.getByLabel('From').fill(tomorrow.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No entries match these filters.').waitFor();
    await context.close();
  });

  test("the filter by target: a row's target shows only the entries about it, and the form names it", async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, '/audit');
    const rows = page.locator('tr[data-entry]');
    await rows.first().waitFor();
    // "Audited 0" was created, then saved by the second key: its row's "only" shows both, and nothing else.
    const project = (await api.call('projects/lookup', ['Audited 0'], { key: adminKey })).body.find((found: { name: string }) => found.name === 'Audited 0');
    await page.getByRole('button', { name: 'Load more' }).click();
    const only = page.getByRole('button', { name: 'Only entries about project Audited 0' }).first();
    await only.focus();
    await page.keyboard.press('Enter');
    await until(async () => (await rows.count()) === 2, 15_000, 'the two entries about the project');
    expect(await rows.allInnerTexts()).toEqual([expect.stringContaining('projects/save'), expect.stringContaining('projects/create')]);
    expect(await page.getByTestId('audit-about').innerText()).toBe('Only entries about project Audited 0. Show every target');
    expect(await page.getByLabel('Target id').inputValue()).toBe(project.id);
    await checkPage(page, 'audit-by-target');
    // Typed into the form, the same; and cleared, every entry again.
    await page.getByRole('button', { name: 'Show every target' }).click();
    await until(async () => (await rows.count()) >= 50, 15_000, 'every entry again');
    await page.getByLabel('Target id').fill(project.id);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(async () => (await rows.count()) === 2, 15_000, 'the two entries again');
    await context.close();
  });

  test('names stored before the rule of names show their hidden characters as code points, unchanged in the table', async () => {
    // Written past the API's rule, as names stored before it were.
    const { store } = defaultStore();
    const spoofed = await createProject(store, account.accountId, { name: 'Acme\u202Eevil' }, new Date());
    await store.entities.Account.patch({ id: account.accountId }).set({ displayName: 'Docs\u200B team' }).go();
    const { context, page } = await pages.newPage();
    await signIn(page, '/projects');
    const row = page.locator('tr', { hasText: 'Acme' });
    expect(await row.first().innerText()).toContain('Acme⟦U+202E⟧evil');
    await page.goto(`${base}/members`);
    expect(await page.getByTestId('account-name').innerText()).toBe('Docs⟦U+200B⟧ team');
    await page.goto(`${base}/projects/${spoofed.id}`);
    await page.getByRole('heading', { level: 1, name: 'Acme⟦U+202E⟧evil' }).waitFor();
    await checkPage(page, 'names-stored-before-the-rule');
    // The table keeps what was stored.
    expect((await api.call('projects/get', [spoofed.id], { key: adminKey })).body.name).toBe('Acme\u202Eevil');
    await context.close();
  });

  test('a curation of themes: its set, the record in words and its theme named and linked to the Why panel, the message it moved', async () => {
    const ok = async (path: string, args: unknown[], key: string | undefined = adminKey) => {
      const answer = await api.call(path, args, key ? { key } : {});
      expect(answer.status).toBe(200);
      return answer.body;
    };
    const projectId = (await ok('projects/create', [{ name: 'Curated shop' }])).id;
    const setId = (await ok('sets/create', [{ projectId, key: 'feedback', schema: 'message', metadata: { name: 'Shop feedback' } }])).id;
    // Ten messages, enough for the themes job's first discovery.
    const gifts = [
      'gift card',
      'giftcard',
      'gift voucher',
      'the gift card',
      'my gift card',
      'gift card code',
      'voucher',
      'gift cards',
      'a gift card',
      'card gift',
    ];
    const imported = gifts.map((text, index) => ({
      importId: `gift-${index}`,
      key: '/gift-cards',
      value: `${text} refused at checkout`,
      createdAt: new Date(Date.now() - (index + 1) * 60_000).toISOString(),
    }));
    await ok('responses/import', [setId, imported]);
    const messageId = (await ok('responses/list', [{ contentSetId: setId, $size: 1 }])).items[0].id;
    const pinned = await ok('sets/curateThemes', [setId, { kind: 'pin', label: 'Gift cards', phrases: ['gift card'] }]);
    // The themes job knows the pinned theme from its next run; then it can be renamed and given messages.
    await api.drainStream({ rank: false });
    await runThemes(defaultStore().store, new Date());
    await ok('sets/curateThemes', [setId, { kind: 'rename', themeId: pinned.themeId, label: 'Gift card codes' }]);
    const moved = await ok('sets/curateThemes', [setId, { kind: 'move', messageId, themeId: pinned.themeId }]);

    const { context, page } = await pages.newPage();
    await signIn(page, '/audit');
    const rows = page.locator('tr[data-entry]');
    await rows.first().waitFor();
    const targets = (index: number) => rows.nth(index).locator('.audit-target').allInnerTexts();
    // Newest first: each names the set, its record in words with the labels of its time, and the theme by its latest label.
    await rows.nth(2).getByText('Pinned “Gift cards” (“gift card”)').waitFor();
    expect(await rows.nth(0).locator('code').innerText()).toBe('sets/curateThemes');
    expect(await targets(0)).toEqual(['Shop feedback', 'Moved a message to “Gift card codes”', '“Gift card codes”', `response ${messageId.slice(0, 6)}…`]);
    expect(await targets(1)).toEqual(['Shop feedback', 'Renamed “Gift cards” to “Gift card codes”', '“Gift card codes”']);
    expect(await targets(2)).toEqual(['Shop feedback', 'Pinned “Gift cards” (“gift card”)', '“Gift card codes”']);
    // Linked to the set's Why panel, with the kind and id on hover.
    const newest = rows.first();
    const record = newest.getByRole('link', { name: 'Moved a message to “Gift card codes”' });
    expect(await record.getAttribute('href')).toBe(`/sets/${setId}`);
    expect(await record.getAttribute('title')).toBe(`curation ${moved.id}`);
    expect(await newest.getByRole('link', { name: '“Gift card codes”', exact: true }).getAttribute('title')).toBe(`theme ${pinned.themeId}`);
    expect(await newest.locator('.audit-target', { hasText: 'response' }).getAttribute('title')).toBe(`response ${messageId}`);
    await checkPage(page, 'audit-curations');
    // "only" on the theme: the three curations about it.
    await newest.getByRole('button', { name: 'Only entries about theme “Gift card codes”' }).click();
    await until(async () => (await rows.count()) === 3, 15_000, 'the three entries about the theme');
    expect(await page.getByTestId('audit-about').innerText()).toBe('Only entries about theme “Gift card codes”. Show every target');
    await context.close();

    const phone = await pages.newPage({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
    await signIn(phone.page, '/audit');
    await phone.page.getByRole('link', { name: 'Moved a message to “Gift card codes”' }).waitFor();
    await checkPage(phone.page, 'narrow-audit-curations');
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
    await phone.context.close();
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
