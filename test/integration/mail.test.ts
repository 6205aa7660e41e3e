/**
 * Mail end to end against a real SMTP server on loopback (`smtp-server`, parsed with
 * `mailparser`): members with different preferences get exactly their mails (alerts at
 * once, a day's alerts, the weekly digest), once also when the jobs run again or overlap;
 * the headers (RFC 8058 one-click unsubscribe); the unsubscribe link (a GET changes
 * nothing, a POST unsubscribes, an altered token changes nothing); a bounce suppresses the
 * address; a transient refusal is retried, a permanent one recorded; a removed member gets
 * nothing; members/sendDigest mails oneself only.
 */
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';

import { type ParsedMail, simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { ANONYMOUS } from '../../functions/api/auth';
import type { ResponseCreateModel } from '../../functions/api/response-models';
import { KEY_CLI_ACTOR } from '../../functions/domain/audit';
import { mailAlerts } from '../../functions/jobs/alert-mail';
import { runAlerts } from '../../functions/jobs/alerts';
import { runDigests, sendProjectDigest } from '../../functions/jobs/digest';
import { applySesEvents } from '../../functions/mail/bounces';
import { digestOnce, openMail, type MailContext } from '../../functions/mail/mails';
import { createInvitation } from '../../functions/operations/members';
import { createResponse } from '../../functions/operations/response-collection';
import { defaultStore } from '../../functions/store/entity-store';
import { mailRecord } from '../../functions/store/mail';
import { addBuckets, bucketKey, bucketStart } from '../../shared/periods';
import { createAccount, createContentSet, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer';

jest.setTimeout(180_000);

interface Received {
  to: string[];
  mail: ParsedMail;
  raw: string;
}

const { store } = defaultStore();
const DAY = 86_400_000;
const now = new Date();

let api: TestApi;
let idp: TestIssuer;
let keys: AccountKeys;
let smtp: SMTPServer;
let projectId: string;
const inbox: Received[] = [];
/** Addresses the SMTP server refuses: `once` with 451 the first time, `always` with 550. */
const refusals = new Map<string, 'once' | 'always'>();
const people: Record<string, { token: string; id: string; address: string }> = {};
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** The URL of a mail's List-Unsubscribe header, which must be exactly one `<url>`. */
function unsubscribeUrlOf(received: Received): string {
  const head = received.raw.slice(0, received.raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, '');
  const lines = head.split('\r\n').filter((line) => /^List-Unsubscribe:/i.test(line));
  expect(lines).toHaveLength(1);
  const header = lines[0].replace(/^List-Unsubscribe:\s*/i, '');
  const match = /^<([^<>]+)>$/.exec(header ?? '');
  if (!match) throw new Error(`List-Unsubscribe is not one URL: ${header}`);
  return match[1];
}
const to = (who: string) => inbox.filter((received) => received.to.includes(people[who].address));

function mail(): MailContext {
  // Sleeps of the retry backoff are real but short: the random factor is small.
  return openMail(store, { random: () => 0.01 })!;
}

async function join(subject: string, role: 'owner' | 'admin' | 'viewer') {
  const invitation = await createInvitation(
    store,
    { accountId: keys.accountId, email: `${subject}@invited.example`, role, inviter: KEY_CLI_ACTOR },
    'http://x',
    new Date(),
  );
  const token = await idp.token(subject);
  const answer = await api.call('members/accept', [invitation.url.split('#')[1]], bearer(token));
  expect(answer.status).toBe(200);
  people[subject] = { token, id: answer.body.person.memberId, address: `${subject}@example.com` };
}

async function history(contentSetId: string, key: string, yes: number, no: number, days: number[]) {
  const values = [...Array<'y'>(yes).fill('y'), ...Array<'n'>(no).fill('n')];
  await Promise.all(
    values.map((value, index) =>
      createResponse(
        store,
        ANONYMOUS,
        { contentSetId, key, value: value as ResponseCreateModel['value'] },
        { headers: {} },
        new Date(now.getTime() - days[index % days.length] * DAY),
      ),
    ),
  );
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = refusals.get(address.address);
      if (refusal === 'always') return callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
      if (refusal === 'once') {
        refusals.delete(address.address);
        return callback(Object.assign(new Error('4.7.1 Try again later'), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        inbox.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), mail: await simpleParser(raw), raw });
        callback();
      });
    },
  });
  await new Promise<void>((listening) => smtp.listen(0, '127.0.0.1', () => listening()));
  idp = await startTestIssuer();
  process.env.OIDC_ISSUER = idp.issuer;
  process.env.OIDC_CLIENT_ID = idp.clientId;
  api = await startTestApi();
  process.env.CONSOLE_URL = new URL(api.baseUrl).origin;
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  process.env.MAIL_FROM = 'Feedback <feedback@example.com>';
  process.env.MAIL_RATE_PER_SECOND = '50';
  process.env.MAIL_TOKEN_KEY = Buffer.alloc(32, 7).toString('base64');

  keys = await createAccount('mail');
  // Names stored before any rule on them (or by the operator): a line break and an override character must not reach a header.
  await store.entities.Account.patch({ id: keys.accountId }).set({ displayName: 'Acme docs\r\nBcc: victim@example.com' }).go();
  await join('ada', 'owner'); // defaults: the digest, alerts at once
  await join('grace', 'viewer'); // sets the digest on and alerts daily, below
  await join('linus', 'viewer'); // defaults: nothing
  await join('barbara', 'admin'); // removed before the digest goes out
  expect((await api.call('members/setNotifications', [{ weeklyDigest: true, alerts: 'daily' }], bearer(people.grace.token))).status).toBe(200);

  projectId = (await api.call('projects/create', [{ name: 'Docs' }], { key: keys.admin })).body.id;
  await store.entities.Project.patch({ id: projectId }).set({ name: 'Docs\u202e\r\nSubject: forged' }).go();
  const setId = await createContentSet(api, keys.admin, projectId, 'yes-no', { metadata: { name: 'Helpful?' } });
  await api.call('contents/create', [{ contentSetId: setId, key: 'getting-started', metadata: { title: 'Getting started' } }], { key: keys.admin });
  await Promise.all([
    history(setId, 'getting-started', 40, 10, range(7, 34)),
    history(setId, 'reference', 40, 10, range(7, 34)),
    history(setId, 'getting-started', 10, 20, range(0, 6)),
    history(setId, 'reference', 40, 10, range(0, 6)),
  ]);
  await api.drainStream({ rank: false });
});

