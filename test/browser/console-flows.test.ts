/**
 * Console flows over the data-rights and account operations: responses/export (CSV and
 * NDJSON downloads), a person's responses (responses/list userId) and their erasure
 * (responses/erase), API keys (keys/*), and webhooks (webhooks/*, delivering to a receiver
 * on this machine, whose requests are checked against the secret the console showed).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import type { ConsoleBuild } from '../../console/build';
import { DEFAULT_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '../../functions/domain/webhooks';
import { LocalWebhookSweeper } from '../../local/webhook-sweeper';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, screenshot, signInAt, tearDownConsoleSuite } from '../support/browser';
import { startReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);
// The receiver is on 127.0.0.1 over plain HTTP, which the service refuses otherwise (functions/webhooks/targets.ts).
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

describeInBrowser("console in Chromium: exports, a person's data, API keys, webhooks", () => {
  let build: ConsoleBuild;
  let api: TestApi;
  let account: AccountKeys;
  let browser: Browser;
  let base: string;
  let projectId: string;
  let setId: string;
  const responseIds: string[] = [];

  async function call<T = any>(path: string, args: unknown[], key: string | undefined = account.admin): Promise<{ status: number; body: T }> {
    return api.call<T>(path, args, { key });
  }

  const pages = pageOpener(() => browser);
  const signIn = (page: Page, path: string) => signInAt(page, `${base}${path}`, account.admin);

  /** The webhooks list's row of a webhook, as { column heading: cell text }. */
  async function webhookRow(page: Page, name: string): Promise<Record<string, string>> {
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.waitFor();
    const headings = await page.locator('table thead th').allTextContents();
    const cells = await row.locator('th, td').allInnerTexts();
    return Object.fromEntries(headings.map((heading, index) => [heading.trim(), cells[index].trim()]));
  }

  beforeAll(async () => {
    build = await buildTestConsole();
    api = await startTestApi({ consoleDir: build.outdir });
    base = api.baseUrl.replace(/\/v0$/, '');
    account = await createAccount('console-flows');
    projectId = (await call('projects/create', [{ name: 'Exports' }])).body.id;
    setId = (await call('sets/create', [{ projectId, key: 'feedback', schema: 'tagged-message', metadata: { name: 'Feedback' } }])).body.id;
    for (const [index, user] of ['bob@example.com', 'bob@example.com', 'carol@example.com', 'bob@example.com'].entries()) {
      const created = await call(
        'responses/create',
        [
          {
            contentSetId: setId,
            key: `https://example.com/${index}`,
            value: { tag: 'idea', message: `Idea "${index}", with a comma` },
            context: { $user: user },
          },
        ],
        undefined,
      );
      responseIds.push(created.body.responseId);
    }
    await api.drainStream();
    browser = await launchBrowser();
  });

  tearDownConsoleSuite(pages, () => ({ browser, api, build }));

  test('Export CSV and Export NDJSON download the filtered responses through responses/export', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, `/sets/${setId}/responses`);
    await page.locator('[data-response]').first().waitFor();
    // The chunks' answers are held back (the data is the server's own) until the progress was
    // seen, as a large export is slow: the progress shows while the chunks arrive.
    let progressSeen = () => {};
    const held = new Promise<void>((release) => {
      progressSeen = release;
    });
    await page.route('**/v0/responses/export', async (route) => {
      const answer = await route.fetch();
      await held;
      await route.fulfill({ response: answer });
    });
    const csvDownloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page
      .getByRole('status')
      .getByText(/Exporting CSV: \d+ rows so far/)
      .waitFor();
    expect(await page.getByRole('progressbar', { name: 'Export progress' }).count()).toBe(1);
    await screenshot(page, 'responses-exporting');
    progressSeen();
    const csvDownload = await csvDownloaded;
    await page.unroute('**/v0/responses/export');
    // The file as a spreadsheet reads it: a header row, then one record per response.
    const records: Record<string, string>[] = parse(readFileSync((await csvDownload.path())!, 'utf8'), { columns: true });
    expect(records.map((record) => record.responseId).sort()).toEqual([...responseIds].sort());
    expect(records.map((record) => [record.tag, record.message, record.userId]).sort()).toEqual([
      ['idea', 'Idea "0", with a comma', 'bob@example.com'],
      ['idea', 'Idea "1", with a comma', 'bob@example.com'],
      ['idea', 'Idea "2", with a comma', 'carol@example.com'],
      ['idea', 'Idea "3", with a comma', 'bob@example.com'],
    ]);
    await page.getByRole('status').getByText(`Exported ${responseIds.length} responses as CSV.`).waitFor();

    const [ndjsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export NDJSON' }).click()]);
    const lines = readFileSync((await ndjsonDownload.path())!, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.id).sort()).toEqual([...responseIds].sort());
    await checkPage(page, 'responses-exported');
    await context.close();
  });

  test("a person's responses, and their erasure after a confirmation naming how many go", async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, `/respondents/${encodeURIComponent('bob@example.com')}`);
    await page.getByRole('heading', { level: 1, name: 'bob@example.com' }).waitFor();
    await page.locator('[data-response]').nth(2).waitFor();
    expect(await page.locator('[data-response]').count()).toBe(3);
    await checkPage(page, 'person');
    await page.getByRole('button', { name: 'Erase this person’s data' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('This deletes 3 responses of bob@example.com for good').waitFor();
    await checkPage(page, 'person-erase-dialog');
    await dialog.getByRole('button', { name: 'Erase 3 responses' }).click();
    await page.getByText('Erased 3 responses of bob@example.com.').waitFor();
    const left = await call('responses/list', [{ userId: 'bob@example.com', state: 'all' }]);
    expect(left.body.items).toEqual([]);
    const carol = await call('responses/list', [{ userId: 'carol@example.com' }]);
    expect(carol.body.items).toHaveLength(1);
    await context.close();
  });

  test('API keys: create (shown once, copyable), list, revoke', async () => {
    const { context, page } = await pages.newPage();
    await signIn(page, '/keys');
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByRole('button', { name: 'New API key' }).click();
    await page.getByLabel('Level').selectOption('viewer');
    await page.getByLabel('Label (optional)').fill('weekly report');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-key').inputValue();
    expect(key).toMatch(/^fbk_/);
    expect(await page.getByRole('button', { name: 'Copy the API key' }).count()).toBe(1);
    await checkPage(page, 'key-created');
    expect((await call('projects/lookup', [''], key)).status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.locator('tr', { hasText: 'weekly report' });
    await row.waitFor();
    expect(await row.innerText()).not.toContain(key);
    await checkPage(page, 'keys');
    await row.getByRole('button', { name: /Revoke/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText(/revoked/).waitFor();
    expect((await call('projects/lookup', [''], key)).status).toBe(401);
    await context.close();
  });

  test('webhooks: create (secret shown once), test, delivery log with status and attempts, redeliver, edit, disable and enable; the list shows the project of each, and "All events" exactly when every type is chosen; a refused removal shows the API’s message', async () => {
    const receiver = await startReceiver();
    // As under `npm start` (local/runtime.ts): the sweeper sends redeliveries.
    const sweeper = new LocalWebhookSweeper({ store: defaultStore().store, intervalMs: 200 });
    sweeper.start();
    try {
      const { context, page } = await pages.newPage();
      await signIn(page, '/webhooks');
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await page.getByText('No webhooks yet').waitFor();
      await page.getByRole('button', { name: 'New webhook' }).click();
      // The form offers the API's event catalogue, its default types chosen at first (response.quarantined is asked for).
      const events = page.getByRole('group', { name: 'Events' });
      expect(await events.locator('code').allInnerTexts()).toEqual([...WEBHOOK_EVENT_TYPES]);
      expect(await events.getByRole('checkbox', { checked: true }).count()).toBe(DEFAULT_WEBHOOK_EVENT_TYPES.length);
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByLabel('Description (optional)').fill('Team inbox');
      await page.getByLabel('Project').selectOption({ label: 'Exports' });
      await page.getByRole('button', { name: 'Create webhook' }).click();
      const secret = await page.getByTestId('webhook-secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      expect(await page.getByRole('button', { name: 'Copy the signing secret' }).count()).toBe(1);
      await checkPage(page, 'webhook-created');
      await page.getByRole('button', { name: 'Done' }).click();
      await page
        .getByRole('row', { name: /Team inbox/ })
        .getByText('enabled')
        .waitFor();
      // The project's name comes with its own read.
      const projectLink = page.getByRole('row', { name: /Team inbox/ }).getByRole('link', { name: 'Exports' });
      await projectLink.waitFor();
      expect(await projectLink.getAttribute('href')).toBe(`/projects/${projectId}`);
      expect(await webhookRow(page, 'Team inbox')).toMatchObject({ Project: 'Exports', Events: 'All events' });
      await checkPage(page, 'webhooks');
      await page.getByRole('link', { name: 'Team inbox' }).click();
      await page.getByRole('heading', { level: 1, name: 'Team inbox' }).waitFor();
      // Shown once: nowhere on the webhook's page.
      expect(await page.getByTestId('webhook-secret').count()).toBe(0);

      await page.getByRole('button', { name: 'Send test' }).click();
      await page
        .getByTestId('test-result')
        .getByText(/Test succeeded with HTTP 200/)
        .waitFor();
      const [tested] = await receiver.waitFor(1);
      // Signed with the secret the console showed (Standard Webhooks).
      expect(new Webhook(secret).verify(tested.body, tested.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
      const delivery = page.getByTestId('deliveries').locator('tbody tr').first();
      await delivery.getByText('webhook.test').waitFor();
      await delivery.getByText('succeeded').waitFor();
      expect(await delivery.locator('td.number').innerText()).toBe('1');
      expect(await delivery.innerText()).toContain('HTTP 200');
      await checkPage(page, 'webhook');

      await delivery.getByRole('button', { name: 'Redeliver' }).click();
      const [, again] = await receiver.waitFor(2);
      expect(new Webhook(secret).verify(again.body, again.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
      // The log follows the sweeper's second attempt (pending, then succeeded, 2 attempts).
      await delivery.locator('td.number', { hasText: '2' }).waitFor({ timeout: 30_000 });
      await delivery.getByText('succeeded').waitFor();
      // The status filter: none failed, said in words; then back to every delivery.
      await page.getByLabel('Status').selectOption('failed');
      await page.getByText('No failed deliveries.').waitFor();
      expect(await page.getByTestId('deliveries').count()).toBe(0);
      await page.getByLabel('Status').selectOption('succeeded');
      await delivery.getByText('succeeded').waitFor();

      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Description (optional)').fill('Support inbox');
      await page.getByLabel('Project').selectOption({ label: 'All projects' });
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { level: 1, name: 'Support inbox' }).waitFor();
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('button', { name: 'Enable' }).waitFor();
      let listed = await call('webhooks/list', []);
      expect(listed.body.items.map((webhook: any) => [webhook.description, webhook.projectId, webhook.enabled])).toEqual([['Support inbox', undefined, false]]);
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.getByRole('button', { name: 'Disable' }).waitFor();
      listed = await call('webhooks/list', []);
      expect(listed.body.items[0].enabled).toBe(true);

      // "All events" exactly when every type of the catalogue is chosen.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      expect(await webhookRow(page, 'Support inbox')).toMatchObject({ Project: 'All projects', Events: 'All events' });
      await page.getByRole('button', { name: 'New webhook' }).click();
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByLabel('Description (optional)').fill('Responses only');
      await page.getByRole('checkbox', { name: /content\.created/ }).uncheck();
      await page.getByRole('button', { name: 'Create webhook' }).click();
      await page.getByRole('button', { name: 'Done' }).click();
      const responseEvents = DEFAULT_WEBHOOK_EVENT_TYPES.filter((type) => type !== 'content.created');
      expect(await webhookRow(page, 'Responses only')).toMatchObject({ Project: 'All projects', Events: responseEvents.join(', ') });
      await page.setViewportSize({ width: 360, height: 740 });
      await checkPage(page, 'narrow-webhooks');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole('link', { name: 'Responses only' }).click();
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('checkbox', { name: /content\.created/ }).check();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      // The list shows what it had until its new read arrives.
      await page
        .getByRole('row', { name: /Responses only/ })
        .getByRole('cell', { name: 'All events' })
        .waitFor();
      expect(await webhookRow(page, 'Responses only')).toMatchObject({ Project: 'All projects', Events: 'All events' });

      // A refused removal: the confirmation shows the API's message and stays open.
      await page.getByRole('link', { name: 'Responses only' }).click();
      await page.getByRole('button', { name: 'Remove', exact: true }).click();
      const refusal = await call('webhooks/remove', ['no-such-webhook']);
      expect(refusal.status).toBe(404);
      await page.route(
        '**/v0/webhooks/remove',
        (route) => route.fulfill({ status: refusal.status, contentType: 'application/json', body: JSON.stringify(refusal.body) }),
        { times: 1 },
      );
      const confirmation = page.getByRole('dialog');
      await confirmation.getByRole('button', { name: 'Remove webhook' }).click();
      await expect(confirmation.getByRole('alert').innerText()).resolves.toBe(refusal.body.message);
      await context.close();
    } finally {
      await sweeper.stop();
      await receiver.close();
    }
  });
});
