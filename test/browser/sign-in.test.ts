/**
 * People signing in to the console through a real OpenID provider (npm start's local one,
 * oidc-provider, in a child process): authorization code with PKCE and the redirect back,
 * the person's name and role from members/me, API calls with the Bearer token, an
 * invitation from the Members page accepted by a second person in a fresh browser, and
 * sign-out at the provider.
 */
import type { Browser, Page } from 'playwright-core';
import type { ConsoleBuild } from '../../console/build';
import { CLOCK_TOLERANCE_SECONDS } from '../../functions/api/oidc';
import { ensureDevOwner } from '../../local/runtime';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, tearDownConsoleSuite } from '../support/browser';
import { startLocalOidcProcess, type LocalOidcProcess } from '../support/local-oidc';
import { until } from '../support/webhook-receiver';

jest.setTimeout(180_000);

/** From the console's sign-in page through the provider's login page, back to the console. */
async function signInThrough(page: Page, issuer: string, base: string, login: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.origin === issuer);
  await page.getByLabel('Login name').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === base);
}

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

describeInBrowser('signing in as a person', () => {
  const suite = signInSuite('sign-in');
  const { pages } = suite;

  const signInAs = (page: Page, login: string) => signInThrough(page, suite.provider.issuer, suite.base, login);

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
    ]);
    await page.getByRole('link', { name: 'Respondent data' }).click();
    await page.getByRole('heading', { level: 1, name: 'Respondent data' }).waitFor();
    // The pages' earlier address still leads there.
    await page.goto(`${suite.base}/people/ann%40example.com`);
    await page.getByRole('heading', { level: 1, name: 'ann@example.com' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/respondents/ann%40example.com');

    // Members: ada is listed; she names the account, and invites bob as a viewer.
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
    await email.fill('bob@localhost');
    await expect(email.getAttribute('aria-invalid')).resolves.toBeNull();
    expect(await page.getByRole('dialog').getByRole('alert').count()).toBe(0);
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Create invitation' }).click();
    await page.getByTestId('invitation-link').or(page.getByRole('dialog').getByRole('alert')).first().waitFor();
    expect(await page.getByRole('dialog').getByRole('alert').allInnerTexts()).toEqual([]);
    const link = await page.getByTestId('invitation-link').inputValue();
    expect(link).toMatch(new RegExp(`^${suite.base}/invitations#fbi_`));
    await page.getByRole('button', { name: 'Done' }).click();

    // Bob opens the link in a browser of his own: before signing in he sees what it invites him to.
    const second = await pages.newPage();
    await second.page.goto(link);
    // "Invitation" while the invitation is read, then what it invites to.
    await second.page.getByRole('heading', { level: 1, name: 'You are invited to Docs team' }).waitFor();
    await expect(second.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('You are invited to Docs team');
    await expect(second.page.getByTestId('invitation-summary').innerText()).resolves.toMatch(/^as viewer: sign in to accept\./);
    await checkPage(second.page, 'invitation-signed-out');
    await signInAs(second.page, 'bob');
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

    // Ada sees bob as soon as she comes back to her tab (no reload), and signs out at the provider too.
    // As a browser does: at the document, bubbling to the window, where TanStack Query listens.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
    await page.getByRole('rowheader', { name: 'bob', exact: true }).waitFor();
    expect(await page.locator('tr[data-member]', { hasText: 'bob@localhost' }).count()).toBe(1);
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
});

describeInBrowser('silent renewal of a short-lived sign-in', () => {
  /** The provider's ID token lifetime here: the console renews well before it ends, many times over the test. */
  const TOKEN_TTL_SECONDS = 8;
  const suite = signInSuite('renewal', { tokenTtlSeconds: TOKEN_TTL_SECONDS });
  const { pages } = suite;

  test("the console keeps working past the first token's expiry, without a reload or a sign-in, with renewed tokens", async () => {
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