afterAll(async () => {
  await api.close();
  await idp.close();
  await new Promise<void>((closed) => smtp.close(() => closed()));
});

test('an alert goes at once to the owner and the admin (alerts: immediately by default) and to nobody else; a second run sends nothing', async () => {
  const context = mail();
  const first = await runAlerts(store, new Date(), { mail: context });
  context.sender.close();
  // The page got worse (its set too, as the alerts job decides): each alert to the two.
  const raised = first.alerts.length;
  expect(raised).toBeGreaterThanOrEqual(1);
  expect(first.mail).toMatchObject({ alerts: raised, sent: 2 * raised });
  expect(to('ada')).toHaveLength(raised);
  expect(to('barbara')).toHaveLength(raised);
  expect(inbox).toHaveLength(2 * raised);
  const alert = to('ada').find((received) => received.mail.subject?.startsWith('Getting started'))!;
  expect(alert.mail.subject).toMatch(/^Getting started: helpful fell from \d+% to \d+%$/);
  expect(alert.mail.text).toMatch(
    /Getting started.*helpful fell from \d+% \(\d+-\d+%\) to \d+% \(\d+-\d+%\)\s+over\s+the\s+last\s+7\s+days,\s+\d+\s+responses/s,
  );
  // Why it fired: its p-value under the day's threshold (shared/alert-significance.ts).
  expect(alert.mail.text).toMatch(
    /responses\.\s+p\s+(=\s+0\.\d+|<\s+0\.000001),\s+under\s+0\.\d+,\s+the\s+threshold\s+of\s+the\s+day’s\s+\d+\s+tests?\s+at\s+a\s+5%\s+false\s+discovery\s+rate\./,
  );

  const again = mail();
  const second = await runAlerts(store, new Date(), { mail: again });
  // Overlapping mail runs of the same alerts send nothing twice either.
  await Promise.all([mailAlerts(store, new Date(), again, false), mailAlerts(store, new Date(), again, false)]);
  again.sender.close();
  expect(second.mail?.sent).toBe(0);
  expect(inbox).toHaveLength(2 * raised);
});

