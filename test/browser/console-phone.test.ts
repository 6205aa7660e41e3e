/**
 * The console's tables on a phone (360 px) and on a desktop, in headless Chromium against the
 * local server, with data made through the API: on every page with a table (projects, a
 * project's content sets, API keys, webhooks, a webhook's deliveries, members and their
 * pending invitations, the audit log) nothing
 * inside a table scrolls sideways, every cell and every button of a table is inside the
 * screen, and the project's 7-day counts and sparklines show; at desktop width the same
 * tables keep their column headers. Screenshots go to .tmp/screenshots/ (phone-*, desktop-*).
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { ConsoleBuild } from '../../console/build';
import { createAccount, startTestApi, type AccountKeys, type TestApi, succeeded } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, signInAt } from '../support/browser';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { acceptInvitation, createInvitation } from '../../functions/operations/members';
import { defaultStore } from '../../functions/store/entity-store';

jest.setTimeout(180_000);
// The receiver is on 127.0.0.1 over plain HTTP, which the service refuses otherwise (functions/webhooks/targets.ts).
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

/** What a table's layout leaves out of sight: every number is 0 when everything shows. */
interface TableFit {
  tables: number;
  rows: number;
  /** Boxes in or around a table whose content is wider than the box (they scroll, or clip, sideways). */
  scrollingSideways: string[];
  /** Cells and buttons of a table not wholly between the screen's left and right edges. */
  offScreen: string[];
  /** Whether the column headers are shown above the rows (a table layout) rather than each cell naming its column. */
  headersShown: boolean;
}

async function tableFit(page: Page): Promise<TableFit> {
  return page.evaluate(() => {
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
    const tables = [...document.querySelectorAll('table.list-table')];
    const scrollingSideways: string[] = [];
    const offScreen: string[] = [];
    for (const table of tables) {
      const box = table.parentElement!;
      for (const element of [box, table, ...table.querySelectorAll('*')]) {
        // Boxes of 1 px are the visually hidden caption and headers, read by screen readers only.
        // A cell cut short with an ellipsis (the audit log's targets, whole on hover) does not scroll.
        const style = getComputedStyle(element);
        const ellipsis = style.textOverflow === 'ellipsis' && style.overflowX === 'hidden';
        if (!ellipsis && element.clientWidth > 1 && element.scrollWidth > element.clientWidth + 1) scrollingSideways.push(describe(element));
      }
      for (const element of table.querySelectorAll('tbody th, tbody td, button, a, select, canvas, [data-testid="seven-day-count"]')) {
        const rect = element.getBoundingClientRect();
        if (rect.width === 0 && rect.height === 0) continue;
        if (rect.left < -0.5 || rect.right > window.innerWidth + 0.5)
          offScreen.push(`${describe(element)} at ${Math.round(rect.left)}..${Math.round(rect.right)}`);
      }
    }
    const head = document.querySelector('table.list-table thead');
    return {
      tables: tables.length,
      rows: document.querySelectorAll('table.list-table tbody tr').length,
      scrollingSideways,
      offScreen,
      headersShown: head !== null && head.getBoundingClientRect().width > 1,
    };
  });
}

