/**
 * Themes in the console (issue 40 §5), in headless Chromium against the local server: a shop's
 * help-centre messages (test/fixtures/themes/shop.tsv, moved to end yesterday) imported into a
 * tagged-message set and through the themes job. The set's Why panel starts with the "no"
 * messages and shows each theme's count, share and interval, the rising one, quotes and pages;
 * a theme's link lists exactly its messages; an admin renames and merges themes (recorded and
 * shown, then in the themes after the job's next run) and moves a message from a theme's list;
 * a viewer sees no curation; the item's panel and Needs attention name the theme that grew on
 * its page, and Needs attention ranks a page whose "no" messages arrive now at its next read
 * (the live last 7 days, not the digest's week); an alert on the set names what grew, in the
 * chat lines' words. At 1280 and 360 px (dark), with axe.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { Alert, Themes } from '@feedback-service/client';
import { ALERT_GROWTH_WINDOWS, growthWords } from '../../shared/theme-growth';
import { pageReason } from '../../console/src/lib/themes';
import type { ConsoleBuild } from '../../console/build';
import { evaluateEntities, runAlerts } from '../../functions/jobs/alerts';
import { runThemes } from '../../functions/jobs/themes';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, startTestApi, succeeded, type AccountKeys, type TestApi } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, signInAt, tearDownConsoleSuite } from '../support/browser';

jest.setTimeout(300_000);

const DAY = 86_400_000;
/** The fixture's last day: its dates are moved so that it ends yesterday (UTC). */
const FIXTURE_END = Date.parse('2026-06-29T00:00:00Z');
const RISING_PAGE = '/help/payments';
/** A page without messages until a test sends these, today. */
const NEW_PAGE = '/help/checkout';
const CHECKOUT_MESSAGES = [
  'charged twice at checkout',
  'my card was charged twice for one order',
  'you charged me twice',
  'double charge on my card after checkout',
  'charged two times for the same order',
  'the checkout charged my card twice',
  'billed twice for one order',
  'why was I charged twice?',
  'charged twice, please refund one',
  'payment taken twice at checkout',
];

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
  const weekThemes = () => call<Themes>('sets/themes', [setId, { period: 'rolling7d', tag: 'no', compare: 'previous' }]);

  /** The page is among the worst of the last 7 days, its line naming what pageReason picks among its "no" messages of those days. */
  async function expectReason(page: Page, itemId: string, key: string) {
    const reason = pageReason(await call<Themes>('contents/themes', [itemId, { period: 'rolling7d', tag: 'no', compare: 'previous', $size: 5, $examples: 0 }]));
    expect(reason).toBeDefined();
    const listed = page.getByTestId('worst-tagged-message').locator(`[data-item="${key}"]`);
    const line = listed.getByTestId('attention-reason');
    await line.waitFor();
    expect(await line.innerText()).toContain(
      reason && 'phrase' in reason ? `Rising phrase: “${reason.phrase.text}”` : `: ${reason?.theme.label}, ${reason?.theme.count} of`,
    );
    return listed;
  }

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
    // The alerts job keeps the watch list of pages with responses that the digest ranks (Needs attention).
    await runAlerts(defaultStore().store, new Date());
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

    // A theme's link lists exactly its messages in the period.
    const listed = await call<{ items: { id: string }[]; count: number }>('responses/list', [
      { contentSetId: setId, theme: top.id, tag: 'no', from: expected.from, to: expected.to, $size: 100 },
    ]);
    expect(listed.count).toBe(top.count);
    await first.getByRole('link', { name: top.label }).click();
    await page.getByRole('heading', { level: 1, name: top.label }).waitFor();
    await page
      .getByTestId('messages-count')
      .filter({ hasText: `${top.count} messages` })
      .waitFor();
    const ids = await page.locator('[data-response]').evaluateAll((items) => items.map((item) => item.getAttribute('data-response')));
    expect(ids.sort()).toEqual(listed.items.map((item) => item.id).sort());
    await checkPage(page, 'themes-messages');

    // An admin moves one of them out of the theme: recorded for the job's next run.
    const moved = page.locator('[data-response]').first();
    const movedId = await moved.getAttribute('data-response');
    await moved.getByRole('button', { name: 'Move to another theme…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move message' });
    await dialog.getByLabel('Move to').selectOption({ label: 'No theme (other)' });
    await dialog.getByRole('button', { name: 'Move message' }).click();
    await page.getByRole('status').filter({ hasText: 'Recorded.' }).waitFor();
    const records = await call<{ record: Record<string, unknown> }[]>('sets/themeCurations', [setId]);
    expect(records.map((entry) => entry.record)).toEqual([{ kind: 'move', messageId: movedId, themeId: null }]);
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
    const after = await weekThemes();
    expect(after.themes.map((theme) => theme.id)).not.toContain(third.id);
    const merged = after.themes.find((theme) => theme.id === second.id)!;
    expect(merged.count).toBeGreaterThanOrEqual(second.count + third.count);
    expect(await page.locator(`[data-theme="${merged.label}"] .theme-count`).innerText()).toContain(`${merged.count} of ${after.messages} messages`);
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

  test('at 360 px, dark: the item’s Why panel and Needs attention name what grew on the page', async () => {
    const item = await call<Themes>('contents/themes', [paymentsId, { period: 'rolling7d', tag: 'no', compare: 'previous' }]);
    const { context, page } = await pages.newPage({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
    await signInAt(page, rolling7d(`/items/${paymentsId}`), account.admin);
    await page.locator(`[data-theme="${item.themes[0].label}"]`).waitFor();
    expect(await themeEntries(page).count()).toBe(item.themes.length);
    await checkPage(page, 'themes-item-why-360');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // Needs attention ranks the live last 7 days (read from the rankings) and names what pageReason
    // (unit-tested) picks among each worst page's "no" messages of those days.
    await api.drainStream();
    await page.goto(`${base}/projects/${projectId}`);
    await expectReason(page, paymentsId, RISING_PAGE);
    await checkPage(page, 'themes-needs-attention-360');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await context.close();
  });

  test('at 1280 px: a page whose “no” messages arrive now is among the worst pages at the next read, with what they say', async () => {
    const { context, page } = await pages.newPage();
    await signInAt(page, `${base}/projects/${projectId}`, account.admin);
    const worst = page.getByTestId('worst-tagged-message');
    await worst.locator(`[data-item="${RISING_PAGE}"]`).waitFor();
    expect(await worst.locator(`[data-item="${NEW_PAGE}"]`).count()).toBe(0);
    // Ten visitors of the checkout page, now, through the widgets' operation; the counts, the
    // rankings (the ranker's next run) and the themes (the job's next run) follow within a minute.
    for (const message of CHECKOUT_MESSAGES)
      await succeeded(api, 'responses/create', [{ contentSetId: setId, key: NEW_PAGE, value: { tag: 'no', message } }], undefined);
    await api.drainStream();
    await runThemes(defaultStore().store, new Date());
    await page.reload();
    const checkoutId = (await call('contents/lookup', [NEW_PAGE, { contentSetId: setId }]))[0].id;
    const listed = await expectReason(page, checkoutId, NEW_PAGE);
    expect(await listed.locator('.attention-count').innerText()).toBe(`${CHECKOUT_MESSAGES.length} responses`);
    // Ten "no" answers: a point interval, said in words.
    expect(await listed.locator('.interval-text').innerText()).toBe('−1.00 (every response alike)');
    await checkPage(page, 'themes-needs-attention');
    await context.close();
  });

  test('an alert on the set names what grew among its “no” messages, as the chat line says it', async () => {
    // Happier weeks before the last 7 days ('yes' answers 9 to 33 days ago): the set's sentiment fell, and the alerts job says why.
    const happy = Array.from({ length: 60 }, (_, index) => ({
      key: '/help/happy',
      value: { tag: 'yes', message: `thanks, that answered it (${index})` },
      createdAt: new Date(Date.now() - (9 + (index % 25)) * DAY).toISOString(),
      importId: `happy-${index}`,
    }));
    await call('responses/import', [setId, happy]);
    await api.drainStream({ rank: false });
    await runThemes(defaultStore().store, new Date());
    // The job evaluates an entity once a UTC day, and beforeAll's run did today: evaluate the set again as the job would tomorrow.
    const evaluated = await evaluateEntities(
      defaultStore().store,
      [{ entity: 'contentSet', id: setId, accountId: account.accountId, projectId, contentSetId: setId }],
      new Date(),
    );
    expect(evaluated.alerts).toHaveLength(1);
    const alert = (await call<{ items: Alert[] }>('alerts/list', [{ contentSetId: setId }])).items.find((candidate) => candidate.entityId === setId);
    expect(alert?.themeTags).toEqual(['no']);
    const words = growthWords({ tags: alert!.themeTags, themes: alert!.themes, phrases: alert!.phrases }, ...ALERT_GROWTH_WINDOWS);
    expect(words).toMatch(/^'no' messages in the last 7 days mention "/);
    const { context, page } = await pages.newPage();
    await signInAt(page, `${base}/alerts`, account.admin);
    const item = page.locator(`li[data-alert="${setId}"]`);
    await item.waitFor();
    expect(await item.locator('.alert-growth').innerText()).toBe(`${words}.`);
    await checkPage(page, 'themes-alert-growth');
    await context.close();
  });
});
