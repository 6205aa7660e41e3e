/**
 * The Members page's hold on what members make (issue 27): the pending invitations with
 * who made each, withdrawing one, and the removal dialog saying how many API keys the
 * removal also revokes before it is confirmed; after it, those keys are refused. An owner
 * signed in through npm start's local provider, in headless Chromium.
 */
import type { Browser, Page } from 'playwright-core';
import type { ConsoleBuild } from '../../console/build';
import { DEV_LOGIN_DOMAIN } from '../../local/oidc-provider';
import { ensureDevOwner } from '../../local/runtime';
import { issueApiKey } from '../../functions/operations/api-keys';
import { acceptInvitation, createInvitation } from '../../functions/operations/members';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, tearDownConsoleSuite } from '../support/browser';
import { startLocalOidcProcess, type LocalOidcProcess } from '../support/local-oidc';
import { until } from '../support/webhook-receiver';

jest.setTimeout(180_000);

describeInBrowser('console in Chromium: what members make', () => {
  const saved = { issuer: process.env.OIDC_ISSUER, clientId: process.env.OIDC_CLIENT_ID };
  let build: ConsoleBuild;
  let api: TestApi;
  let provider: LocalOidcProcess;
  let account: AccountKeys;
  let browser: Browser;
  let base: string;
  /** bob, an admin who made two API keys, and an invitation. */
  const bob = { memberId: '', keys: [] as string[], invitationId: '' };
  let viewerInvitationId: string;
  const pages = pageOpener(() => browser);

  async function signInAsAda(page: Page): Promise<void> {
    await page.goto(`${base}/members`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.getByLabel('Login name').fill('ada');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === base);
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
  }

  beforeAll(async () => {
    build = await buildTestConsole();
    api = await startTestApi({ consoleDir: build.outdir });
    base = new URL(api.baseUrl).origin;
    provider = await startLocalOidcProcess([base]);
    process.env.OIDC_ISSUER = provider.issuer;
    process.env.OIDC_CLIENT_ID = provider.clientId;
    account = await createAccount('console-members');
    await ensureDevOwner(account.accountId, provider.issuer, 'ada');
    // bob joins as an admin (as the API would make him one) and makes two keys and an invitation.
    const { store } = defaultStore();
    const now = new Date();
    const person = { issuer: provider.issuer, subject: 'bob', email: `bob@${DEV_LOGIN_DOMAIN}`, emailVerified: true, name: 'bob' };
    const invitation = await createInvitation(
      store,
      { accountId: account.accountId, email: person.email, role: 'admin', inviter: { type: 'operator', name: 'test' } },
      base,
      now,
    );
    const joined = await acceptInvitation(store, { kind: 'newcomer', level: 'anonymous', person }, invitation.url.split('#')[1], now);
    bob.memberId = joined.person!.memberId;
    const maker = { type: 'person' as const, memberId: bob.memberId, email: person.email, name: 'bob' };
    for (const level of ['admin', 'viewer'] as const) {
      bob.keys.push((await issueApiKey(store, { accountId: account.accountId, level, label: `bob's ${level} key`, createdBy: maker }, now)).key);
    }
    bob.invitationId = (
      await createInvitation(store, { accountId: account.accountId, email: 'carol@example.com', role: 'viewer', inviter: maker }, base, now)
    ).invitationId;
    const byKey = await api.call('members/invite', [{ email: 'dave@example.com', role: 'viewer' }], { key: account.admin, headers: { origin: base } });
    expect(byKey.status).toBe(200);
    viewerInvitationId = byKey.body.invitationId;
    browser = await launchBrowser();
  });

  tearDownConsoleSuite(pages, () => ({ browser, api, build }));
  afterAll(async () => {
    await provider?.stop();
    process.env.OIDC_ISSUER = saved.issuer;
    process.env.OIDC_CLIENT_ID = saved.clientId;
    if (saved.issuer === undefined) delete process.env.OIDC_ISSUER;
    if (saved.clientId === undefined) delete process.env.OIDC_CLIENT_ID;
  });

  test('pending invitations with their makers, Withdraw, and a removal that says how many keys it revokes', async () => {
    const { page } = await pages.newPage();
    await signInAsAda(page);
    const invitations = page.getByRole('table', { name: 'Pending invitations' });
    const row = (id: string) => invitations.locator(`tr[data-invitation="${id}"]`);
    await row(viewerInvitationId).waitFor();
    expect(await row(bob.invitationId).innerText()).toContain('bob');
    expect(await row(viewerInvitationId).innerText()).toContain('dave@example.com');
    await checkPage(page, 'members-invitations');

    await page.getByRole('button', { name: 'Withdraw the invitation for dave@example.com' }).click();
    await page.getByRole('dialog').getByText('The link sent to dave@example.com stops working at once.').waitFor();
    await page.getByRole('button', { name: 'Withdraw invitation' }).click();
    await until(async () => (await row(viewerInvitationId).count()) === 0, 15_000, 'the withdrawn invitation gone');
    const pending = (await api.call('members/invitations', [], { key: account.admin })).body.items.map((item: { id: string }) => item.id);
    expect(pending).toEqual([bob.invitationId]);

    // Removing bob: the dialog says what else goes before anything is done.
    await page.getByRole('button', { name: 'Remove bob' }).click();
    const note = page.getByRole('dialog').getByTestId('revokes-keys');
    await note.waitFor();
    expect(await note.innerText()).toBe('This also revokes 2 API keys they created.');
    await checkPage(page, 'members-remove-revokes-keys');
    for (const key of bob.keys) expect((await api.call('projects/lookup', [''], { key })).status).toBe(200);
    await page.getByRole('button', { name: 'Remove member' }).click();
    await until(async () => (await page.getByRole('rowheader', { name: 'bob', exact: true }).count()) === 0, 15_000, 'bob gone from the members');
    for (const key of bob.keys) expect((await api.call('projects/lookup', [''], { key })).status).toBe(401);
    // His invitation went with him.
    await until(async () => (await row(bob.invitationId).count()) === 0, 15_000, "bob's invitation gone");
    await page.getByText('No pending invitations.').waitFor();
  });

  test('a person who is no member sees a page that says so and how to get in, with no role, and signs out', async () => {
    const { page } = await pages.newPage({ colorScheme: 'dark' });
    await page.goto(`${base}/projects`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.getByLabel('Login name').fill('zoe');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === base);
    await page.getByRole('heading', { level: 1, name: 'You are not a member of an account' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('ask an owner of the account you work with for an invitation');
    expect(await page.locator('.level-badge').count()).toBe(0);
    await checkPage(page, 'not-a-member');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.origin === provider.issuer);
  });
});
