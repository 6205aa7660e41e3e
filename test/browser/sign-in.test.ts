/**
 * People signing in to the console through a real OpenID provider (npm start's local one,
 * oidc-provider, in a child process): authorization code with PKCE and the redirect back,
 * the person's name and role from members/me, API calls with the Bearer token, an
 * invitation from the Members page accepted by a second person in a fresh browser, and
 * sign-out at the provider; the Members page's hold on what members make (issue 27: pending
 * invitations with who made each, withdrawing one, the removal dialog saying how many API keys
 * the removal also revokes, those keys refused after it; a person who is no member). All with
 * short-lived (8 s) tokens, renewed many times over the file: a tab signed in first and left
 * idle while the other tests run shows the console's silent renewal once its first token is
 * refused, without the file waiting idle for that.
 */
import type { Browser, Page } from 'playwright-core';
import type { ConsoleBuild } from '../../console/build';
import { CLOCK_TOLERANCE_SECONDS } from '../../functions/api/oidc';
import { DEV_LOGIN_DOMAIN } from '../../local/oidc-provider';
import { ensureDevOwner } from '../../local/runtime';
import { issueApiKey } from '../../functions/operations/api-keys';
import { acceptInvitation, createInvitation } from '../../functions/operations/members';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, signInThrough, tearDownConsoleSuite } from '../support/browser';
import { startLocalOidcProcess, type LocalOidcProcess } from '../support/local-oidc';
import { until } from '../support/webhook-receiver';

jest.setTimeout(180_000);

/** A JWT's claims (read, not verified: the API verifies). */
const claimsOf = (token: string): { iat: number; exp: number; sub: string } => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));

/**
 * A sign-in suite's parts: the console and the API, a local provider the API trusts (its
 * issuer and client in OIDC_ISSUER / OIDC_CLIENT_ID until the suite ends), an account whose
 * owner is the provider's `ada`, with one project, and a browser; all undone after it.
 */
function signInSuite(accountName: string, providerOptions: { tokenTtlSeconds?: number } = {}) {
  const suite = {} as { build: ConsoleBuild; api: TestApi; provider: LocalOidcProcess; account: AccountKeys; browser: Browser; base: string };
  const saved = { issuer: process.env.OIDC_ISSUER, clientId: process.env.OIDC_CLIENT_ID };
  const pages = pageOpener(() => suite.browser);

  beforeAll(async () => {
    suite.build = await buildTestConsole();
    suite.api = await startTestApi({ consoleDir: suite.build.outdir });
    suite.base = new URL(suite.api.baseUrl).origin;
    suite.provider = await startLocalOidcProcess([suite.base], providerOptions);
    process.env.OIDC_ISSUER = suite.provider.issuer;
    process.env.OIDC_CLIENT_ID = suite.provider.clientId;
    suite.account = await createAccount(accountName);
    await ensureDevOwner(suite.account.accountId, suite.provider.issuer, 'ada');
    expect((await suite.api.call('projects/create', [{ name: 'Docs site' }], { key: suite.account.admin })).status).toBe(200);
    suite.browser = await launchBrowser();
  });
  tearDownConsoleSuite(pages, () => suite);
  afterAll(async () => {
    await suite.provider?.stop();
    process.env.OIDC_ISSUER = saved.issuer;
    process.env.OIDC_CLIENT_ID = saved.clientId;
    if (saved.issuer === undefined) delete process.env.OIDC_ISSUER;
    if (saved.clientId === undefined) delete process.env.OIDC_CLIENT_ID;
  });
  return Object.assign(suite, { pages });
}

