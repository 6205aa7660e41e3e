/**
 * The embed page's snippets and tag names in headless Chromium against the local server:
 * the plain HTML snippet, copied from the console, pasted into a blank page of its own origin,
 * records a vote and a tagged message through the API with no bundler; the code box hides no
 * line at 360 px or at desktop width; a set's own tag labels read the same in the
 * distribution, the filter, the responses and the live preview.
 *
 * The machine has no internet: the snippet's script and stylesheet URLs (jsDelivr's copy of
 * the npm package, what a real site loads) are answered from node_modules/@feelback/js, the
 * same published files, by intercepting exactly those URLs.
 */
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { ConsoleBuild } from '../../console/build';
import { FEELBACK_JS_CDN } from '../../console/src/lib/snippets';
import { REPO_ROOT } from '../../lib/paths';
import { createAccount, startTestApi, type AccountKeys, type TestApi, succeeded } from '../support/api';
import { buildTestConsole, checkPage, describeInBrowser, launchBrowser, pageOpener, screenshot, signInAt } from '../support/browser';
import { until } from '../support/webhook-receiver';

jest.setTimeout(180_000);

const TAGS = [
  { value: 'bug', sentiment: -1, label: 'Bug report', icon: '🐞' },
  { value: 'praise', sentiment: 1, label: 'Praise' },
  { value: 'question', sentiment: 0 },
];

