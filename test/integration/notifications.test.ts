/**
 * members/notifications and members/setNotifications: a member's own preferences, their
 * defaults by role, the verified address mail goes to, the audit of changes, and what
 * members/list shows admins of everyone's.
 */
import { KEY_CLI_ACTOR } from '../../functions/domain/audit';
import { createInvitation } from '../../functions/operations/members';
import { defaultStore } from '../../functions/store/entity-store';
import { suppressAddresses } from '../../functions/store/mail';
import { createAccount, startTestApi, type AccountKeys, type TestApi } from '../support/api';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer';

let api: TestApi;
let idp: TestIssuer;
let keys: AccountKeys;
let owner: string;
let viewer: string;
let viewerId: string;
const CONSOLE = 'http://console.example';
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

async function accepted(role: 'owner' | 'viewer', subject: string, verified = true) {
  const { store } = defaultStore();
  const invitation = await createInvitation(
    store,
    { accountId: keys.accountId, email: `${subject}@invited.example`, role, inviter: KEY_CLI_ACTOR },
    CONSOLE,
    new Date(),
  );
  const token = await idp.token(subject, verified ? {} : { claims: { email_verified: false } });
  const answer = await api.call('members/accept', [invitation.url.split('#')[1]], bearer(token));
  expect(answer.status).toBe(200);
  return { token, id: answer.body.person.memberId as string };
}

beforeAll(async () => {
  process.env.CONSOLE_URL = CONSOLE;
  process.env.MAIL_FROM = 'Feedback <feedback@example.com>';
  process.env.MAIL_OUTBOX_DIR = '.tmp/unused-outbox';
  idp = await startTestIssuer();
  process.env.OIDC_ISSUER = idp.issuer;
  process.env.OIDC_CLIENT_ID = idp.clientId;
  api = await startTestApi({ stream: false });
  keys = await createAccount('notify');
  owner = (await accepted('owner', 'notify-owner')).token;
  ({ token: viewer, id: viewerId } = await accepted('viewer', 'notify-viewer'));
});
afterAll(async () => {
  await api.close();
  await idp.close();
});

test('defaults follow the role: owners and admins are told, viewers opt in', async () => {
  const mine = await api.call('members/notifications', [], bearer(owner));
  expect(mine.status).toBe(200);
  expect(mine.body).toEqual({
    preferences: { weeklyDigest: true, alerts: 'immediately' },
    chosen: {},
    defaults: { weeklyDigest: true, alerts: 'immediately' },
    mail: { address: 'notify-owner@example.com' },
    delivery: { enabled: true },
  });
  const theirs = await api.call('members/notifications', [], bearer(viewer));
  expect(theirs.body.preferences).toEqual({ weeklyDigest: false, alerts: 'off' });
});

test('a member sets their own: the fields given change, the rest stays; the change is audited', async () => {
  const project = (await api.call('projects/create', [{ name: 'Docs' }], { key: keys.admin })).body.id;
  const set = await api.call('members/setNotifications', [{ alerts: 'daily', projects: [project] }], bearer(viewer));
  expect(set.status).toBe(200);
  expect(set.body.preferences).toEqual({ weeklyDigest: false, alerts: 'daily', projects: [project] });
  expect(set.body.chosen).toEqual({ alerts: 'daily', projects: [project] });
  const again = await api.call('members/setNotifications', [{ weeklyDigest: true, projects: null }], bearer(viewer));
  expect(again.body.preferences).toEqual({ weeklyDigest: true, alerts: 'daily' });

  const audit = await api.call('audit/list', [{ operation: 'members/setNotifications' }], { key: keys.admin });
  expect(audit.body.items).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ operation: 'members/setNotifications', outcome: 'ok', actor: expect.objectContaining({ memberId: viewerId }) }),
    ]),
  );
});

test('a project of another account, an unknown mode, or an API key: refused, nothing changes', async () => {
  const other = await createAccount('notify-other');
  const theirs = (await api.call('projects/create', [{ name: 'Theirs' }], { key: other.admin })).body.id;
  const refused = await api.call('members/setNotifications', [{ weeklyDigest: false, projects: [theirs] }], bearer(owner));
  expect(refused.status).toBe(404);
  expect((await api.call('members/setNotifications', [{ alerts: 'hourly' }], bearer(owner))).status).toBe(400);
  expect((await api.call('members/notifications', [], bearer(owner))).body.preferences).toEqual({ weeklyDigest: true, alerts: 'immediately' });
  const key = await api.call('members/notifications', [], { key: keys.admin });
  expect(key.status).toBe(403);
  expect(key.body.message).toMatch(/no mailbox/);
});

test("an unverified email is never a mail address; members/list shows admins everyone's settings and suppressions", async () => {
  const unverified = await accepted('viewer', 'notify-unverified', false);
  expect((await api.call('members/notifications', [], bearer(unverified.token))).body.mail).toEqual({});
  const { store } = defaultStore();
  await suppressAddresses(store, keys.accountId, { reason: 'bounce', at: '2026-01-05T10:00:00.000Z', detail: 'General: 550 no such user' }, [
    'Notify-Owner@example.com',
  ]);

  const listed = await api.call('members/list', [{}], { key: keys.admin });
  const byEmail = new Map(listed.body.items.map((member: any) => [member.subject, member]));
  expect(byEmail.get('notify-owner')).toMatchObject({
    notifications: { weeklyDigest: true, alerts: 'immediately' },
    mail: { address: 'notify-owner@example.com', suppressed: { reason: 'bounce', at: '2026-01-05T10:00:00.000Z', detail: 'General: 550 no such user' } },
  });
  expect(byEmail.get('notify-unverified')).toMatchObject({ mail: {} });
  expect((await api.call('members/list', [{}], { key: keys.viewer })).status).toBe(403);

  // The owner asks to be mailed again: the suppression is lifted.
  const resumed = await api.call('members/setNotifications', [{ resumeMail: true }], bearer(owner));
  expect(resumed.body.mail).toEqual({ address: 'notify-owner@example.com' });
});

test('with no sender configured, the page says mail is off', async () => {
  const from = process.env.MAIL_FROM;
  delete process.env.MAIL_FROM;
  try {
    const answer = await api.call('members/notifications', [], bearer(owner));
    expect(answer.body.delivery).toEqual({ enabled: false, off: expect.stringMatching(/mailFrom/) });
  } finally {
    process.env.MAIL_FROM = from;
  }
});