describeInBrowser('console in Chromium: tables on a phone and on a desktop', () => {
  let build: ConsoleBuild;
  let api: TestApi;
  let account: AccountKeys;
  let browser: Browser;
  let base: string;
  let receiver: Receiver;
  const ids: Record<string, string> = {};

  const call = <T = any>(path: string, args: unknown[], key: string | undefined = account.admin) => succeeded<T>(api, path, args, key);

  const pages = pageOpener(() => browser);

  /** Every page with a table, with a row each table must show. */
  const tablePages = () => [
    { name: 'projects', path: '/projects', row: 'tr[data-project="Documentation site of the product"]' },
    { name: 'project', path: `/projects/${ids.project}`, row: 'tr[data-set="Was this page helpful"] [role="img"]' },
    { name: 'keys', path: '/keys', row: 'tr:has-text("Deploy pipeline of the marketing site")' },
    { name: 'webhooks', path: '/webhooks', row: 'tr:has-text("Team inbox for every response")' },
    { name: 'webhook', path: `/webhooks/${ids.webhook}`, row: '[data-testid="deliveries"] tbody tr:has-text("succeeded")' },
    { name: 'members', path: '/members', row: 'tr[data-member]:has-text("Margaret Hamilton")' },
    { name: 'audit', path: '/audit', row: 'tr[data-entry]' },
    { name: 'review', path: `/projects/${ids.project}/review`, row: 'tr[data-group]' },
  ];

  beforeAll(async () => {
    build = await buildTestConsole();
    api = await startTestApi({ consoleDir: build.outdir });
    base = api.baseUrl.replace(/\/v0$/, '');
    receiver = await startReceiver();
    account = await createAccount('console-phone');
    // Long names and many columns: what pushed columns off a phone's screen.
    ids.project = (await call('projects/create', [{ name: 'Documentation site of the product', description: 'docs.example.com' }])).id;
    ids.yesNo = (
      await call('sets/create', [{ projectId: ids.project, key: 'helpful-page-question', schema: 'yes-no', metadata: { name: 'Was this page helpful' } }])
    ).id;
    const form = (await call('sets/create', [{ projectId: ids.project, key: 'feedback-form', schema: 'tagged-message', metadata: { name: 'Feedback form' } }]))
      .id;
    // Two spam messages, held for review (the Review page's table).
    for (const message of ['Best casino bonus, sign up today', 'Cheap SEO services for your site today']) {
      await call('responses/create', [{ contentSetId: form, key: 'https://docs.example.com/intro', value: { tag: 'idea', message } }], undefined);
    }
    for (const value of ['y', 'y', 'n']) await call('responses/create', [{ contentSetId: ids.yesNo, key: 'https://docs.example.com/intro', value }], undefined);
    await call('keys/create', [{ level: 'viewer', label: 'Deploy pipeline of the marketing site' }]);
    ids.webhook = (await call('webhooks/create', [{ url: receiver.url, description: 'Team inbox for every response', projectId: ids.project }])).id;
    await call('webhooks/test', [ids.webhook]);
    // A member with a long name and address, and a pending invitation: the Members page's two tables.
    const { store } = defaultStore();
    const now = new Date();
    const inviter = { type: 'operator' as const, name: 'test' };
    const email = 'margaret.hamilton@apollo-guidance.example.com';
    const invitation = await createInvitation(store, { accountId: account.accountId, email, role: 'admin', inviter }, base, now);
    const person = { issuer: 'https://issuer.example', subject: 'margaret', email, emailVerified: true, name: 'Margaret Hamilton' };
    await acceptInvitation(store, { kind: 'newcomer', level: 'anonymous', person }, invitation.url.split('#')[1], now);
    await call('members/invite', [{ email: 'grace.hopper@navy-computing.example.com', role: 'viewer' }]);
    await api.drainStream();
    // The screening's holds, counted.
    await api.drainStream();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await api?.close();
    if (build) rmSync(build.outdir, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(pages.takeProblems()).toEqual([]);
  });

  test('at 360 px: no table scrolls sideways; every cell, count, sparkline and button is on screen', async () => {
    const { context, page } = await pages.newPage({ viewport: { width: 360, height: 740 } });
    await signInAt(page, `${base}/projects`, account.admin);
    for (const { name, path, row } of tablePages()) {
      await page.goto(`${base}${path}`);
      await page.locator(row).first().waitFor();
      await checkPage(page, `phone-${name}`);
      const fit = await tableFit(page);
      expect({ name, ...fit, tables: fit.tables > 0, rows: fit.rows > 0 }).toEqual({
        name,
        tables: true,
        rows: true,
        scrollingSideways: [],
        offScreen: [],
        headersShown: false,
      });
      expect({ name, pageWidth: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ name, pageWidth: 360 });
    }

    // What was off-screen before: a key's Last used and State, and its Revoke button.
    await page.goto(`${base}/keys`);
    const keyRow = page.locator('tr', { hasText: 'Deploy pipeline of the marketing site' });
    for (const label of ['Last used', 'State']) await keyRow.locator('td', { hasText: label }).waitFor();
    const revoke = keyRow.getByRole('button', { name: /Revoke key/ });
    await revoke.scrollIntoViewIfNeeded();
    const box = (await revoke.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    // The project's 7-day count and sparkline.
    await page.goto(`${base}/projects/${ids.project}`);
    const setRow = page.locator('tr[data-set="Was this page helpful"]');
    await setRow.locator('[role="img"]').waitFor();
    await expect(setRow.getByTestId('seven-day-count').innerText()).resolves.toBe('3');
    expect(await setRow.locator('[role="img"]').isVisible()).toBe(true);
    // Review: the project shows what waits, one group of two; approving one of them, one by one, leaves the other waiting.
    await page.getByTestId('review-link').filter({ hasText: '(2 waiting)' }).click();
    const group = page.locator('tr[data-group]', { hasText: '2 messages on “https://docs.example.com/intro” shaped like known spam' });
    await group.getByRole('button', { name: /^One by one/ }).click();
    const heldRow = page.locator('tr[data-response-id]', { hasText: 'casino' });
    await heldRow.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Approved 1 response.' }).waitFor();
    await page.locator('tr[data-response-id]', { hasText: 'casino' }).waitFor({ state: 'detached' });
    await page.locator('tr[data-group]', { hasText: '1 message on “https://docs.example.com/intro” shaped like known spam' }).waitFor();
    expect(await tableFit(page)).toMatchObject({ scrollingSideways: [], offScreen: [] });
    await checkPage(page, 'phone-review-approved');
    // A member is a card with their role and Remove in view.
    await page.goto(`${base}/members`);
    const member = page.locator('tr[data-member]', { hasText: 'Margaret Hamilton' });
    for (const control of [
      member.getByRole('combobox', { name: 'Role of Margaret Hamilton' }),
      member.getByRole('button', { name: 'Remove Margaret Hamilton' }),
    ]) {
      await control.scrollIntoViewIfNeeded();
      const { x, width } = (await control.boundingBox())!;
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x + width).toBeLessThanOrEqual(360);
    }
    await context.close();
  });

  test('at desktop width: the same tables as tables, column headers shown, nothing off screen', async () => {
    const { context, page } = await pages.newPage();
    await signInAt(page, `${base}/projects`, account.admin);
    for (const { name, path, row } of tablePages()) {
      await page.goto(`${base}${path}`);
      await page.locator(row).first().waitFor();
      await checkPage(page, `desktop-${name}`);
      const fit = await tableFit(page);
      expect({ name, scrollingSideways: fit.scrollingSideways, offScreen: fit.offScreen, headersShown: fit.headersShown }).toEqual({
        name,
        scrollingSideways: [],
        offScreen: [],
        headersShown: true,
      });
      // A row is one line of cells, the column's name above them all, not beside each.
      expect(await page.locator('table.list-table .cell-label').first().isVisible()).toBe(false);
    }
    await context.close();
  });
});
