/**
 * The digest and alert mails as a reader's mail client shows them (issue 41 §2): composed by
 * the service's own code (mail/compose.tsx), written as the `.eml` the files transport sends,
 * parsed back (mailparser) and rendered in Chromium at 600 px and 360 px, light and dark. Each
 * whole message stays under 100 KB; the HTML names its language, has one h1, loads nothing
 * (no remote image, no tracking pixel: Chromium makes no request), every image has a text
 * alternative, every link goes to the console or the unsubscribe URL; nothing scrolls
 * sideways; dark mode changes the colours; axe-core finds no serious violation. The digest
 * lists the week's rising themes (issue 40 §5).
 * Screenshots: .tmp/screenshots/mail-*.png.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import type { Browser } from 'playwright-core';
import type { AlertImage } from '../../functions/domain/alerts';
import type { DigestChange, DigestPage, ProjectDigest } from '../../functions/domain/digest';
import { scoreChange, scoreInterval, type ProportionSample } from '../../functions/domain/statistics';
import { composeAlert, composeDigest, MAIL_SIZE_LIMIT, type ComposedMail } from '../../functions/mail/compose';
import type { MailFrame } from '../../functions/mail/templates';
import { createMailTransport } from '../../functions/mail/transport';
import { REPO_ROOT } from '../../lib/paths';
import { describeInBrowser, launchBrowser, screenshot, seriousViolations } from '../support/browser';

jest.setTimeout(120_000);

const CONSOLE = 'https://console.example.com';
const UNSUBSCRIBE = 'https://console.example.com/v0/mail/unsubscribe?token=eyJhbGciOiJIUzI1NiJ9.e30.signature';

const proportion = (successes: number, n: number): ProportionSample => ({ kind: 'proportion', successes, n });
const interval = (successes: number, n: number) => scoreInterval(proportion(successes, n))!;

function page(id: string, name: string, successes: number, n: number): DigestPage {
  return { contentItemId: id, contentSetId: 'set-1', name, count: n, score: interval(successes, n) };
}

function change(id: string, name: string, now: [number, number], before: [number, number]): DigestChange {
  return {
    ...page(id, name, ...now),
    previous: { count: before[1], score: interval(...before) },
    change: scoreChange(proportion(...now), proportion(...before))!,
  };
}

const ALERT: AlertImage = {
  id: 'alert-1',
  accountId: 'account-1',
  projectId: 'project-1',
  contentSetId: 'set-1',
  entity: 'contentItem',
  entityId: 'item-getting-started',
  name: 'Getting started',
  schema: 'yes-no',
  measure: 'share',
  url: `${CONSOLE}/items/item-getting-started`,
  current: { score: interval(10, 30), count: 30, from: '2026-11-30', to: '2026-12-06' },
  previous: { score: interval(48, 60), count: 60, from: '2026-11-02', to: '2026-11-29' },
  change: scoreChange(proportion(10, 30), proportion(48, 60))!,
  createdAt: '2026-12-05T09:00:00.000Z',
};

/** A full week: every section of the digest, with names as long as users write them. */
const DIGEST: ProjectDigest = {
  projectId: 'project-1',
  projectName: 'Acme developer documentation',
  week: { from: '2026-11-30', to: '2026-12-06' },
  previousWeek: { from: '2026-11-23', to: '2026-11-29' },
  responses: { count: 1234, previous: 1100, change: { difference: 134, percentage: 12 } },
  schemas: [
    {
      schema: 'yes-no',
      measure: 'share',
      worst: [
        page('item-getting-started', 'Getting started', 10, 30),
        page('item-auth', 'Authentication with OAuth 2.0 and OpenID Connect: a step-by-step guide for single-page applications', 22, 45),
        page('item-webhooks', 'Webhooks', 31, 52),
      ],
      changes: [change('item-getting-started', 'Getting started', [10, 30], [48, 60]), change('item-search', 'Search', [70, 80], [40, 75])],
      best: [page('item-install', 'Installing the CLI', 95, 100), page('item-faq', 'Frequently asked questions', 180, 200)],
    },
  ],
  alerts: [ALERT],
  risingThemes: [
    {
      contentSetId: 'set-1',
      name: 'Was this page helpful?',
      tags: ['no'],
      themes: [
        { id: 'theme-1', label: 'code sample broken', count: 12, of: 31, previous: { count: 2, of: 40 } },
        { id: 'theme-2', label: 'outdated for v4 of the SDK and the old screenshots of the setup wizard', count: 7, of: 31, previous: { count: 1, of: 40 } },
      ],
      phrases: [{ text: 'charged twice', count: 9, of: 31, previous: { count: 1, of: 40 } }],
    },
  ],
};

const FRAME = (stops: string): MailFrame => ({
  accountName: 'Acme docs',
  consoleUrl: CONSOLE,
  unsubscribeUrl: UNSUBSCRIBE,
  stops,
  because: 'You get this as a member of Acme docs.',
});

interface Rendered {
  name: string;
  composed: ComposedMail;
  raw: Buffer;
  parsed: ParsedMail;
}

