/**
 * The published @feelback/js client in Chromium, on a page of its own origin, against the
 * local server: a visitor who votes and reloads sees the new count, because browsers must
 * revalidate the widgets' counts (docs/scaling.md: only the edge cache keeps them).
 */
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { REPO_ROOT } from '../../lib/paths';
import { createAccount, createContentSet, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { describeInBrowser, launchBrowser } from '../support/browser';

jest.setTimeout(120_000);

/** The site's page: shows the count of the one option of a pulse set, and a button that votes. */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Article</title></head>
<body><p>Likes: <output id="count">…</output></p><button id="vote">Like</button><p id="sent"></p>
<script type="module" src="/widget.js"></script></body></html>`;

const WIDGET = `
import { getFeelbackAggregates, sendFeelback } from '@feelback/js';
const params = new URLSearchParams(location.search);
const target = { endpoint: params.get('endpoint'), contentSetId: params.get('set'), key: '/article' };
getFeelbackAggregates(target).then((counts) => { document.getElementById('count').textContent = String(counts?.[0] ?? 0); });
document.getElementById('vote').addEventListener('click', async () => {
  await sendFeelback({ ...target, value: '+' });
  document.getElementById('sent').textContent = 'sent';
});
`;

describeInBrowser('the published widget client: vote, then reload', () => {
  let api: TestApi;
  let owner: AccountKeys;
  let site: Server;
  let browser: Browser;
  let siteUrl: string;

  beforeAll(async () => {
    api = await startTestApi();
    owner = await createAccount('widget-reload');
    const projectId = (await api.call('projects/create', [{ name: 'Blog' }], { key: owner.admin })).body.id;
    const contentSetId = await createContentSet(api, owner.admin, projectId, 'pulse', { metadata: { publicAggregates: true } });
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
});