describeInBrowser('signing in as a person (8 s tokens)', () => {
  /** The provider's ID token lifetime here: the console renews well before it ends, many times over the tests. */
  const TOKEN_TTL_SECONDS = 8;
  const suite = signInSuite('sign-in', { tokenTtlSeconds: TOKEN_TTL_SECONDS });
  const { pages } = suite;

  const signInAs = (page: Page, login: string) => signInThrough(page, suite.provider.issuer, suite.base, login);

  /**
   * A tab of ada's, signed in first and then left idle while every other test of the file runs:
   * the silent renewal test (the last) waits until its first token is refused (past the API's
   * half-minute clock tolerance), and that wait is spent on those tests rather than idle.
   */
  const idleTab = {} as {
    page: Page;
    first: string;
    firstClaims: ReturnType<typeof claimsOf>;
    bearers: string[];
    documents: string[];
    tokenRequests: string[];
    watchedFrom: number;
  };
  beforeAll(async () => {
    const { page } = await pages.newPage();
    const bearers: string[] = [];
    page.on('request', (request) => {
      const authorization = request.headers().authorization ?? '';
      if (request.url().startsWith(`${suite.base}/v0/`) && authorization.startsWith('Bearer ')) bearers.push(authorization.slice('Bearer '.length));
    });
    await page.goto(`${suite.base}/projects`);
    await signInThrough(page, suite.provider.issuer, suite.base, 'ada');
    await page.getByRole('link', { name: 'Docs site' }).waitFor();
    const first = bearers[0];
    const firstClaims = claimsOf(first);
    expect(firstClaims.exp - firstClaims.iat).toBe(TOKEN_TTL_SECONDS);

    // From here on: no page load (a reload would drop this marker) and no trip to the suite.provider.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const documents: string[] = [];
    page.on('load', () => documents.push(page.url()));
    const tokenRequests: string[] = [];
    const watchedFrom = Date.now();
    page.on('request', (request) => {
      if (request.url().startsWith(suite.provider.issuer)) tokenRequests.push(new URL(request.url()).pathname);
    });

    Object.assign(idleTab, { page, first, firstClaims, bearers, documents, tokenRequests, watchedFrom });
  });

  test('sign in through the provider, call the API, invite and accept, sign out', async () => {
    const { page } = await pages.newPage();
    await page.goto(`${suite.base}/projects`);
    await page.getByRole('button', { name: 'Use an API key instead' }).waitFor();
    await checkPage(page, 'sign-in-person');

    const bearer = page.waitForRequest((request) => request.url().includes('/v0/') && (request.headers().authorization ?? '').startsWith('Bearer '));
    await signInAs(page, 'ada');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // Back where the person started, with no code or state left in the address.
    expect(new URL(page.url()).pathname).toBe('/projects');
    expect(new URL(page.url()).search).toBe('');
    await expect(page.getByTestId('session-name').innerText()).resolves.toBe('ada');
    await expect(page.locator('.level-badge').innerText()).resolves.toBe('Owner');
    // The projects list is read with the person's Bearer token.
    expect((await bearer).headers().authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    await page.getByRole('link', { name: 'Docs site' }).waitFor();
    // Tokens are kept in this tab's sessionStorage, never in localStorage.
    expect(await page.evaluate(() => localStorage.length)).toBe(0);

    // The navigation names a respondent's data and the account's members apart.
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts()).toEqual([
      'Projects',
      'Alerts',
      'Respondent data',
      'Webhooks',
      'Members',
      'API keys',
      'Audit log',
      'Notifications',
    ]);
    await page.getByRole('link', { name: 'Respondent data' }).click();
    await page.getByRole('heading', { level: 1, name: 'Respondent data' }).waitFor();
    // The pages' earlier address still leads there.
    await page.goto(`${suite.base}/people/ann%40example.com`);
    await page.getByRole('heading', { level: 1, name: 'ann@example.com' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/respondents/ann%40example.com');

    // Members: ada is listed; she names the account, and invites ben as a viewer.
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('rowheader', { name: 'ada (you)' }).waitFor();
    await page.getByLabel('Account name').fill('Docs team');
    await page.getByRole('button', { name: 'Rename' }).click();
    await until(
      async () => (await page.getByRole('button', { name: 'Rename' }).isDisabled()) && (await page.getByLabel('Account name').inputValue()) === 'Docs team',
      15_000,
      'renamed',
    );
    await checkPage(page, 'members');
    await page.getByRole('button', { name: 'Invite a member' }).click();
    // An address the browser takes but the API refuses (more than 64 characters before the @):
    // the API's message shows at the email field, which names it (aria-describedby), and
    // nowhere else; editing the field clears it.
    const email = page.getByRole('dialog').getByLabel('Email');
    await email.fill(`${'b'.repeat(65)}@localhost`);
    await page.getByRole('button', { name: 'Create invitation' }).click();
    await page.getByRole('dialog').getByRole('alert').waitFor();
    await expect(email.getAttribute('aria-invalid')).resolves.toBe('true');
    const described = page.locator(`[id="${await email.getAttribute('aria-describedby')}"]`);
    await expect(described.innerText()).resolves.toMatch(/email/i);
    expect(await page.getByRole('dialog').getByRole('alert').allInnerTexts()).toEqual([await described.innerText()]);
    await checkPage(page, 'members-invite-invalid-email');
    // The local provider's own addresses have no dot in their domain: taken.
    await email.fill('ben@localhost');
    await expect(email.getAttribute('aria-invalid')).resolves.toBeNull();
    expect(await page.getByRole('dialog').getByRole('alert').count()).toBe(0);
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Create invitation' }).click();
    await page.getByTestId('invitation-link').or(page.getByRole('dialog').getByRole('alert')).first().waitFor();
    expect(await page.getByRole('dialog').getByRole('alert').allInnerTexts()).toEqual([]);
    const link = await page.getByTestId('invitation-link').inputValue();
    expect(link).toMatch(new RegExp(`^${suite.base}/invitations#fbi_`));
    await page.getByRole('button', { name: 'Done' }).click();

    // Ben opens the link in a browser of his own: before signing in he sees what it invites him to.
    const second = await pages.newPage();
    await second.page.goto(link);
    // "Invitation" while the invitation is read, then what it invites to.
    await second.page.getByRole('heading', { level: 1, name: 'You are invited to Docs team' }).waitFor();
    await expect(second.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('You are invited to Docs team');
    await expect(second.page.getByTestId('invitation-summary').innerText()).resolves.toMatch(/^as viewer: sign in to accept\./);
    await checkPage(second.page, 'invitation-signed-out');
    await signInAs(second.page, 'ben');
    await second.page
      .getByRole('heading', { name: 'You joined the account' })
      .waitFor({ timeout: 15_000 })
      .catch(async (error) => {
        throw new Error(`${(error as Error).message}\n${await second.page.locator('body').innerText()}`);
      });
    await expect(second.page.getByTestId('joined-account').innerText()).resolves.toBe('Docs team');
    expect(new URL(second.page.url()).hash).toBe('');
    await second.page.getByRole('link', { name: 'Go to the projects' }).click();
    await second.page.getByRole('link', { name: 'Docs site' }).waitFor();
    await expect(second.page.locator('.level-badge').innerText()).resolves.toBe('Viewer');
    await second.context.close();

    // Ada sees ben as soon as she comes back to her tab (no reload), and signs out at the provider too.
    // As a browser does: at the document, bubbling to the window, where TanStack Query listens.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
    await page.getByRole('rowheader', { name: 'ben', exact: true }).waitFor();
    expect(await page.locator('tr[data-member]', { hasText: 'ben@localhost' }).count()).toBe(1);
    const endSession = page.waitForRequest((request) => request.url().startsWith(suite.provider.issuer) && request.isNavigationRequest());
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.origin === suite.provider.issuer);
    // The provider's end-session page, told the client and where to come back; no token in the address.
    const endSessionAddress = new URL((await endSession).url());
    expect(Object.fromEntries(endSessionAddress.searchParams)).toEqual({ client_id: suite.provider.clientId, post_logout_redirect_uri: suite.base });
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.waitForURL((url) => url.origin === suite.base);
    await page.getByRole('button', { name: 'Use an API key instead' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    // The session at the provider ended too: signing in again asks who is signing in.
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.origin === suite.provider.issuer);
    await page.getByLabel('Login name').waitFor();
    await page.getByLabel('Login name').fill('ada');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === suite.base);
    await expect(page.getByTestId('session-name').innerText()).resolves.toBe('ada');
    expect(pages.takeProblems()).toEqual([]);
  });

  test("a configured logoutUrl (Cognito's hosted /logout) is where signing out goes", async () => {
    // The stack writes Cognito's logout address into config.json (test/infra/cognito.test.ts);
    // here the local provider's end-session page stands in for it, reached through logoutUrl.
    const logoutUrl = `${suite.provider.issuer}/session/end?client_id=${suite.provider.clientId}&post_logout_redirect_uri=${encodeURIComponent(suite.base)}&via=logoutUrl`;
    process.env.OIDC_LOGOUT_URL = logoutUrl;
    try {
      const { page } = await pages.newPage();
      await page.goto(`${suite.base}/projects`);
      await signInAs(page, 'ada');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      const leaving = page.waitForRequest((request) => request.url().startsWith(suite.provider.issuer) && request.isNavigationRequest());
      await page.getByRole('button', { name: 'Sign out' }).click();
      expect((await leaving).url()).toBe(logoutUrl);
      await page.getByRole('button', { name: 'Yes, sign me out' }).click();
      await page.waitForURL((url) => url.origin === suite.base);
      await page.getByRole('button', { name: 'Use an API key instead' }).waitFor();
      expect(pages.takeProblems()).toEqual([]);
    } finally {
      delete process.env.OIDC_LOGOUT_URL;
    }
  });

  test('an API key still signs in, and the header names the key', async () => {
    const { page } = await pages.newPage();
    await page.goto(`${suite.base}/projects`);
    await page.getByRole('button', { name: 'Use an API key instead' }).click();
    await page.getByLabel('API key').fill(suite.account.viewer);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await expect(page.locator('.level-badge').innerText()).resolves.toBe('Viewer');
    expect(pages.takeProblems()).toEqual([]);
  });

  describe('the Members page: what members make (issue 27)', () => {
    /** bob, an admin who made two API keys, and an invitation. */
    const bob = { memberId: '', keys: [] as string[], invitationId: '' };
    let viewerInvitationId: string;

    async function signInAsAda(page: Page): Promise<void> {
      await page.goto(`${suite.base}/members`);
      await signInThrough(page, suite.provider.issuer, suite.base, 'ada');
      await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    }

    beforeAll(async () => {
      // bob joins as an admin (as the API would make him one) and makes two keys and an invitation.
      const { store } = defaultStore();
      const now = new Date();
      const person = { issuer: suite.provider.issuer, subject: 'bob', email: `bob@${DEV_LOGIN_DOMAIN}`, emailVerified: true, name: 'bob' };
      const invitation = await createInvitation(
        store,
        { accountId: suite.account.accountId, email: person.email, role: 'admin', inviter: { type: 'operator', name: 'test' } },
        suite.base,
        now,
      );
      const joined = await acceptInvitation(store, { kind: 'newcomer', level: 'anonymous', person }, invitation.url.split('#')[1], now);
      bob.memberId = joined.person!.memberId;
      const maker = { type: 'person' as const, memberId: bob.memberId, email: person.email, name: 'bob' };
      for (const level of ['admin', 'viewer'] as const) {
        bob.keys.push((await issueApiKey(store, { accountId: suite.account.accountId, level, label: `bob's ${level} key`, createdBy: maker }, now)).key);
      }
      bob.invitationId = (
        await createInvitation(store, { accountId: suite.account.accountId, email: 'carol@example.com', role: 'viewer', inviter: maker }, suite.base, now)
      ).invitationId;
      const byKey = await suite.api.call('members/invite', [{ email: 'dave@example.com', role: 'viewer' }], {
        key: suite.account.admin,
        headers: { origin: suite.base },
      });
      expect(byKey.status).toBe(200);
      viewerInvitationId = byKey.body.invitationId;
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
      const pending = (await suite.api.call('members/invitations', [], { key: suite.account.admin })).body.items.map((item: { id: string }) => item.id);
      expect(pending).toEqual([bob.invitationId]);

      // Removing bob: the dialog says what else goes before anything is done.
      await page.getByRole('button', { name: 'Remove bob' }).click();
      const note = page.getByRole('dialog').getByTestId('revokes-keys');
      await note.waitFor();
      expect(await note.innerText()).toBe('This also revokes 2 API keys they created.');
      await checkPage(page, 'members-remove-revokes-keys');
      for (const key of bob.keys) expect((await suite.api.call('projects/lookup', [''], { key })).status).toBe(200);
      await page.getByRole('button', { name: 'Remove member' }).click();
      await until(async () => (await page.getByRole('rowheader', { name: 'bob', exact: true }).count()) === 0, 15_000, 'bob gone from the members');
      for (const key of bob.keys) expect((await suite.api.call('projects/lookup', [''], { key })).status).toBe(401);
      // His invitation went with him.
      await until(async () => (await row(bob.invitationId).count()) === 0, 15_000, "bob's invitation gone");
      await page.getByText('No pending invitations.').waitFor();
    });

    test('a person who is no member sees a page that says so and how to get in, with no role, and signs out', async () => {
      const { page } = await pages.newPage({ colorScheme: 'dark' });
      await page.goto(`${suite.base}/projects`);
      await signInThrough(page, suite.provider.issuer, suite.base, 'zoe');
      await page.getByRole('heading', { level: 1, name: 'You are not a member of an account' }).waitFor();
      expect(await page.locator('main').innerText()).toContain('ask an owner of the account you work with for an invitation');
      expect(await page.locator('.level-badge').count()).toBe(0);
      await checkPage(page, 'not-a-member');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.origin === suite.provider.issuer);
    });
  });

  test("the console keeps working past the first token's expiry, without a reload or a sign-in, with renewed tokens", async () => {
    const { page, first, firstClaims, bearers, documents, tokenRequests, watchedFrom } = idleTab;
    // Past the first token's expiry and the API's clock tolerance: the first token is refused by now.
    const refusedFrom = (firstClaims.exp + CLOCK_TOLERANCE_SECONDS + 1) * 1000;
    await page.waitForTimeout(Math.max(0, refusedFrom - Date.now()));
    const late = await fetch(`${suite.api.baseUrl}/members/me`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first}`, 'content-type': 'application/json' },
      body: '[]',
    });
    expect(late.status).toBe(401);
    expect(((await late.json()) as { message: string }).message).toBe('The token has expired');

    // The console still works: pages it has not read yet load, with a renewed token.
    const before = bearers.length;
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('rowheader', { name: 'ada (you)' }).waitFor();
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await expect(page.getByTestId('session-name').innerText()).resolves.toBe('ada');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(documents).toEqual([]);
    // Renewal went to the token endpoint only (the refresh token grant), never to the sign-in page...
    expect(tokenRequests.length).toBeGreaterThan(0);
    expect(new Set(tokenRequests)).toEqual(new Set(['/token']));
    // ...while the tab was idle, once per token shortly before it expires: at least once per
    // lifetime, and no renewal loop.
    const lifetimes = (Date.now() - watchedFrom) / 1000 / TOKEN_TTL_SECONDS;
    expect(tokenRequests.length).toBeGreaterThanOrEqual(Math.floor(lifetimes));
    expect(tokenRequests.length).toBeLessThanOrEqual(Math.ceil(lifetimes * 2) + 1);

    const renewed = bearers.slice(before);
    expect(renewed.length).toBeGreaterThan(0);
    const now = Date.now() / 1000;
    for (const token of renewed) {
      expect(token).not.toBe(first);
      expect(claimsOf(token).sub).toBe('ada');
      expect(claimsOf(token).iat).toBeGreaterThan(firstClaims.exp);
      expect(claimsOf(token).exp).toBeGreaterThan(now - 1);
    }
    // The renewed tokens are what the tab keeps, still never in localStorage.
    const stored = await page.evaluate(() => sessionStorage.getItem('feedback-console.credential') ?? '');
    expect(stored).not.toContain(first);
    expect(stored).toContain(renewed.at(-1));
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(pages.takeProblems()).toEqual([]);
  });
});
