import { SignJWT } from 'jose';
import { CLOCK_TOLERANCE_SECONDS } from '../../functions/api/oidc';
import { operationPath } from '../../functions/api/operation';
import { operationList } from '../../functions/api/registry';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { KEY_CLI_ACTOR } from '../../functions/domain/audit';
import { createAccountKey } from '../../functions/operations/api-keys';
import { acceptInvitation, createInvitation } from '../../functions/operations/members';
import { adoptLocalProviderPeople } from '../../local/runtime';
import { defaultStore } from '../../functions/store/entity-store';
import { createAccount, expectError, pool, startTestApi, type AccountKeys, type ApiAnswer, type TestApi } from '../support/api';
import { claimsOf, startTestIssuer, type TestIssuer, unsignedToken } from '../support/oidc-issuer';

/** People, not keys: Bearer tokens of the configured issuer, members, roles and invitations. */
let api: TestApi;
let idp: TestIssuer;
let keys: AccountKeys;
const CONSOLE = 'http://console.example';

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
let people = 0;
/** A subject nobody used yet in this file. */
const someone = (name: string) => `${name}-${++people}`;

/** The CLI's way to an account's first owner: an invitation link, accepted by the person. */
async function ownerOf(accountId: string, subject: string): Promise<string> {
  const { store } = defaultStore();
  const invitation = await createInvitation(store, { accountId, email: `${subject}@example.com`, role: 'owner', inviter: KEY_CLI_ACTOR }, CONSOLE, new Date());
  const token = await idp.token(subject);
  const accepted = await api.call('members/accept', [invitation.url.split('#')[1]], bearer(token));
  expect(accepted.status).toBe(200);
  return token;
}

/** Invites with `inviter`'s token and accepts with a new person's token; answers the new member's token and id. */
async function join(inviter: string, role: 'viewer' | 'admin' | 'owner', name = 'member') {
  const subject = someone(name);
  const invited = await api.call('members/invite', [{ email: `${subject}@example.com`, role }], {
    ...bearer(inviter),
    headers: { ...bearer(inviter).headers, origin: CONSOLE },
  });
  expect(invited.status).toBe(200);
  const token = await idp.token(subject);
  const accepted = await api.call('members/accept', [invited.body.url.split('#')[1]], bearer(token));
  expect(accepted.status).toBe(200);
  return { token, id: accepted.body.person.memberId as string, subject };
}

beforeAll(async () => {
  // Invitation links point at the console the configuration names (on AWS the stack sets it).
  process.env.CONSOLE_URL = CONSOLE;
  idp = await startTestIssuer();
  process.env.OIDC_ISSUER = idp.issuer;
  process.env.OIDC_CLIENT_ID = idp.clientId;
  // Answers only: nothing here reads what the stream consumers make of the writes.
  api = await startTestApi({ stream: false });
  keys = await createAccount('people');
});
afterAll(async () => {
  await api.close();
  await idp.close();
});