test("the day after, grace (alerts: daily) gets one mail listing the day's alerts, once", async () => {
  const tomorrow = new Date(now.getTime() + DAY);
  const context = mail();
  const daily = await mailAlerts(store, tomorrow, context, true);
  const repeat = await mailAlerts(store, tomorrow, context, true);
  context.sender.close();
  expect(daily.sent).toBe(1);
  expect(repeat.sent).toBe(0);
  expect(to('grace')).toHaveLength(1);
  expect(to('grace')[0].mail.subject).toMatch(
    /^(Getting started: helpful fell from \d+% to \d+% \(alerts of \d+ \w+\)|\d+ alerts on \d+ \w+: .+: \w+ fell from .+, and more)$/,
  );
  expect(to('grace')[0].mail.text).toMatch(/Getting started.*helpful fell from \d+%/s);
  expect(to('linus')).toHaveLength(0);
});

test('the weekly digest: exactly the members who want it, once per member, project and week, also when runs overlap', async () => {
  const remove = await api.call('members/remove', [people.barbara.id], bearer(people.ada.token));
  expect(remove.status).toBe(204);
  const before = inbox.length;
  // This Monday 09:00: the last complete week is the one before this, 1 to 7 days ago, all of it with responses.
  const at = new Date(bucketStart('week', now).getTime() + 9 * 3600_000);
  const context = mail();
  const [run, overlapping] = await Promise.all([
    runDigests(store, at, context),
    sendProjectDigest(store, { accountId: keys.accountId, projectId }, at, true, { webhooks: false, mail: context }),
  ]);
  const again = await sendProjectDigest(store, { accountId: keys.accountId, projectId }, at, true, { webhooks: false, mail: context });
  context.sender.close();
  expect(run.ran).toBe(true);
  expect(again?.mailed.length).toBeGreaterThanOrEqual(2);
  expect(again?.mailed.every((outcome) => outcome.state === 'duplicate')).toBe(true);
  expect(overlapping?.mailed.filter((outcome) => outcome.state === 'sent').length ?? 0).toBeLessThanOrEqual(2);
  const digests = inbox.slice(before);
  expect(digests.map((received) => received.to[0]).sort()).toEqual([people.ada.address, people.grace.address]);
  const week = { from: bucketKey('day', addBuckets('week', bucketStart('week', now), -1)), to: '' };
  expect(await mailRecord(store, digestOnce(people.ada.id, { projectId, week }))).toMatchObject({ state: 'sent' });
  // The removed admin and the viewer on defaults got nothing.
  expect(to('barbara').filter((received) => received.mail.subject?.includes('week of'))).toHaveLength(0);
  expect(to('linus')).toHaveLength(0);
});

