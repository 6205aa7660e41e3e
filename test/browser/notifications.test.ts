/**
 * The console's mail pages (issue 41 §5), a person signed in through npm start's local
 * provider: the Notifications page sets one's preferences (kept across a reload), sends this
 * week's digest to oneself now (an .eml in the outbox), and subscribes again after the mail's
 * own one-click unsubscribe link; a bounce shows on the Members page and on one's own page,
 * which lifts it; with no sender the page says mail is off. At 360 px in dark mode too.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { ConsoleBuild } from '../../console/build';
import { ensureDevOwner } from '../../local/runtime';
import { defaultStore } from '../../functions/store/entity-store';
import { suppressAddresses } from '../../functions/store/mail';
import { REPO_ROOT } from '../../lib/paths';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, signInThrough, tearDownConsoleSuite } from '../support/browser';
import { startLocalOidcProcess, type LocalOidcProcess } from '../support/local-oidc';

jest.setTimeout(180_000);

const MAIL_ENV = [
  'MAIL_FROM',
  'MAIL_OUTBOX_DIR',
  'MAIL_TOKEN_KEY',
  'MAIL_RATE_PER_SECOND',
  'CONSOLE_URL',
  'OIDC_ISSUER',
  'OIDC_CLIENT_ID',
  'SMTP_URL',
] as const;

describeInBrowser('console in Chromium: notifications and members’ mail', () => {
  const saved = Object.fromEntries(MAIL_ENV.map((name) => [name, process.env[name]]));
  let build: ConsoleBuild;
  let api: TestApi;
  let provider: LocalOidcProcess;
  let account: AccountKeys;
  let browser: Browser;
  let base: string;
  let outbox: string;
  const projects: Record<string, string> = {};
  const pages = pageOpener(() => browser);

  /** Signs in as ada (the account's owner, email ada@localhost verified by the provider) at `path`. */
  async function signInAsAda(page: Page, path: string): Promise<void> {
    await page.goto(`${base}${path}`);
    await signInThrough(page, provider.issuer, base, 'ada');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  }

  /** The Notifications page, loaded. */
  async function openNotifications(page: Page): Promise<void> {
    await page.goto(`${base}/notifications`);
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await page.getByRole('heading', { name: 'What you get' }).waitFor();
  }

  /** The .eml files of the outbox, as their raw text, oldest name first. */
  const mails = () =>
    readdirSync(outbox)
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .map((name) => readFileSync(join(outbox, name), 'utf8'));

  beforeAll(async () => {
    build = await buildTestConsole();
    api = await startTestApi({ consoleDir: build.outdir });
    base = new URL(api.baseUrl).origin;
    provider = await startLocalOidcProcess([base]);
    outbox = mkdtempSync(join(REPO_ROOT, '.tmp/outbox-'));
    Object.assign(process.env, {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      CONSOLE_URL: base,
      MAIL_FROM: 'Feedback <feedback@example.com>',
      MAIL_OUTBOX_DIR: outbox,
      MAIL_RATE_PER_SECOND: '50',
      MAIL_TOKEN_KEY: Buffer.alloc(32, 9).toString('base64'),
    });
    delete process.env.SMTP_URL;
    account = await createAccount('notifications');
    await ensureDevOwner(account.accountId, provider.issuer, 'ada');
    for (const name of ['Docs site', 'Blog']) {
      projects[name] = (await api.call('projects/create', [{ name }], { key: account.admin })).body.id;
    }
    browser = await launchBrowser();
  });
  tearDownConsoleSuite(pages, () => ({ browser, api, build }));
  afterAll(async () => {
    await provider?.stop();
    for (const name of MAIL_ENV) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    if (outbox) rmSync(outbox, { recursive: true, force: true });
  });

  test('one’s preferences: defaults by role, saved and kept; this week’s digest to oneself now', async () => {
    const { page } = await pages.newPage();
    await signInAsAda(page, '/projects');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).click();
    await page.getByRole('heading', { name: 'What you get' }).waitFor();
    await expect(page.getByTestId('mail-address').innerText()).resolves.toBe('ada@localhost');
    expect(await page.getByTestId('mail-off').count()).toBe(0);
    // An owner's defaults: the digest, each alert at once, every project.
    const digest = page.getByRole('checkbox', { name: 'Mail me each project’s weekly digest on Monday' });
    await expect(digest.isChecked()).resolves.toBe(true);
    await expect(page.getByRole('radio', { name: 'Each alert as it is raised' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('radio', { name: /^Every project of the account/ }).isChecked()).resolves.toBe(true);
    await checkPage(page, 'notifications');

    // Alerts once a day, of the blog only. Choosing "only these" with none ticked cannot be saved.
    await page.getByRole('radio', { name: 'One mail a day listing the day’s alerts' }).check();
    await page.getByRole('radio', { name: 'Only these projects:' }).check();
    await page.getByRole('alert').getByText('Choose at least one project, or every project.').waitFor();
    await expect(page.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
    await page.getByRole('checkbox', { name: 'Blog' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();

    await openNotifications(page);
    await expect(page.getByRole('radio', { name: 'One mail a day listing the day’s alerts' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('radio', { name: 'Only these projects:' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'Blog' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'Docs site' }).isChecked()).resolves.toBe(false);

    // The Members page (ada is the owner, so she sees everyone's) says it in one line.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
    const mail = page.getByRole('row', { name: /ada \(you\)/ }).getByTestId('member-mail');
    await mail.getByText('Weekly digest, alerts daily, 1 project').waitFor();
    await expect(mail.innerText()).resolves.toContain('to ada@localhost');

    // "Send me this week's digest now": to her own address, whatever she chose.
    await openNotifications(page);
    const before = mails().length;
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Docs site' });
    await page.getByRole('button', { name: 'Send me this week’s digest now' }).click();
    await page
      .getByTestId('send-now-result')
      .getByText(/^Sent to ada@localhost: “0 responses · Docs site, week of /)
      .waitFor();
    const sent = mails();
    expect(sent).toHaveLength(before + 1);
    expect(sent.at(-1)).toMatch(/^To: ada@localhost$/m);
    await checkPage(page, 'notifications-digest-sent');
  });

  test('a digest’s one-click unsubscribe turns it off; ticking it again subscribes again', async () => {
    const { page } = await pages.newPage();
    await signInAsAda(page, '/notifications');
    await page.getByRole('heading', { name: 'What you get' }).waitFor();
    // The digest the first test mailed carries its unsubscribe link (one send-now per 5 minutes);
    // the mail client POSTs to it (RFC 8058).
    const raw = mails().at(-1)!;
    const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
    const link = /^List-Unsubscribe: <([^>]+)>$/m.exec(head.replace(/\r\n/g, '\n'))?.[1];
    expect(link).toMatch(new RegExp(`^${base}/v0/mail/unsubscribe\\?token=`));
    const unsubscribed = await fetch(link!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(unsubscribed.status).toBe(200);

    await openNotifications(page);
    const digest = page.getByRole('checkbox', { name: 'Mail me each project’s weekly digest on Monday' });
    await expect(digest.isChecked()).resolves.toBe(false);
    await page.getByText('You turned it off (here, or with a digest’s unsubscribe link); tick it to get it again.').waitFor();
    await checkPage(page, 'notifications-unsubscribed');
    await digest.check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    await openNotifications(page);
    await expect(digest.isChecked()).resolves.toBe(true);
    expect(await page.getByText('You turned it off').count()).toBe(0);
  });

  test('a bounce: the Members page says why the member gets no mail; their own page lifts it', async () => {
    const { store } = defaultStore();
    await suppressAddresses(store, account.accountId, { reason: 'bounce', at: new Date().toISOString(), detail: 'General: 550 no such user' }, [
      'ada@localhost',
    ]);
    const { page } = await pages.newPage();
    await signInAsAda(page, '/members');
    const row = page.getByRole('row', { name: /ada \(you\)/ });
    await row
      .getByTestId('member-suppressed')
      .getByText(/^Mail stopped on .+: mail to it bounced \(General: 550 no such user\)\.$/)
      .waitFor();
    await checkPage(page, 'members-mail-suppressed');

    await openNotifications(page);
    await page
      .getByTestId('mail-suppressed')
      .getByText(/mail to it bounced/)
      .waitFor();
    await expect(page.getByTestId('send-now-unavailable').innerText()).resolves.toBe('Mail to your address is stopped: ask to be mailed again first.');
    await checkPage(page, 'notifications-suppressed');
    await page.getByRole('button', { name: 'Mail me again' }).click();
    await page.getByRole('button', { name: 'Send me this week’s digest now' }).waitFor();
    expect(await page.getByTestId('mail-suppressed').count()).toBe(0);
    await page.goto(`${base}/members`);
    await page
      .getByRole('row', { name: /ada \(you\)/ })
      .getByText('to ada@localhost')
      .waitFor();
    expect(await page.getByTestId('member-suppressed').count()).toBe(0);
  });

  test('with no sender the page says mail is off and keeps the choices; on a phone in dark mode', async () => {
    delete process.env.MAIL_FROM;
    try {
      const { page } = await pages.newPage({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
      await signInAsAda(page, '/notifications');
      await page
        .getByTestId('mail-off')
        .getByText(/Mail is off.+this deployment has no sender address \(deploy with cdk deploy -c mailFrom=/)
        .waitFor();
      await expect(page.getByTestId('send-now-unavailable').innerText()).resolves.toBe('Mail is off in this deployment.');
      // The choices stay, and can still be changed.
      await expect(page.getByRole('radio', { name: 'One mail a day listing the day’s alerts' }).isChecked()).resolves.toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
      await checkPage(page, 'notifications-mail-off-phone-dark');
    } finally {
      process.env.MAIL_FROM = 'Feedback <feedback@example.com>';
    }
  });
});