describe('Bearer tokens', () => {
  let owner: string;
  const subject = 'token-owner';
  beforeAll(async () => {
    owner = await ownerOf(keys.accountId, subject);
  });
  const me = (token: string) => api.call('members/me', [], bearer(token));

  it('accepts a valid token of a member: 200, with the account and role', async () => {
    const answer = await me(owner);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      accountId: keys.accountId,
      accountName: expect.stringMatching(/^people-/),
      level: 'admin',
      role: 'owner',
      person: { memberId: expect.any(String), email: `${subject}@example.com`, name: `Person ${subject}` },
    });
    expect((await api.call('projects/lookup', [''], bearer(owner))).status).toBe(200);
  });

  it('accepts the scheme in any case and a Cognito access token (client_id, token_use access, no aud)', async () => {
    expect((await api.call('members/me', [], { headers: { authorization: `bearer ${owner}` } })).status).toBe(200);
    const access = await idp.token(subject, { claims: { aud: undefined, client_id: idp.clientId, token_use: 'access' } });
    expect((await me(access)).status).toBe(200);
    const notAccess = await idp.token(subject, { claims: { aud: undefined, client_id: idp.clientId, token_use: 'id' } });
    expectError(await me(notAccess), 401, 'unauthorized');
  });

  it.each([
    ['expired', { expiresIn: -120 }],
    ['not yet valid (nbf in the future)', { claims: { nbf: Math.floor(Date.now() / 1000) + 600 } }],
    ['of another audience', { claims: { aud: 'someone-else' } }],
    ['of another issuer', { claims: { iss: 'https://evil.example' } }],
    ['without a subject', { claims: { sub: undefined } }],
    ['without an expiry', { claims: { exp: undefined } }],
    ['with an unknown key id', { headerKid: 'no-such-key' }],
  ])('refuses a token %s with 401', async (_name, options) => {
    const answer = await me(await idp.token(subject, options));
    expectError(answer, 401, 'unauthorized');
  });

  it('refuses an iat more than the clock tolerance ahead, and takes one within it', async () => {
    const now = Math.floor(Date.now() / 1000);
    const ahead = (seconds: number) => idp.token(subject, { claims: { iat: now + seconds, exp: now + seconds + 600 } });
    const dayAhead = await me(await ahead(86_400));
    expectError(dayAhead, 401, 'unauthorized');
    expect(dayAhead.body.message).toContain('"iat"');
    expectError(await me(await ahead(CLOCK_TOLERANCE_SECONDS + 5)), 401, 'unauthorized');
    expect((await me(await ahead(CLOCK_TOLERANCE_SECONDS - 10))).status).toBe(200);
  });

  it('OpenID Connect Core 3.1.3.7: several audiences need azp = the client id; an azp must be the client id', async () => {
    const withClaims = async (claims: Record<string, unknown>) => me(await idp.token(subject, { claims }));
    const refusedFor = async (claims: Record<string, unknown>) => {
      const answer = await withClaims(claims);
      expectError(answer, 401, 'unauthorized');
      expect(answer.body.message).toContain('audience');
    };
    await refusedFor({ aud: [idp.clientId, 'another-client'] });
    await refusedFor({ aud: [idp.clientId, 'another-client'], azp: 'another-client' });
    await refusedFor({ aud: idp.clientId, azp: 'another-client' });
    await refusedFor({ aud: undefined, client_id: idp.clientId, token_use: 'access', azp: 'another-client' });
    expect((await withClaims({ aud: [idp.clientId, 'another-client'], azp: idp.clientId })).status).toBe(200);
    expect((await withClaims({ aud: [idp.clientId], azp: idp.clientId })).status).toBe(200);
    expect((await withClaims({ aud: [idp.clientId] })).status).toBe(200);
  });

  it('refuses a tampered signature, alg none, and HS256 signed with the public key (HMAC confusion)', async () => {
    const valid = await idp.token('someone-else');
    const [header, , signature] = valid.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claimsOf(valid), sub: subject })).toString('base64url');
    expectError(await me(`${header}.${forged}.${signature}`), 401, 'unauthorized');

    const claims = claimsOf(await idp.token(subject));
    expectError(await me(unsignedToken(claims)), 401, 'unauthorized');

    const pem = await idp.publicKeyPem();
    const hmac = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: idp.kid }).sign(new TextEncoder().encode(pem));
    const confused = await me(hmac);
    expectError(confused, 401, 'unauthorized');
    expect(confused.body.message).toMatch(/algorithm/);
  });

  it('refuses an over-long token before parsing it, and a malformed header', async () => {
    expectError(await me('a'.repeat(9000)), 401, 'unauthorized');
    expectError(await api.call('members/me', [], { headers: { authorization: 'Bearer' } }), 401, 'unauthorized');
    expectError(await api.call('members/me', [], { headers: { authorization: `Bearer ${owner} x` } }), 401, 'unauthorized');
  });

  it('follows a key rotated at the provider: the new key works, the withdrawn one no longer', async () => {
    const old = await idp.token(subject);
    expect((await me(old)).status).toBe(200);
    const oldKid = idp.kid;
    await idp.rotate('ES256');
    const fresh = await idp.token(subject);
    // The key set may be fetched again for an unknown key id once its 30-second cooldown has
    // passed since the last fetch; the clock is moved on rather than waited for.
    const realNow = Date.now;
    const spy = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 31_000);
    try {
      const fetches = idp.jwksFetches();
      expect((await me(fresh)).status).toBe(200);
      expect(idp.jwksFetches()).toBe(fetches + 1);
      expectError(await me(old), 401, 'unauthorized');
      expectError(await me(await idp.token(subject, { kid: oldKid })), 401, 'unauthorized');
      // Within the cooldown, unknown key ids do not reach the provider again.
      await me(await idp.token(subject, { headerKid: 'made-up' }));
      expect(idp.jwksFetches()).toBe(fetches + 1);
    } finally {
      spy.mockRestore();
    }
  });

  it('answers 401 "sign-in is not configured" without OIDC_ISSUER', async () => {
    const saved = process.env.OIDC_ISSUER;
    delete process.env.OIDC_ISSUER;
    try {
      const answer = await me(owner);
      expectError(answer, 401, 'unauthorized');
      expect(answer.body.message).toMatch(/not configured/);
    } finally {
      process.env.OIDC_ISSUER = saved;
    }
  });

  it("refuses a non-member's valid token everywhere but members/accept (also on anonymous operations)", async () => {
    const stranger = await idp.token(someone('stranger'));
    const answer = await me(stranger);
    expectError(answer, 401, 'unauthorized');
    expect(answer.body.data).toEqual({ reason: 'not-a-member' });
    expectError(await api.call('responses/getAggregates', ['x'], bearer(stranger)), 401, 'unauthorized');
    expectError(await api.call('members/accept', ['fbi_nothing'], bearer(stranger)), 404, 'not-found');
  });
});

