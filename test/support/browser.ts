/**
 * Browser tests: Debian's Chromium headless shell (`apt-get install chromium-headless-shell`,
 * else its full `chromium`; CHROMIUM_PATH overrides) driven by playwright-core, against the local server serving the run's console build.
 * Without a Chromium the browser suites are skipped with a one-line notice; CI installs it.
 */
import { execSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildConsole, type ConsoleBuild } from '../../console/build';
import { REPO_ROOT } from '../../lib/paths';
import { sharedInRun } from './run-shared';

export const SCREENSHOT_DIR = join(REPO_ROOT, '.tmp/screenshots');

/**
 * The headless shell first: the same Blink and V8 as the full browser without its windowing
 * and UI layers (what Playwright itself runs for headless tests). On the console's suites it
 * spent about half the CPU of the full `chromium` (measured in the closing note of 2026-11-28).
 */
export function findChromium(): string | undefined {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : undefined;
  for (const name of ['chromium-headless-shell', 'chromium', 'chromium-browser']) {
    try {
      const found = execSync(`command -v ${name}`, { stdio: ['ignore', 'pipe', 'ignore'], shell: '/bin/sh' })
        .toString()
        .trim();
      if (found) return found;
    } catch {
      // not installed under this name
    }
  }
  return undefined;
}

const chromiumPath = findChromium();

/**
 * `describe` when a Chromium is installed; otherwise the suite is skipped, with one line saying
 * so, except under CI=true: there a missing browser fails the suite, so that CI cannot pass
 * without the console's tests.
 */
export function describeInBrowser(name: string, body: () => void): void {
  if (chromiumPath) {
    describe(name, body);
    return;
  }
  const required = process.env.CI === 'true';
  process.stdout.write(
    `\nNOTICE: browser tests "${name}" ${required ? 'fail' : 'skipped'}: no Chromium found (install Debian's chromium-headless-shell, or set CHROMIUM_PATH)${required ? ', and CI=true needs them run' : ''}\n`,
  );
  if (required) {
    describe(name, () => {
      test('has a Chromium to run in', () => {
        expect(chromiumPath).toBeDefined();
      });
    });
    return;
  }
  describe.skip(name, body);
}

let buildCount = 0;

/**
 * A console build of this test file's own (files run in parallel, and each removes its
 * own when done): a copy of the run's one build (run-shared.ts), which the first browser
 * file makes, rather than an esbuild run per file.
 */
export async function buildTestConsole(): Promise<ConsoleBuild> {
  const shared = await sharedInRun('console-build', async (partial) => {
    const made = await buildConsole({ outdir: join(partial, 'files') });
    writeFileSync(join(partial, 'build.json'), JSON.stringify({ ...made, outdir: undefined }));
  });
  const outdir = join(REPO_ROOT, `.tmp/console-test-${process.pid}-${buildCount++}`);
  rmSync(outdir, { recursive: true, force: true });
  cpSync(join(shared, 'files'), outdir, { recursive: true });
  return { ...(JSON.parse(readFileSync(join(shared, 'build.json'), 'utf8')) as Omit<ConsoleBuild, 'outdir'>), outdir };
}

export async function launchBrowser(): Promise<Browser> {
  if (!chromiumPath) throw new Error('no Chromium');
  // Root in CI and containers: Chromium's sandbox needs user namespaces it may not get.
  return chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/**
 * A page that records what must never happen: uncaught errors and CSP violations (the
 * console runs under the same CSP as on CloudFront). `problems` is checked by the tests.
 */
export async function openPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (execute|apply|load|connect)/i.test(text)) problems.push(`CSP: ${text}`);
  });
  return { page, problems };
}

/**
 * Whether `screenshot` writes its file. The screenshots are for a person reading a run; no
 * test reads them. A full-page PNG costs Chromium 0.1 to 0.35 CPU s by the page's size (measured
 * 2026-12-07: console-phone.test.ts took 26.3 CPU s with its 16 and 25.0 without; 20 of a 4,000 px
 * page, 6.9 s), and the console's suites take about 70: in a CI run (CI=true), which nobody
 * looks at, they are skipped unless SCREENSHOTS=1. SCREENSHOTS=0 skips them anywhere.
 */
const TAKE_SCREENSHOTS = process.env.SCREENSHOTS ? process.env.SCREENSHOTS === '1' : process.env.CI !== 'true';

export async function screenshot(page: Page, name: string): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

/**
 * axe-core on the page as it is (WCAG 2.x A and AA rules and best practices); the serious
 * and critical violations. axe is evaluated through the DevTools protocol, which the page's
 * CSP does not restrict, so the page keeps its real policy.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations as AxeViolation[];
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ ...violation, nodes: violation.nodes.slice(0, 3).map((node) => ({ target: node.target, html: node.html.slice(0, 200) })) }));
}

/** Pages in contexts of their own (desktop size unless told); each page's problems (openPage) are kept for `takeProblems`. */
export function pageOpener(browser: () => Browser) {
  const problems: string[][] = [];
  return {
    async newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, ...options });
      const opened = await openPage(context);
      problems.push(opened.problems);
      return { context, page: opened.page };
    },
    /** Every problem recorded since the last call, for the test to expect none. */
    takeProblems: (): string[] => problems.splice(0).flat(),
  };
}

/**
 * The teardown of a console suite: after each test, no page recorded a problem; after all,
 * the browser, the server and the console build are gone. `parts` is read when they run
 * (the suite assigns them in its beforeAll).
 */
export function tearDownConsoleSuite(
  pages: { takeProblems(): string[] },
  parts: () => { browser?: Browser; api?: { close(): Promise<void> }; build?: ConsoleBuild },
): void {
  afterEach(() => {
    expect(pages.takeProblems()).toEqual([]);
  });
  afterAll(async () => {
    const { browser, api, build } = parts();
    await browser?.close();
    await api?.close();
    if (build) rmSync(build.outdir, { recursive: true, force: true });
  });
}

/** Signs in on the console's sign-in page shown at `url`, as a person would, and waits for the signed-in page. */
export async function signInAt(page: Page, url: string, key: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** From the console's sign-in page through the provider's login page (npm start's local one), back to the console. */
export async function signInThrough(page: Page, issuer: string, base: string, login: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.origin === issuer);
  await page.getByLabel('Login name').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === base);
}

/** Once nothing is loading: a screenshot, one h1, and axe-core finding no serious or critical violation. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('.loading'), undefined, { timeout: 20_000 }).catch(() => undefined);
  await screenshot(page, name);
  expect(await page.locator('h1').count()).toBe(1);
  expect({ page: name, violations: await seriousViolations(page) }).toEqual({ page: name, violations: [] });
}