describeInBrowser('the digest and alert mails in Chromium', () => {
  let browser: Browser;
  let outbox: string;
  const mails: Rendered[] = [];

  beforeAll(async () => {
    outbox = mkdtempSync(join(REPO_ROOT, '.tmp/mail-render-'));
    const transport = createMailTransport({ kind: 'files', dir: outbox }, { print: () => undefined });
    const composed: [string, ComposedMail][] = [
      ['digest', await composeDigest(DIGEST, FRAME('the weekly digest for Acme docs'))],
      ['alert', await composeAlert(ALERT, FRAME('alert mails for Acme docs'))],
    ];
    for (const [name, mail] of composed) {
      const sent = await transport.send({
        from: 'Feedback <feedback@example.com>',
        to: 'ada@example.com',
        ...mail,
        unsubscribeUrl: UNSUBSCRIBE,
        accountId: 'account-1',
        kind: name === 'digest' ? 'digest' : 'alerts',
      });
      const raw = readFileSync(sent.file!);
      mails.push({ name, composed: mail, raw, parsed: await simpleParser(raw) });
    }
    transport.close();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    if (outbox) rmSync(outbox, { recursive: true, force: true });
  });

  test('each whole message is under 100 KB, with HTML and text parts that say the same', () => {
    for (const mail of mails) {
      expect({ mail: mail.name, underLimit: mail.raw.length < MAIL_SIZE_LIMIT }).toEqual({ mail: mail.name, underLimit: true });
      expect(mail.parsed.html).toBeTruthy();
      expect(mail.parsed.text).toContain('Getting started');
      if (mail.name === 'digest')
        expect(String(mail.parsed.text).replace(/\s+/g, ' ')).toMatch(/Rising themes .*code sample broken \S+ 12 of 31, up from 2 of 40/);
      process.stdout.write(
        `${mail.name} mail: ${mail.raw.length} bytes (HTML ${Buffer.byteLength(mail.composed.html)}, text ${Buffer.byteLength(mail.composed.text)})\n`,
      );
    }
    expect(mails.find((mail) => mail.name === 'digest')!.parsed.subject).toBe(
      'Getting started: helpful fell from 80% to 33% · Acme developer documentation, week of 30 Nov',
    );
  });

  test('lang, one h1, no remote image or tracking pixel, text alternatives, links only to the console and the unsubscribe URL', () => {
    for (const { name, parsed } of mails) {
      const html = parsed.html as string;
      expect({ name, lang: /<html[^>]*\slang="en"/.test(html) }).toEqual({ name, lang: true });
      expect({ name, h1: html.match(/<h1[\s>]/g)?.length }).toEqual({ name, h1: 1 });
      // Nothing that loads: no src, no background attribute, no CSS url(), no @import.
      expect({ name, loads: html.match(/\s(src|background|srcset)=|url\(|@import/gi) ?? [] }).toEqual({ name, loads: [] });
      // Every image (the interval bars are tables with role="img") has its text alternative.
      const images = html.match(/<img\b[^>]*>|<[a-z]+\b[^>]*role="img"[^>]*>/g) ?? [];
      expect({ name, withoutText: images.filter((tag) => !/\s(alt|aria-label)="[^"]+"/.test(tag)) }).toEqual({ name, withoutText: [] });
      const links = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1].replace(/&amp;/g, '&'));
      expect(links.length).toBeGreaterThan(2);
      expect({ name, elsewhere: links.filter((link) => !link.startsWith(`${CONSOLE}/`)) }).toEqual({ name, elsewhere: [] });
      expect(links).toContain(UNSUBSCRIBE);
    }
  });

  for (const width of [600, 360]) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`at ${width} px, ${scheme}: loads nothing, fits the width, the scheme's colours, axe-clean`, async () => {
        const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
        try {
          for (const { name, parsed } of mails) {
            const page = await context.newPage();
            const requests: string[] = [];
            page.on('request', (request) => requests.push(request.url()));
            await page.setContent(parsed.html as string, { waitUntil: 'load' });
            await screenshot(page, `mail-${name}-${width}-${scheme}`);
            expect({ name, requests }).toEqual({ name, requests: [] });
            expect({ name, scrollWidth: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ name, scrollWidth: width });
            const colours = await page.evaluate(() => {
              const card = document.querySelector('.fb-card')!;
              const heading = document.querySelector('h1')!;
              return { card: getComputedStyle(card).backgroundColor, heading: getComputedStyle(heading).color };
            });
            expect({ name, colours }).toEqual({
              name,
              colours:
                scheme === 'light' ? { card: 'rgb(255, 255, 255)', heading: 'rgb(31, 35, 40)' } : { card: 'rgb(22, 27, 34)', heading: 'rgb(230, 237, 243)' },
            });
            // The card is the mail's full width on a phone, and at most 600 px.
            const card = await page.locator('.fb-card').boundingBox();
            expect(card!.width).toBeLessThanOrEqual(600);
            expect({ name, violations: await seriousViolations(page) }).toEqual({ name, violations: [] });
            await page.close();
          }
        } finally {
          await context.close();
        }
      });
    }
  }
});
