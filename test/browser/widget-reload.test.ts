/**
 * The published @feelback/js client in Chromium, on a page of its own origin, against the
 * local server: a visitor who votes and reloads sees the new count, because browsers must
 * revalidate the widgets' counts (docs/scaling.md: only the edge cache keeps them); the
 * same visitor voting again from a private window is still one vote (the set's
 * onePerVisitor), and another visitor's counts.
 */
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { REPO_ROOT } from '../../lib/paths';
import { request as httpRequest } from 'node:http';
import { createAccount, createContentSet, startTestApi, tableSnapshot, type AccountKeys, type TestApi } from '../support/api';
import { describeInBrowser, launchBrowser } from '../support/browser';

jest.setTimeout(120_000);

/** The user agent of the other visitor, who votes from another address. */
const OTHER_AGENT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15';

/** The site's page: shows the count of the one option of a pulse set, and a button that votes. */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Article</title></head>
<body><p>Likes: <output id="count">…</output></p><button id="vote">Like</button><p id="sent"></p>
<script type="module" src="/widget.js"></script></body></html>`;

const WIDGET = `
import { getFeelbackAggregates, getFeelbackStore, sendFeelback } from '@feelback/js';
const params = new URLSearchParams(location.search);
const target = { endpoint: params.get('endpoint'), contentSetId: params.get('set'), key: '/article' };
getFeelbackAggregates(target).then((counts) => { document.getElementById('count').textContent = String(counts?.[0] ?? 0); });
document.getElementById('vote').addEventListener('click', async () => {
  await sendFeelback({ ...target, value: '+' });
  document.getElementById('sent').textContent = 'sent ' + getFeelbackStore().getRevocable(target)?.feelbackId;
});
`;

describeInBrowser('the published widget client: vote, then reload', () => {
  let api: TestApi;
  let owner: AccountKeys;
  let site: Server;
  let browser: Browser;
  let siteUrl: string;
  let contentSetId: string;

  /** responses/create from a chosen client address and user agent (fetch cannot pick its source address): the response id. */
  function anonymousCreate(input: unknown, localAddress: string, userAgent: string): Promise<string> {
    const url = new URL(`${api.baseUrl}/responses/create`);
    const body = JSON.stringify([input]);
    return new Promise((resolve, reject) => {
      const headers = { 'content-type': 'application/json', 'user-agent': userAgent, 'content-length': String(Buffer.byteLength(body)) };
      const sent = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, headers }, (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve(JSON.parse(text).responseId));
      });
      sent.on('error', reject);
      sent.end(body);
    });
  }

  beforeAll(async () => {
    api = await startTestApi();
    owner = await createAccount('widget-reload');
    const projectId = (await api.call('projects/create', [{ name: 'Blog' }], { key: owner.admin })).body.id;
    contentSetId = await createContentSet(api, owner.admin, projectId, 'pulse', { metadata: { publicAggregates: true } });
    const bundle = await build({
      stdin: { contents: WIDGET, resolveDir: REPO_ROOT, loader: 'js' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
    });
    const script = bundle.outputFiles[0].text;
    site = createServer((request, response) => {
      const isScript = request.url === '/widget.js';
      response.writeHead(200, { 'Content-Type': isScript ? 'text/javascript' : 'text/html; charset=utf-8' });
      response.end(isScript ? script : PAGE);
    });
    await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
    const { port } = site.address() as AddressInfo;
    siteUrl = `http://127.0.0.1:${port}/article?endpoint=${encodeURIComponent(api.baseUrl)}&set=${contentSetId}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((closed) => site?.close(closed));
    await api?.close();
  });

  test('the count after a reload includes the vote', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(siteUrl);
    await page.locator('#count', { hasText: '0' }).waitFor();
    const counts = page.waitForResponse((response) => response.url().includes('getAggregates'));
    await page.getByRole('button', { name: 'Like' }).click();
    await page.locator('#sent', { hasText: 'sent' }).waitFor();
    await api.drainStream();
    await page.reload();
    // The browser asked the server again instead of answering from its own cache.
    expect((await counts).headers()['cache-control']).toMatch(/max-age=0/);
    await page.locator('#count', { hasText: '1' }).waitFor({ timeout: 10_000 });
  });

  test('a second vote from the same visitor (a private window) is the same vote; another visitor counts', async () => {
    const first = await (await browser.newContext()).newPage();
    await first.goto(siteUrl);
    const firstId = (await first.locator('#sent').textContent()) ?? '';
    await first.getByRole('button', { name: 'Like' }).click();
    await first.locator('#sent', { hasText: /^sent \S+$/ }).waitFor();
    const voted = ((await first.locator('#sent').textContent()) ?? '').slice('sent '.length);
    expect(firstId).toBe('');
    await api.drainStream();
    await first.reload();
    const counted = Number(await first.locator('#count', { hasText: /^\d+$/ }).textContent());

    // A new context has none of the first one's storage: the published widget sends a new create.
    const privateWindow = await (await browser.newContext()).newPage();
    await privateWindow.goto(siteUrl);
    await privateWindow.getByRole('button', { name: 'Like' }).click();
    await privateWindow.locator('#sent', { hasText: `sent ${voted}` }).waitFor();
    await api.drainStream();
    await privateWindow.reload();
    await privateWindow.locator('#count', { hasText: String(counted) }).waitFor({ timeout: 10_000 });

    // Another visitor: another address and browser.
    const other = await anonymousCreate({ contentSetId, key: '/article', value: '+' }, '127.0.0.2', OTHER_AGENT);
    expect(other).not.toBe(voted);
    await api.drainStream();
    await privateWindow.reload();
    await privateWindow.locator('#count', { hasText: String(counted + 1) }).waitFor({ timeout: 10_000 });

    // Neither visitor's address nor user agent was stored.
    const userAgent = await privateWindow.evaluate(() => navigator.userAgent);
    const table = JSON.stringify(await tableSnapshot());
    for (const secret of [userAgent, OTHER_AGENT, '127.0.0.1', '127.0.0.2']) expect(table).not.toContain(secret);
  });
});