describe('members and invitations', () => {
  let owner: string;
  let account: AccountKeys;
  beforeAll(async () => {
    account = await createAccount('members');
    owner = await ownerOf(account.accountId, someone('owner'));
  });

  it('invite -> accept -> list -> setRole -> remove; the removed person is refused at once', async () => {
    const invited = await api.call('members/invite', [{ email: 'ada@example.com', role: 'viewer' }], {
      headers: { ...bearer(owner).headers, origin: CONSOLE },
    });
    expect(invited.status).toBe(200);
    expect(invited.body).toEqual({
      invitationId: expect.any(String),
      url: expect.stringMatching(/^http:\/\/console\.example\/invitations#fbi_[A-Za-z0-9_-]{32}$/),
      email: 'ada@example.com',
      role: 'viewer',
      expiresAt: expect.any(String),
    });
    const days = (Date.parse(invited.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const ada = await idp.token(someone('ada'), { claims: { email: 'ada@example.com', name: 'Ada' } });
    const token = invited.body.url.split('#')[1];
    const accepted = await api.call('members/accept', [token], bearer(ada));
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ accountId: account.accountId, level: 'viewer', role: 'viewer', person: { email: 'ada@example.com', name: 'Ada' } });
    const adaId = accepted.body.person.memberId;

    // Single use: the link works once.
    const again = await idp.token(someone('again'));
    expectError(await api.call('members/accept', [token], bearer(again)), 404, 'not-found');

    const listed = await api.call('members/list', [], bearer(owner));
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((member: { role: string }) => member.role)).toEqual(['owner', 'viewer']);
    expect(listed.body.items[1]).toMatchObject({ id: adaId, email: 'ada@example.com', name: 'Ada', issuer: idp.issuer });
    expect(JSON.stringify(listed.body)).not.toContain(token);
    const paged = await api.call('members/list', [{ $size: 1 }], bearer(owner));
    expect(paged.body.items).toHaveLength(1);
    expect((await api.call('members/list', [{ $size: 1, cursor: paged.body.cursor }], bearer(owner))).body.items[0].id).toBe(adaId);

    // A viewer reads but does not write; as an admin the same token writes at once.
    expect((await api.call('projects/lookup', [''], bearer(ada))).status).toBe(200);
    expectError(await api.call('projects/create', [{ name: 'No' }], bearer(ada)), 403, 'forbidden');
    const promoted = await api.call('members/setRole', [adaId, 'admin'], bearer(owner));
    expect(promoted.body).toMatchObject({ id: adaId, role: 'admin' });
    expect((await api.call('projects/create', [{ name: 'Yes' }], bearer(ada))).status).toBe(200);
    // Demoted again, the same token loses the write at once too.
    expect((await api.call('members/setRole', [adaId, 'viewer'], bearer(owner))).body).toMatchObject({ id: adaId, role: 'viewer' });
    expectError(await api.call('projects/create', [{ name: 'No again' }], bearer(ada)), 403, 'forbidden');

    expect((await api.call('members/remove', [adaId], bearer(owner))).status).toBe(204);
    const refused = await api.call('projects/lookup', [''], bearer(ada));
    expectError(refused, 401, 'unauthorized');
    expect(refused.body.data).toEqual({ reason: 'not-a-member' });
    expectError(await api.call('members/remove', [adaId], bearer(owner)), 404, 'not-found');
  });

  it('keeps one owner at least, and only owners touch admins and owners', async () => {
    const ownerId = (await api.call('members/me', [], bearer(owner))).body.person.memberId;
    expectError(await api.call('members/setRole', [ownerId, 'admin'], bearer(owner)), 409, 'conflict');
    expectError(await api.call('members/remove', [ownerId], bearer(owner)), 409, 'conflict');

    const admin = await join(owner, 'admin', 'admin');
    const viewer = await join(owner, 'viewer', 'viewer');
    // An admin (person or key) invites and manages viewers only.
    const origin = { origin: CONSOLE };
    expectError(
      await api.call('members/invite', [{ email: 'x@example.com', role: 'admin' }], { headers: { ...bearer(admin.token).headers, ...origin } }),
      403,
      'forbidden',
    );
    expectError(await api.call('members/invite', [{ email: 'x@example.com', role: 'owner' }], { key: account.admin, headers: origin }), 403, 'forbidden');
    expect((await api.call('members/invite', [{ email: 'x@example.com', role: 'viewer' }], { key: account.admin, headers: origin })).status).toBe(200);
    expectError(await api.call('members/setRole', [viewer.id, 'admin'], bearer(admin.token)), 403, 'forbidden');
    expectError(await api.call('members/remove', [ownerId], bearer(admin.token)), 403, 'forbidden');
    expectError(await api.call('members/setRole', [ownerId, 'viewer'], { key: account.admin }), 403, 'forbidden');
    expect((await api.call('members/setRole', [viewer.id, 'viewer'], bearer(admin.token))).status).toBe(200);
    expect((await api.call('members/remove', [viewer.id], bearer(admin.token))).status).toBe(204);
    // Viewers manage nobody.
    const second = await join(owner, 'viewer', 'viewer');
    expectError(await api.call('members/list', [], bearer(second.token)), 403, 'forbidden');

    // With a second owner, the first may step down; then the second is the last one.
    expect((await api.call('members/setRole', [admin.id, 'owner'], bearer(owner))).body.role).toBe('owner');
    expect((await api.call('members/setRole', [ownerId, 'viewer'], bearer(owner))).body.role).toBe('viewer');
    expectError(await api.call('members/setRole', [admin.id, 'admin'], bearer(admin.token)), 409, 'conflict');
    expectError(await api.call('members/remove', [admin.id], bearer(admin.token)), 409, 'conflict');
    // Two owners demoting each other at once cannot leave the account without one.
    expect((await api.call('members/setRole', [ownerId, 'owner'], bearer(admin.token))).status).toBe(200);
    const both = await Promise.all([
      api.call('members/setRole', [ownerId, 'admin'], bearer(admin.token)),
      api.call('members/setRole', [admin.id, 'admin'], bearer(owner)),
    ]);
    // One wins; the other finds the last owner (409), or, authenticated after the first
    // demoted its caller, is no owner any more (403).
    const statuses = both.map((answer) => answer.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const roles = (await api.call('members/list', [], { key: account.admin })).body.items.map((member: { role: string }) => member.role);
    expect(roles.filter((role: string) => role === 'owner')).toHaveLength(1);
  });

  it('refuses expired and foreign invitations, a second account, keys and anonymous callers on accept', async () => {
    const { store } = defaultStore();
    const long = new Date(Date.now() - 8 * 86_400_000);
    const expired = await createInvitation(
      store,
      { accountId: account.accountId, email: 'late@example.com', role: 'viewer', inviter: KEY_CLI_ACTOR },
      CONSOLE,
      long,
    );
    const late = await idp.token(someone('late'));
    expectError(await api.call('members/accept', [expired.url.split('#')[1]], bearer(late)), 404, 'not-found');

    // One account per person: a member of one account cannot accept another's invitation.
    const other = await createAccount('members-other');
    const elsewhere = await createInvitation(
      store,
      { accountId: other.accountId, email: 'x@example.com', role: 'viewer', inviter: KEY_CLI_ACTOR },
      CONSOLE,
      new Date(),
    );
    expectError(await api.call('members/accept', [elsewhere.url.split('#')[1]], bearer(owner)), 409, 'conflict');
    // ... and the invitation stays usable by someone else.
    expect((await api.call('members/accept', [elsewhere.url.split('#')[1]], bearer(await idp.token(someone('newcomer'))))).status).toBe(200);

    expectError(await api.call('members/accept', ['fbi_x'], { key: account.admin }), 403, 'forbidden');
    expectError(await api.call('members/accept', ['fbi_x']), 401, 'unauthorized');
    // Another account's member ids are not-found.
    const theirs = await api.call('members/list', [], { key: other.admin });
    expectError(await api.call('members/remove', [theirs.body.items[0].id], bearer(owner)), 404, 'not-found');
  });

  it('members/me describes an API key too', async () => {
    const { body } = await api.call('keys/create', [{ level: 'viewer', label: 'dash' }], { key: account.admin });
    expect((await api.call('members/me', [], { key: body.key })).body).toEqual({
      accountId: account.accountId,
      accountName: expect.stringMatching(/^members-/),
      level: 'viewer',
      key: { id: body.id, label: 'dash' },
    });
  });

  it('invites any address the provider can issue, a domain without a dot included; the link says what it invites to, signed out', async () => {
    const account = await createAccount('named');
    const owner = await ownerOf(account.accountId, someone('owner'));
    const origin = { origin: CONSOLE };
    expectError(await api.call('members/invite', [{ email: 'bob@-localhost', role: 'viewer' }], { key: account.admin, headers: origin }), 400, 'bad-request');
    const invited = await api.call('members/invite', [{ email: 'bob@localhost', role: 'viewer' }], { key: account.admin, headers: origin });
    expect(invited.status).toBe(200);
    expect(invited.body.email).toBe('bob@localhost');
    const token = invited.body.url.split('#')[1];
    // Anyone holding the link (no sign-in) learns the account's name, the role and the expiry.
    const seen = await api.call('members/invitedTo', [token]);
    expect(seen.body).toEqual({ accountName: expect.stringMatching(/^named-/), role: 'viewer', expiresAt: invited.body.expiresAt });
    expectError(await api.call('members/invitedTo', ['fbi_unknown']), 404, 'not-found');

    // The owner names the account; keys and admins may not. members/me, invitedTo and accept say the name.
    expectError(await api.call('members/renameAccount', ['By a key'], { key: account.admin }), 403, 'forbidden');
    const admin = await join(owner, 'admin', 'admin');
    expectError(await api.call('members/renameAccount', ['By an admin'], bearer(admin.token)), 403, 'forbidden');
    expectError(await api.call('members/renameAccount', ['   '], bearer(owner)), 400, 'bad-request');
    expect((await api.call('members/renameAccount', [' Docs team '], bearer(owner))).body).toEqual({ id: account.accountId, name: 'Docs team' });
    expect((await api.call('members/me', [], bearer(admin.token))).body.accountName).toBe('Docs team');
    expect((await api.call('members/invitedTo', [token])).body.accountName).toBe('Docs team');
    const bob = await idp.token(someone('bob'), { claims: { email: 'bob@localhost', email_verified: true } });
    const accepted = await api.call('members/accept', [token], bearer(bob));
    expect(accepted.body).toMatchObject({ accountId: account.accountId, accountName: 'Docs team', person: { email: 'bob@localhost' } });
    // Used up: the link no longer describes anything.
    expectError(await api.call('members/invitedTo', [token]), 404, 'not-found');
  });

  it("one rule for names: renameAccount refuses bidirectional overrides, isolates and zero-width characters; a token's such name is not recorded", async () => {
    const account = await createAccount('spoof');
    const owner = await ownerOf(account.accountId, someone('owner'));
    const before = (await api.call('members/me', [], bearer(owner))).body.accountName;
    for (const [name, codePoint] of [
      ['Acme\u202Eevil', 'U+202E'],
      ['Acme\u2066Inc\u2069', 'U+2066'],
      ['Ac\u200Bme', 'U+200B'],
      ['Acme\u0000', 'U+0000'],
    ]) {
      const answer = await api.call('members/renameAccount', [name], bearer(owner));
      expectError(answer, 400, 'bad-request');
      expect(answer.body.data.fields).toEqual([{ path: 'args.0', message: expect.stringContaining(`must not contain ${codePoint}`) }]);
    }
    // Nothing changed: the people invited read the name it had.
    expect((await api.call('members/me', [], bearer(owner))).body.accountName).toBe(before);
    expect((await api.call('members/renameAccount', ['  Cafe\u0301 🧑🏽‍💻 '], bearer(owner))).body.name).toBe('Café 🧑🏽‍💻');

    // A provider's display name breaking the rule is not recorded (the member reads as their email); a good one is, in NFC.
    const invite = async () =>
      (
        await api.call('members/invite', [{ email: `${someone('x')}@example.com`, role: 'viewer' }], { key: account.admin, headers: { origin: CONSOLE } })
      ).body.url.split('#')[1];
    const spoofer = await idp.token(someone('spoofer'), { claims: { name: 'Admin\u202E' } });
    const joined = await api.call('members/accept', [await invite()], bearer(spoofer));
    expect(joined.status).toBe(200);
    expect(joined.body.person.name).toBeUndefined();
    const named = await idp.token(someone('named'), { claims: { name: ' Jose\u0301 ' } });
    expect((await api.call('members/accept', [await invite()], bearer(named))).body.person.name).toBe('José');
  });

  it("invitation links point at CONSOLE_URL, never at the request's Origin; without it invite fails naming it", async () => {
    const invite = (origin: string) => api.call('members/invite', [{ email: 'x@example.com', role: 'viewer' }], { key: account.admin, headers: { origin } });
    const linked = await invite('https://evil.example');
    expect(linked.status).toBe(200);
    expect(linked.body.url).toMatch(/^http:\/\/console\.example\/invitations#fbi_/);
    delete process.env.CONSOLE_URL;
    try {
      for (const origin of ['https://evil.example', CONSOLE]) {
        const unlinked = await invite(origin);
        // The service's configuration is at fault, not the call.
        expectError(unlinked, 500, 'internal-error');
        expect(unlinked.body.message).toContain('CONSOLE_URL');
      }
    } finally {
      process.env.CONSOLE_URL = CONSOLE;
    }
  });
});

describe('what a member or a key made lasts only while they may grant it', () => {
  let account: AccountKeys;
  let owner: string;
  let ownerId: string;
  const invite = async (credential: { key?: string; headers?: Record<string, string> }, role: 'viewer' | 'admin' | 'owner') => {
    const answer = await api.call('members/invite', [{ email: `${someone('invitee')}@example.com`, role }], {
      ...credential,
      headers: { ...credential.headers, origin: CONSOLE },
    });
    expect(answer.status).toBe(200);
    return { token: answer.body.url.split('#')[1] as string, id: answer.body.invitationId as string };
  };
  const accept = async (token: string, subject = someone('accepter')) => api.call('members/accept', [token], bearer(await idp.token(subject)));
  const pending = async () => (await api.call('members/invitations', [], { key: account.admin })).body.items as { id: string }[];
  const keyOf = async (token: string, level: 'viewer' | 'admin') => {
    const answer = await api.call('keys/create', [{ level, label: `${level} of a member` }], bearer(token));
    expect(answer.status).toBe(200);
    return answer.body as { id: string; key: string };
  };
  const works = async (key: string) => (await api.call('projects/lookup', [''], { key })).status;

  beforeAll(async () => {
    account = await createAccount('made');
    owner = await ownerOf(account.accountId, someone('made-owner'));
    ownerId = (await api.call('members/me', [], bearer(owner))).body.person.memberId;
  });

  it('a removed owner cannot come back through an owner invitation they made for themselves', async () => {
    const second = await join(owner, 'owner', 'second-owner');
    const own = await invite(bearer(second.token), 'owner');
    expect((await pending()).map((invitation) => invitation.id)).toContain(own.id);
    expect((await api.call('members/remove', [second.id], bearer(owner))).status).toBe(204);
    // The invitation went with them: not pending, and its link is void, for them and anyone.
    expect((await pending()).map((invitation) => invitation.id)).not.toContain(own.id);
    expectError(await accept(own.token, second.subject), 404, 'not-found');
    expectError(await accept(own.token), 404, 'not-found');
    expectError(await api.call('members/me', [], bearer(second.token)), 401, 'unauthorized');
  });

  it("a demoted owner's owner invitation makes no owner: nobody can take the account from the one who demoted them", async () => {
    const second = await join(owner, 'owner', 'demoted-owner');
    const ownerInvitation = await invite(bearer(second.token), 'owner');
    const viewerInvitation = await invite(bearer(second.token), 'viewer');
    expect((await api.call('members/setRole', [second.id, 'admin'], bearer(owner))).status).toBe(200);
    const answer = await accept(ownerInvitation.token);
    expectError(answer, 404, 'not-found');
    // What an admin may still grant stays valid.
    expect((await accept(viewerInvitation.token)).body).toMatchObject({ role: 'viewer' });
    const roles = (await api.call('members/list', [], bearer(owner))).body.items.map((member: { role: string }) => member.role);
    expect(roles.filter((role: string) => role === 'owner')).toHaveLength(1);
  });

  it('accepting checks the maker at that instant too: an invitation the cascade did not see is void once its maker may not grant it', async () => {
    const { store } = defaultStore();
    const admin = await join(owner, 'admin', 'late-admin');
    expect((await api.call('members/setRole', [admin.id, 'viewer'], bearer(owner))).status).toBe(200);
    // Written past the API, as a request that read the admin before the demotion would have.
    const late = await createInvitation(
      store,
      { accountId: account.accountId, email: 'late@example.com', role: 'viewer', inviter: { type: 'person', memberId: admin.id } },
      CONSOLE,
      new Date(),
    );
    const refused = await accept(late.url.split('#')[1]);
    expectError(refused, 404, 'not-found');
    expect(refused.body.data).toEqual({ reason: 'inviter-lost-access' });
    // ... and the same for a revoked key's.
    const key = await keyOf(owner, 'admin');
    expect((await api.call('keys/revoke', [key.id], bearer(owner))).status).toBe(204);
    const byKey = await createInvitation(
      store,
      { accountId: account.accountId, email: 'late@example.com', role: 'viewer', inviter: { type: 'key', keyId: key.id } },
      CONSOLE,
      new Date(),
    );
    expectError(await accept(byKey.url.split('#')[1]), 404, 'not-found');
  });

  it("a revoked key's invitations are withdrawn with it", async () => {
    const key = await keyOf(owner, 'admin');
    const made = await invite({ key: key.key }, 'viewer');
    expect((await pending()).find((invitation) => invitation.id === made.id)).toMatchObject({ invitedBy: { type: 'key', keyId: key.id } });
    expect((await api.call('keys/revoke', [key.id], bearer(owner))).status).toBe(204);
    expect((await pending()).map((invitation) => invitation.id)).not.toContain(made.id);
    expectError(await accept(made.token), 404, 'not-found');
  });

  it('removing a member revokes the keys they created (and keys those created); the list says how many first', async () => {
    const admin = await join(owner, 'admin', 'key-maker');
    const adminKey = await keyOf(admin.token, 'admin');
    const viewerKey = await keyOf(admin.token, 'viewer');
    const grandchild = await api.call('keys/create', [{ level: 'viewer' }], { key: adminKey.key });
    const ownersKey = await keyOf(owner, 'admin');
    const listed = (await api.call('keys/list', [], bearer(owner))).body.items;
    expect(listed.find((key: { id: string }) => key.id === adminKey.id).createdBy).toEqual({
      type: 'person',
      memberId: admin.id,
      email: `${admin.subject}@example.com`,
      name: `Person ${admin.subject}`,
    });
    const members = (await api.call('members/list', [], bearer(owner))).body.items;
    expect(members.find((member: { id: string }) => member.id === admin.id).keys).toBe(3);

    expect((await api.call('members/remove', [admin.id], bearer(owner))).status).toBe(204);
    for (const key of [adminKey.key, viewerKey.key, grandchild.body.key]) expect(await works(key)).toBe(401);
    expect(await works(ownersKey.key)).toBe(200);
    // The removal's audit entry names the member and the keys revoked with them.
    const entries = (await api.call('audit/list', [{ operation: 'members/remove', targetId: admin.id }], { key: account.admin })).body.items;
    expect(entries).toHaveLength(1);
    expect(entries[0].targetIds).toEqual([admin.id, adminKey.id, viewerKey.id, grandchild.body.id]);
  });

  type Inviter = 'owner' | 'admin' | 'admin key';
  type Loss = 'removed' | 'demoted to admin' | 'demoted to viewer' | 'revoked';
  // Every inviter, every loss it can suffer, every role it could invite: valid after the loss only if the maker may still grant it.
  const inviterMatrix: [Inviter, Loss, 'viewer' | 'admin' | 'owner', 200 | 404][] = [
    ['owner', 'removed', 'viewer', 404],
    ['owner', 'removed', 'admin', 404],
    ['owner', 'removed', 'owner', 404],
    ['owner', 'demoted to admin', 'viewer', 200],
    ['owner', 'demoted to admin', 'admin', 404],
    ['owner', 'demoted to admin', 'owner', 404],
    ['owner', 'demoted to viewer', 'viewer', 404],
    ['owner', 'demoted to viewer', 'owner', 404],
    ['admin', 'removed', 'viewer', 404],
    ['admin', 'demoted to viewer', 'viewer', 404],
    ['admin key', 'revoked', 'viewer', 404],
  ];
  it.each(inviterMatrix)('an invitation by an %s who is then %s, for the role %s: accepting it answers %s', async (inviter, loss, role, status) => {
    let credential: { key?: string; headers?: Record<string, string> };
    let lose: () => Promise<number>;
    if (inviter === 'admin key') {
      const key = await keyOf(owner, 'admin');
      credential = { key: key.key };
      lose = async () => (await api.call('keys/revoke', [key.id], bearer(owner))).status;
    } else {
      const made = await join(owner, inviter, `inviting-${inviter}`);
      credential = bearer(made.token);
      lose = async () =>
        loss === 'removed'
          ? (await api.call('members/remove', [made.id], bearer(owner))).status
          : (await api.call('members/setRole', [made.id, loss === 'demoted to admin' ? 'admin' : 'viewer'], bearer(owner))).status;
    }
    const invitation = await invite(credential, role);
    expect([204, 200]).toContain(await lose());
    const answer = await accept(invitation.token);
    expect([inviter, loss, role, answer.status]).toEqual([inviter, loss, role, status]);
    if (status === 200) expect(answer.body.role).toBe(role);
  });

  it('a request authenticated just before its maker was removed creates no key after it', async () => {
    const { store } = defaultStore();
    const admin = await join(owner, 'admin', 'racing-admin');
    const me = (await api.call('members/me', [], bearer(admin.token))).body;
    // The caller as authentication saw it, before the removal below.
    const before = {
      kind: 'person' as const,
      level: 'admin' as const,
      accountId: account.accountId,
      memberId: admin.id,
      role: 'admin' as const,
      person: { issuer: idp.issuer, subject: admin.subject, email: me.person.email, emailVerified: true },
      member: {},
    };
    expect((await api.call('members/remove', [admin.id], bearer(owner))).status).toBe(204);
    await expect(createAccountKey(store, before, { level: 'admin' }, new Date())).rejects.toMatchObject({ code: 'forbidden' });
    const made = (await api.call('keys/list', [], bearer(owner))).body.items.filter(
      (key: { createdBy?: { memberId?: string } }) => key.createdBy?.memberId === admin.id,
    );
    expect(made).toEqual([]);
  });

  it("waits for the keys' index to show every key the member counts; a removal that cannot see them all changes nothing", async () => {
    const { store } = defaultStore();
    const admin = await join(owner, 'admin', 'lagging-admin');
    const key = await keyOf(admin.token, 'admin');
    // As if a second key's index entry were still on its way: the member counts 2, the index shows 1.
    const personKey = (await store.entities.Member.query.byId({ id: admin.id }).go()).data[0].personKey;
    await store.entities.Member.patch({ personKey }).add({ keysMade: 1 }).go();
    const refused = await api.call('members/remove', [admin.id], bearer(owner));
    expectError(refused, 503, 'unavailable');
    expect((await api.call('members/me', [], bearer(admin.token))).status).toBe(200);
    expect(await works(key.key)).toBe(200);
  });

  it('demoting an admin to viewer revokes their admin keys, not their viewer keys', async () => {
    const admin = await join(owner, 'admin', 'demoted-admin');
    const adminKey = await keyOf(admin.token, 'admin');
    const viewerKey = await keyOf(admin.token, 'viewer');
    expect((await api.call('members/setRole', [admin.id, 'viewer'], bearer(owner))).status).toBe(200);
    expect(await works(adminKey.key)).toBe(401);
    expect(await works(viewerKey.key)).toBe(200);
    // Made admin again, nothing comes back.
    expect((await api.call('members/setRole', [admin.id, 'admin'], bearer(owner))).status).toBe(200);
    expect(await works(adminKey.key)).toBe(401);
  });

  it('members/invitations lists pending invitations with their makers; members/withdraw withdraws them (owner ones: owners only)', async () => {
    const admin = await join(owner, 'admin', 'withdrawing-admin');
    const viewerInvitation = await invite(bearer(owner), 'viewer');
    const ownerInvitation = await invite(bearer(owner), 'owner');
    const page = await api.call('members/invitations', [{ $size: 1 }], bearer(admin.token));
    expect(page.status).toBe(200);
    expect(page.body.items[0]).toEqual({
      id: ownerInvitation.id,
      email: expect.stringMatching(/@example\.com$/),
      role: 'owner',
      invitedBy: { type: 'person', memberId: ownerId, email: expect.any(String), name: expect.any(String) },
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(JSON.stringify(page.body)).not.toContain(ownerInvitation.token);
    const next = await api.call('members/invitations', [{ $size: 1, cursor: page.body.cursor }], bearer(admin.token));
    expect(next.body.items[0].id).toBe(viewerInvitation.id);

    expectError(await api.call('members/withdraw', [ownerInvitation.id], bearer(admin.token)), 403, 'forbidden');
    expectError(await api.call('members/withdraw', [ownerInvitation.id], { key: account.admin }), 403, 'forbidden');
    expect((await api.call('members/withdraw', [viewerInvitation.id], bearer(admin.token))).status).toBe(204);
    expect((await api.call('members/withdraw', [ownerInvitation.id], bearer(owner))).status).toBe(204);
    for (const withdrawn of [viewerInvitation, ownerInvitation]) {
      expectError(await accept(withdrawn.token), 404, 'not-found');
      expectError(await api.call('members/withdraw', [withdrawn.id], bearer(owner)), 404, 'not-found');
    }
    expect((await pending()).map((invitation) => invitation.id)).not.toEqual(expect.arrayContaining([viewerInvitation.id]));
    // Another account's invitation is not-found; viewers may not list or withdraw.
    const other = await createAccount('made-other');
    const theirs = await api.call('members/invite', [{ email: 'x@example.com', role: 'viewer' }], { key: other.admin, headers: { origin: CONSOLE } });
    expectError(await api.call('members/withdraw', [theirs.body.invitationId], bearer(owner)), 404, 'not-found');
    expectError(await api.call('members/invitations', [], { key: account.viewer }), 403, 'forbidden');
  });
});

describe('roles are enforced on every operation of the registry', () => {
  type Who =
    | 'viewer'
    | 'admin'
    | 'owner'
    | 'newcomer'
    | 'viewer key'
    | 'admin key'
    | 'removed member'
    | "removed admin's key"
    | "demoted admin's admin key"
    | "demoted admin's viewer key"
    | "revoked key's key";
  const WHO: Who[] = [
    'viewer',
    'admin',
    'owner',
    'newcomer',
    'viewer key',
    'admin key',
    'removed member',
    "removed admin's key",
    "demoted admin's admin key",
    "demoted admin's viewer key",
    "revoked key's key",
  ];
  const credentials = {} as Record<Who, { key?: string; headers?: Record<string, string> }>;

  beforeAll(async () => {
    const account = await createAccount('matrix');
    const owner = await ownerOf(account.accountId, someone('matrix-owner'));
    const created = async (by: { key?: string; headers?: Record<string, string> }, level: 'viewer' | 'admin') =>
      (await api.call('keys/create', [{ level }], by)).body as { id: string; key: string };
    credentials.owner = bearer(owner);
    credentials.admin = bearer((await join(owner, 'admin', 'matrix-admin')).token);
    credentials.viewer = bearer((await join(owner, 'viewer', 'matrix-viewer')).token);
    credentials.newcomer = bearer(await idp.token(someone('matrix-newcomer')));
    credentials['viewer key'] = { key: account.viewer };
    credentials['admin key'] = { key: account.admin };
    // Members who lost their role, and keys whose makers did.
    const removed = await join(owner, 'admin', 'matrix-removed');
    credentials["removed admin's key"] = { key: (await created(bearer(removed.token), 'admin')).key };
    expect((await api.call('members/remove', [removed.id], bearer(owner))).status).toBe(204);
    credentials['removed member'] = bearer(removed.token);
    const demoted = await join(owner, 'admin', 'matrix-demoted');
    credentials["demoted admin's admin key"] = { key: (await created(bearer(demoted.token), 'admin')).key };
    credentials["demoted admin's viewer key"] = { key: (await created(bearer(demoted.token), 'viewer')).key };
    expect((await api.call('members/setRole', [demoted.id, 'viewer'], bearer(owner))).status).toBe(200);
    const parent = await created({ key: account.admin }, 'admin');
    credentials["revoked key's key"] = { key: (await created({ key: parent.key }, 'admin')).key };
    expect((await api.call('keys/revoke', [parent.id], bearer(owner))).status).toBe(204);
    await pool(cases, 8, async ([path, , who]) => answers.set(`${path} ${who}`, await api.call(path, INVALID, credentials[who])));
    // Every case's call: the time the cases took one by one, each within the default 30 s.
  }, 300_000);

  /** What the declaration's level allows each caller; undefined for a credential refused everywhere (401). */
  function allowed(level: string, who: Who): boolean | undefined {
    if (who === "removed admin's key" || who === "demoted admin's admin key" || who === "revoked key's key") return undefined;
    if (level === 'person') return ['viewer', 'admin', 'owner', 'newcomer', 'removed member'].includes(who);
    if (who === 'newcomer' || who === 'removed member') return false;
    if (level === 'admin') return ['admin', 'owner', 'admin key'].includes(who);
    return true;
  }

  // Arguments no operation takes: an allowed caller gets bad-request (authorization comes first).
  const INVALID = Array.from({ length: 9 }, () => ({ invalid: true }));
  const cases = operationList.flatMap((operation) => WHO.map((who) => [operationPath(operation), operation.level, who] as const));

  /** Each case's answer, asked in the set-up above, a few at a time (the calls do not depend on each other). */
  const answers = new Map<string, ApiAnswer>();

  it.each(cases)('%s (%s) as %s', (path, level, who) => {
    const answer = answers.get(`${path} ${who}`)!;
    const may = allowed(level, who);
    if (may) {
      expect([path, who, answer.status]).toEqual([path, who, 400]);
    } else {
      const expected = may === undefined || who === 'newcomer' || who === 'removed member' ? 401 : 403;
      expect([path, who, answer.status, answer.body.error]).toEqual([path, who, expected, expected === 401 ? 'unauthorized' : 'forbidden']);
    }
  });
});

describe("npm start's local provider: its people across restarts", () => {
  /** The local provider's issuer is its address: `OIDC_PORT=0` gives it another one at each start. */
  const earlier = 'http://127.0.0.1:40001';
  let accountId: string;
  let dataDir: string;
  const members = async () => {
    const { store } = defaultStore();
    const { data } = await store.entities.Member.query.byAccount({ accountId }).go({ pages: 'all' });
    return data
      .map((member) => ({ id: member.id, subject: member.subject, issuer: member.issuer, role: member.role }))
      .sort((a, b) => a.subject.localeCompare(b.subject));
  };
  const owners = async () => (await defaultStore().store.entities.Account.get({ id: accountId }).go({ consistent: true })).data?.owners;

  beforeAll(async () => {
    accountId = (await createAccount('local-provider')).accountId;
    dataDir = mkdtempSync(path.join(tmpdir(), 'local-provider-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps one owner admin and every member when the issuer changes: moved, same ids and roles, still signing in', async () => {
    await adoptLocalProviderPeople(accountId, earlier, dataDir);
    // A second person joined through an invitation while the provider was at the earlier address.
    const { store } = defaultStore();
    const invitation = await createInvitation(store, { accountId, email: 'bob@localhost', role: 'viewer', inviter: KEY_CLI_ACTOR }, CONSOLE, new Date());
    await acceptInvitation(
      store,
      { kind: 'newcomer', level: 'anonymous', person: { issuer: earlier, subject: 'bob' } },
      invitation.url.split('#')[1],
      new Date(),
    );
    const before = await members();
    expect(before.map(({ subject, issuer, role }) => ({ subject, issuer, role }))).toEqual([
      { subject: 'admin', issuer: earlier, role: 'owner' },
      { subject: 'bob', issuer: earlier, role: 'viewer' },
    ]);
    // A restart at the same address changes nothing.
    await adoptLocalProviderPeople(accountId, earlier, dataDir);
    expect(await members()).toEqual(before);

    // A restart at another address (here the issuer the API trusts): the same people, moved.
    await adoptLocalProviderPeople(accountId, idp.issuer, dataDir);
    expect(await members()).toEqual(before.map((member) => ({ ...member, issuer: idp.issuer })));
    expect(await owners()).toBe(1);
    const admin = await api.call('members/me', [], bearer(await idp.token('admin')));
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ accountId, role: 'owner', person: { memberId: before[0].id } });
    const bob = await api.call('members/me', [], bearer(await idp.token('bob')));
    expect(bob.body).toMatchObject({ accountId, role: 'viewer', person: { memberId: before[1].id } });

    // And back again.
    await adoptLocalProviderPeople(accountId, earlier, dataDir);
    expect(await members()).toEqual(before);
    expect(await owners()).toBe(1);
  });
});