describeInBrowser('console in Chromium: embed snippets and tag names', () => {
  let build: ConsoleBuild;
  let api: TestApi;
  let account: AccountKeys;
  let browser: Browser;
  let base: string;
  let site: Server;
  let siteOrigin: string;
  /** What the blank page serves: the pasted snippet, by path. */
  const sitePages = new Map<string, string>();
  const ids: Record<string, string> = {};

  const call = <T = any>(path: string, args: unknown[], key: string | undefined = account.admin) => succeeded<T>(api, path, args, key);

  const pages = pageOpener(() => browser);

  /** The HTML snippet as the embed page shows it (what a person copies). */
  async function htmlSnippet(page: Page, setId: string): Promise<string> {
    await page.goto(`${base}/sets/${setId}/embed`);
    await page.getByRole('tab', { name: /Plain HTML/ }).click();
    return page.getByTestId('snippet-html').innerText();
  }

  /** The CDN's files answered from the installed package; returns the paths asked for. */
  async function serveCdnLocally(page: Page): Promise<string[]> {
    const asked: string[] = [];
    await page.route(`${FEELBACK_JS_CDN}/**`, (route) => {
      const path = route.request().url().slice(FEELBACK_JS_CDN.length);
      asked.push(path);
      const file = join(REPO_ROOT, 'node_modules/@feelback/js', path);
      const contentType = path.endsWith('.css') ? 'text/css' : 'application/javascript';
      // jsDelivr answers with CORS open, which a module script from another origin needs.
      return route.fulfill({ status: 200, contentType, headers: { 'access-control-allow-origin': '*' }, body: readFileSync(file) });
    });
    return asked;
  }

  /** The set's responses, once `count` are there. */
  async function responsesOf(contentSetId: string, count: number): Promise<any[]> {
    let items: any[] = [];
    await until(
      async () => {
        items = (await call('responses/list', [{ contentSetId }])).items;
        return items.length >= count;
      },
      15_000,
      `${count} responses`,
    );
    return items;
  }

  beforeAll(async () => {
    build = await buildTestConsole();
    api = await startTestApi({ consoleDir: build.outdir });
    base = api.baseUrl.replace(/\/v0$/, '');
    account = await createAccount('console-embed');
    const projectId = (await call('projects/create', [{ name: 'Blog' }])).id;
    const create = async (key: string, schema: string, schemaConfig?: unknown) =>
      (await call('sets/create', [{ projectId, key, schema, schemaConfig, metadata: { name: key } }])).id as string;
    ids.yesNo = await create('helpful', 'yes-no');
    ids.tagged = await create('feedback', 'tagged-message', { tags: TAGS });
    site = createServer((request, response) => {
      const body = sitePages.get(new URL(request.url ?? '/', 'http://site').pathname);
      response.writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(body ?? 'not found');
    });
    await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((closed) => site?.close(closed));
    await api?.close();
    if (build) rmSync(build.outdir, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(pages.takeProblems()).toEqual([]);
  });

  test('the plain HTML snippet pasted into a blank page records a vote and a tagged message', async () => {
    const { context, page: consolePage } = await pages.newPage();
    await signInAt(consolePage, `${base}/sets/${ids.yesNo}/embed`, account.admin);
    const yesNoSnippet = await htmlSnippet(consolePage, ids.yesNo);
    const taggedSnippet = await htmlSnippet(consolePage, ids.tagged);
    const blank = (snippet: string) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Article</title></head><body><h1>Article</h1>\n${snippet}\n</body></html>`;
    sitePages.set('/helpful', blank(yesNoSnippet));
    sitePages.set('/feedback', blank(taggedSnippet));

    const { page } = await pages.newPage();
    const asked = await serveCdnLocally(page);
    await page.goto(`${siteOrigin}/helpful`);
    // The widget is set up once its buttons listen; the stylesheet applies (the buttons are styled by it).
    await page.getByTitle('Yes').waitFor();
    await until(async () => asked.includes('/dist/browser.js'), 10_000, 'the module loaded');
    await page.getByTitle('Yes').click();
    const [vote] = await responsesOf(ids.yesNo, 1);
    expect(vote.value).toBe('y');
    expect((await call('contents/get', [vote.contentItemId])).key).toBe(`${siteOrigin}/helpful`);
    await screenshot(page, 'html-snippet-vote');

    await page.goto(`${siteOrigin}/feedback`);
    await page.getByLabel('🐞 Bug report').check();
    await page.getByLabel('Message').fill('The search box loses focus.');
    await page.getByRole('button', { name: 'Send' }).click();
    const [message] = await responsesOf(ids.tagged, 1);
    expect(message.value).toEqual({ tag: 'bug', message: 'The search box loses focus.' });
    await screenshot(page, 'html-snippet-form');
    expect([...new Set(asked)].sort()).toEqual(['/dist/browser.js', '/styles/feelback.css']);
    await context.close();
  });

  test.each([
    ['phone', { width: 360, height: 740 }],
    ['desktop', { width: 1280, height: 900 }],
  ])('every snippet shows whole in its box (%s)', async (name, viewport) => {
    const { context, page } = await pages.newPage({ viewport });
    await signInAt(page, `${base}/sets/${ids.tagged}/embed`, account.admin);
    for (const tab of ['@feelback/react', 'astro-feelback', /Plain HTML/]) {
      await page.getByRole('tab', { name: tab }).click();
      const box = page.locator('.snippet:not([hidden]) pre');
      const overflow = await box.evaluate((element) => ({ hidden: element.scrollWidth - element.clientWidth, text: element.textContent?.length }));
      expect({ tab: String(tab), hidden: overflow.hidden }).toEqual({ tab: String(tab), hidden: 0 });
    }
    await checkPage(page, `embed-snippet-${name}`);
    await context.close();
  });

  test("a set's own tag labels read the same in the distribution, the filter, the responses and the preview", async () => {
    await call('responses/create', [{ contentSetId: ids.tagged, key: '/about', value: { tag: 'praise', message: 'Clear docs' } }], undefined);
    await call('responses/create', [{ contentSetId: ids.tagged, key: '/about', value: { tag: 'question' } }], undefined);
    await api.drainStream();
    const { context, page } = await pages.newPage();
    await signInAt(page, `${base}/sets/${ids.tagged}`, account.admin);
    const names = ['🐞 Bug report', 'Praise', 'question'];
    const distribution = page.locator('table.distribution tbody th');
    await distribution.first().waitFor();
    expect((await distribution.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())).toEqual(names);

    await page.goto(`${base}/sets/${ids.tagged}/responses`);
    await page.locator('[data-response]').first().waitFor();
    expect(await page.getByLabel('Tag').locator('option').allInnerTexts()).toEqual(expect.arrayContaining(names));
    await page.getByLabel('Tag').selectOption('praise');
    await page.locator('[data-response] .tag', { hasText: 'Praise' }).waitFor();

    await page.goto(`${base}/sets/${ids.tagged}/embed`);
    const preview = page.getByTestId('widget-preview');
    // The picker shows each tag's icon and label, as the console names it.
    for (const label of ['Bug report', 'Praise', 'question']) await preview.getByRole('button', { name: label }).waitFor();
    await expect(preview.getByRole('button', { name: 'Bug report' }).innerText()).resolves.toMatch(/🐞\s*Bug report/);
    await checkPage(page, 'embed-tags');
    await context.close();
  });
});