describe('what a digest mail is', () => {
  let digest: Received;
  beforeAll(() => {
    digest = to('ada').find((received) => received.mail.subject?.includes('week of'))!;
  });

  test('headers: from, to, a subject with the news and no injected line, RFC 8058 one-click unsubscribe', () => {
    const { mail: parsed, raw } = digest;
    expect(parsed.from?.value).toEqual([{ address: 'feedback@example.com', name: 'Feedback' }]);
    expect(parsed.to).toMatchObject({ value: [{ address: people.ada.address }] });
    // The news first; the project's name on one line, without its override character.
    expect(parsed.subject).toMatch(/^.+ · Docs Subject: forged, week of \d+ \w+$/);
    expect(unsubscribeUrlOf(digest)).toMatch(new RegExp(`^${process.env.CONSOLE_URL}/v0/mail/unsubscribe\\?token=[\\w.-]+$`));
    const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
    expect(head.split('\r\n')).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    // No header line made of a name: the only Subject is ours, and no Bcc.
    expect(head.match(/^Subject:/gim)).toHaveLength(1);
    expect(head).not.toMatch(/^Bcc:/im);
    expect(head).not.toMatch(/\u202e/);
  });

  test('HTML and text, lang, headings, no images or tracking, names escaped, the footer names what it stops, under 100 KB', () => {
    const html = String(digest.mail.html);
    expect(html).toMatch(/<html[^>]* lang="en"/);
    expect(html).toMatch(/<h1[^>]*>/);
    expect(html).toMatch(/<h2[^>]*>Needs attention \(was this helpful\)/);
    expect(html).toMatch(/<h2[^>]*>Alerts this week/);
    expect(html).not.toMatch(/<img|<script|src=|url\(/i);
    // The intervals are drawn as table cells, each bar with its text alternative.
    expect(html).toMatch(/role="img" aria-label="95% interval: \d+%, 95% interval \d+% to \d+%"/);
    expect(html).not.toMatch(/\u202e|Acme docs\r?\nBcc/);
    const text = String(digest.mail.text).replace(/\s+/g, ' ');
    expect(text).toMatch(/Unsubscribe from the weekly digest for Acme docs Bcc: victim@example.com http/);
    expect(text).toMatch(/Needs attention \(was this helpful\) Getting started http\S+ \d+% \(\d+% to \d+%\), \d+ responses/);
    expect(Buffer.byteLength(digest.raw)).toBeLessThan(100 * 1024);
    // Every link goes to the console or the unsubscribe endpoint, as is (no click tracking).
    for (const [, href] of html.matchAll(/href="([^"]+)"/g)) expect(href.startsWith(String(process.env.CONSOLE_URL))).toBe(true);
  });
});

describe('one-click unsubscribe', () => {
  let url: string;
  const prefs = async (who: string) => (await api.call('members/notifications', [], bearer(people[who].token))).body.preferences;
  beforeAll(() => {
    url = unsubscribeUrlOf(to('grace').find((received) => received.mail.subject?.includes('week of'))!);
  });

  test('a GET shows a page with a button and changes nothing', async () => {
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<form action="\?token=[\w.-]+" method="post">/);
    expect(html).toMatch(/<button type="submit">Unsubscribe from the weekly digest for Acme docs/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await prefs('grace')).toMatchObject({ weeklyDigest: true });
  });

  test('an altered or forged token changes nothing and says so', async () => {
    const token = new URL(url).searchParams.get('token')!;
    const [header, payload, signature] = token.split('.');
    const altered = Buffer.from(payload, 'base64url').toString().replace(people.grace.id, people.ada.id);
    for (const bad of [`${header}.${Buffer.from(altered).toString('base64url')}.${signature}`, `${token.slice(0, -3)}abc`, 'not-a-token']) {
      const answer = await fetch(`${process.env.CONSOLE_URL}/v0/mail/unsubscribe?token=${encodeURIComponent(bad)}`, {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toMatch(/not valid.*nothing was changed/s);
    }
    expect(await prefs('grace')).toMatchObject({ weeklyDigest: true });
    expect(await prefs('ada')).toMatchObject({ weeklyDigest: true });
  });

  test("a POST (RFC 8058's body) unsubscribes at once, audited; the next digest skips them; resubscribing is theirs", async () => {
    const answer = await fetch(url, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toMatch(/You are unsubscribed/);
    expect(await prefs('grace')).toEqual({ weeklyDigest: false, alerts: 'daily' });
    const audit = await api.call('audit/list', [{ operation: 'mail/unsubscribe' }], { key: keys.admin });
    expect(audit.body.items).toEqual([
      expect.objectContaining({ operation: 'mail/unsubscribe', actor: expect.objectContaining({ memberId: people.grace.id }) }),
    ]);

    const before = inbox.length;
    const context = mail();
    const sent = await sendProjectDigest(store, { accountId: keys.accountId, projectId }, new Date(), false, { webhooks: false, mail: context });
    context.sender.close();
    expect(sent?.mailed.map((outcome) => outcome.state)).toEqual(['sent']);
    expect(inbox.slice(before).map((received) => received.to[0])).toEqual([people.ada.address]);
    expect((await api.call('members/setNotifications', [{ weeklyDigest: true }], bearer(people.grace.token))).body.preferences.weeklyDigest).toBe(true);
  });
});

test('a permanent bounce suppresses the address for the account: no more mail, and members/list says why', async () => {
  const suppressed = await applySesEvents(
    store,
    [
      JSON.stringify({
        eventType: 'Bounce',
        mail: { tags: { account: [keys.accountId] } },
        bounce: { bounceType: 'Permanent', bounceSubType: 'General', bouncedRecipients: [{ emailAddress: people.ada.address }] },
      }),
    ],
    new Date(),
  );
  expect(suppressed).toBe(1);
  const before = inbox.length;
  const context = mail();
  const sent = await sendProjectDigest(store, { accountId: keys.accountId, projectId }, new Date(), false, { webhooks: false, mail: context });
  context.sender.close();
  expect(sent?.mailed).toEqual(expect.arrayContaining([{ state: 'skipped', reason: 'suppressed (bounce)' }]));
  expect(inbox.slice(before).map((received) => received.to[0])).toEqual([people.grace.address]);
  const listed = await api.call('members/list', [{}], { key: keys.admin });
  expect(listed.body.items.find((member: any) => member.id === people.ada.id).mail).toMatchObject({
    address: people.ada.address,
    suppressed: { reason: 'bounce' },
  });
  await api.call('members/setNotifications', [{ resumeMail: true }], bearer(people.ada.token));
});

test('a transient refusal is retried with backoff; a permanent one is recorded and suppresses', async () => {
  refusals.set(people.grace.address, 'once');
  refusals.set(people.ada.address, 'always');
  const before = inbox.length;
  const context = mail();
  const sent = await sendProjectDigest(store, { accountId: keys.accountId, projectId }, new Date(), false, { webhooks: false, mail: context });
  context.sender.close();
  const states = Object.fromEntries(sent!.mailed.map((outcome, index) => [index, outcome.state]));
  expect(Object.values(states).sort()).toEqual(['refused', 'sent']);
  expect(inbox.slice(before).map((received) => received.to[0])).toEqual([people.grace.address]);
  expect(context.sender.counts.attempts).toBe(3);
  const listed = await api.call('members/list', [{}], { key: keys.admin });
  expect(listed.body.items.find((member: any) => member.id === people.ada.id).mail.suppressed).toMatchObject({ reason: 'refused' });
  refusals.clear();
  await api.call('members/setNotifications', [{ resumeMail: true }], bearer(people.ada.token));
});

test("members/sendDigest mails the caller only, whatever their preferences, at most every 5 minutes; an API key can't", async () => {
  const before = inbox.length;
  const answer = await api.call('members/sendDigest', [projectId], bearer(people.linus.token));
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ sent: true, to: people.linus.address, subject: expect.stringMatching(/week of/) });
  expect(inbox.slice(before).map((received) => received.to)).toEqual([[people.linus.address]]);
  expect((await api.call('members/sendDigest', [projectId], bearer(people.linus.token))).status).toBe(429);
  expect((await api.call('members/sendDigest', [projectId], { key: keys.admin })).status).toBe(403);
  expect((await api.call('members/sendDigest', ['no-such-project'], bearer(people.ada.token))).status).toBe(404);
});
