/**
 * members/* — the people of an account (docs/api.md, "Members and invitations").
 *
 * A membership is one item keyed by the person (store/entities.ts `Member`), so a person is
 * a member of one account at most and authentication reads it with one strongly consistent
 * GetItem. Every change of owners goes through a transaction that also moves the account's
 * `owners` count, conditioned on it staying at least 1: two owners demoting each other at
 * the same time cannot leave the account without one.
 */
import { createConversions } from 'electrodb';
import { randomBytes } from 'node:crypto';
import { type AccountCaller, type Caller, hashSecret, personKey, type Role, roleLevel } from '../api/auth';
import { ApiError, notFound } from '../api/errors';
import type { MemberInviteModel, MemberListQueryModel } from '../api/member-models';
import type { RequestInfo } from '../api/operation';
import { newId } from '../domain/text';
import { Member as MemberEntity, type MemberItem, type Store } from '../store/entities';
import type { TransactItem } from '../store/items';
import { conflictPause, isConflict, writeTransaction } from '../store/transactions';
import { cursorPage } from './paging';

/** How long an invitation can be accepted. */
export const INVITATION_LIFETIME_SECONDS = 7 * 24 * 3600;
const INVITATION_PREFIX = 'fbi_';
/** The console's page that takes an invitation: `<console>/invitations#<token>` (the fragment never reaches a server log). */
export const INVITATION_PATH = '/invitations';

const isOwnerRole = (role: Role) => role === 'owner';
const isPrivileged = (role: Role) => role !== 'viewer';

/** What the API shows of a member. */
export function memberView(member: MemberItem) {
  return {
    id: member.id,
    role: member.role,
    ...(member.email === undefined ? {} : { email: member.email }),
    ...(member.name === undefined ? {} : { name: member.name }),
    issuer: member.issuer,
    subject: member.subject,
    createdAt: member.createdAt,
    updatedAt: member.updatedAt,
  };
}

const memberConversions = createConversions(MemberEntity);

export async function listMembers(store: Store, accountId: string, query: MemberListQueryModel) {
  const converter = memberConversions.byAccessPattern.byAccount.fromComposite;
  const page = await cursorPage<MemberItem>(
    {
      read: async (start, count) => ({
        items: (await store.entities.Member.query.byAccount({ accountId }).go({ cursor: start, count, limit: Math.max(count, 25) })).data,
      }),
      positionOf: (member) => converter.toCursor(member),
    },
    { accountId, scope: { operation: 'members/list' }, path: 'args.0.cursor' },
    { cursor: query.cursor, size: query.$size },
  );
  return { items: page.items.map(memberView), ...(page.cursor === undefined ? {} : { cursor: page.cursor }) };
}

/** Only an owner (a person) may hand out, take away or change the roles admin and owner; keys never can. */
function requireOwner(caller: Caller, what: string): void {
  if (caller.kind === 'person' && caller.role === 'owner') return;
  throw new ApiError('forbidden', `Only an owner may ${what}`, { required: 'owner' });
}

function invitedBy(caller: Caller): string {
  if (caller.kind === 'person') return `member:${caller.memberId}`;
  if (caller.kind === 'key') return `key:${caller.keyId}`;
  return 'cli';
}

/**
 * Where invitation links point: `CONSOLE_URL`, the console's URL, from the configuration only
 * (the stack sets it to its distribution's domain, `npm start` to its console). Never from the
 * request: an `Origin` is the caller's to choose, and would point a real invitation at any site.
 * Without it the service cannot make a link, a fault of its configuration, not of the call.
 */
export function consoleBase(request: Pick<RequestInfo, 'requestId'>, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.CONSOLE_URL?.trim();
  if (configured) {
    try {
      const url = new URL(configured);
      if (url.protocol === 'https:' || url.protocol === 'http:') return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      // not a URL: refused below
    }
  }
  throw new ApiError('internal-error', "Invitation links need the console's URL: set CONSOLE_URL to an http(s) URL in the service's configuration", {
    requestId: request.requestId,
  });
}

export interface NewInvitation {
  accountId: string;
  email: string;
  role: Role;
  invitedBy: string;
}

/** Stores an invitation (only the SHA-256 of its token) and answers its link; the CLI's add-owner uses it too. */
export async function createInvitation(store: Store, invitation: NewInvitation, base: string, now: Date) {
  const token = INVITATION_PREFIX + randomBytes(24).toString('base64url');
  const timestamp = now.toISOString();
  const expiresAt = Math.floor(now.getTime() / 1000) + INVITATION_LIFETIME_SECONDS;
  const { data } = await store.entities.Invitation.create({
    tokenHash: hashSecret(token),
    id: newId(),
    accountId: invitation.accountId,
    email: invitation.email,
    role: invitation.role,
    invitedBy: invitation.invitedBy,
    expiresAt,
    createdAt: timestamp,
    updatedAt: timestamp,
  }).go();
  return {
    invitationId: data.id,
    url: `${base}${INVITATION_PATH}#${token}`,
    email: data.email,
    role: data.role,
    expiresAt: new Date(expiresAt * 1000).toISOString(),
  };
}

export async function inviteMember(store: Store, caller: AccountCaller, input: MemberInviteModel, base: string, now: Date) {
  if (isPrivileged(input.role)) requireOwner(caller, `invite an ${input.role}`);
  return createInvitation(store, { accountId: caller.accountId, email: input.email, role: input.role, invitedBy: invitedBy(caller) }, base, now);
}

/** What members/me answers, and members/accept once the person is in. */
export async function describeCaller(store: Store, caller: Caller) {
  if (caller.kind === 'person') {
    const { person } = caller;
    return {
      accountId: caller.accountId,
      level: caller.level,
      role: caller.role,
      person: {
        memberId: caller.memberId,
        ...(person.email === undefined ? {} : { email: person.email }),
        ...(person.name === undefined ? {} : { name: person.name }),
      },
    };
  }
  if (caller.kind === 'key') {
    const { data } = await store.entities.ApiKey.query.byId({ id: caller.keyId }).go();
    const label = data[0]?.label;
    return { accountId: caller.accountId, level: caller.level, key: { id: caller.keyId, ...(label === undefined ? {} : { label }) } };
  }
  throw new ApiError('unauthorized', 'Not a member of an account');
}

function ownersChange(store: Store, accountId: string, delta: 1 | -1): TransactItem {
  const { Account } = store.entities;
  // A removal keeps at least one owner; an addition needs the account to exist.
  return delta < 0
    ? {
        Update: Account.patch({ id: accountId })
          .add({ owners: -1 })
          .where((attributes, { gt }) => gt(attributes.owners, 1))
          .params(),
      }
    : { Update: Account.patch({ id: accountId }).add({ owners: 1 }).params() };
}

/**
 * Binds the signed-in person to the invitation's account with its role, and deletes the
 * invitation, in one transaction: the invitation must still exist and not have expired,
 * and the person must be a member of no account.
 */
export async function acceptInvitation(store: Store, caller: Caller, token: string, now: Date) {
  if (caller.kind === 'person') {
    throw new ApiError('conflict', 'You are already a member of an account; a person is a member of one account at most', { accountId: caller.accountId });
  }
  if (caller.kind !== 'newcomer') throw new ApiError('forbidden', 'Only a signed-in person can accept an invitation');
  const tokenHash = hashSecret(token);
  const { data: invitation } = await store.entities.Invitation.get({ tokenHash }).go({ consistent: true });
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (!invitation || invitation.expiresAt <= nowSeconds) throw new ApiError('not-found', 'Unknown, used or expired invitation');
  const { person } = caller;
  const timestamp = now.toISOString();
  const member: MemberItem = {
    personKey: personKey(person),
    id: newId(),
    accountId: invitation.accountId,
    issuer: person.issuer,
    subject: person.subject,
    role: invitation.role,
    email: person.email ?? invitation.email,
    name: person.name,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  const { Invitation, Member } = store.entities;
  const items: TransactItem[] = [
    {
      Delete: Invitation.delete({ tokenHash })
        .where((attributes, { gt }) => gt(attributes.expiresAt, nowSeconds))
        .params(),
    },
    { Put: Member.create(member).params() },
    ...(isOwnerRole(invitation.role) ? [ownersChange(store, invitation.accountId, 1)] : []),
  ];
  const outcome = await writeTransaction(store, items);
  if (outcome.canceled) {
    const [used, taken] = outcome.reasons;
    if (taken.code === 'ConditionalCheckFailed') throw new ApiError('conflict', 'You are already a member of an account');
    if (used.code === 'ConditionalCheckFailed') throw new ApiError('not-found', 'Unknown, used or expired invitation');
    if (isConflict(outcome.reasons)) throw new ApiError('conflict', 'The invitation is being accepted by another request');
    throw new ApiError('not-found', 'The inviting account no longer exists');
  }
  return describeCaller(store, { kind: 'person', level: roleLevel(member.role), accountId: member.accountId, memberId: member.id, role: member.role, person });
}

async function memberOfAccount(store: Store, accountId: string, memberId: string): Promise<MemberItem> {
  const { data } = await store.entities.Member.query.byId({ id: memberId }).go();
  const member = data.find((candidate) => candidate.accountId === accountId);
  if (!member) throw notFound('Member', memberId);
  return member;
}

const LAST_OWNER = 'The account must keep at least one owner: make another member owner first';

/** Runs a role change or a removal as one transaction, again (up to 3 times) when another transaction held an item. */
async function changeMembership(store: Store, items: () => TransactItem[], memberId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await writeTransaction(store, items());
    if (!outcome.canceled) return;
    const [change, owners] = outcome.reasons;
    if (owners?.code === 'ConditionalCheckFailed') throw new ApiError('conflict', LAST_OWNER);
    if (change.code === 'ConditionalCheckFailed')
      throw new ApiError('conflict', 'The member was changed or removed meanwhile; read it again', { id: memberId });
    if (!isConflict(outcome.reasons) || attempt === 3)
      throw new ApiError('conflict', 'The member is being changed by another request; try again', { id: memberId });
    await conflictPause(attempt);
  }
}

export async function setMemberRole(store: Store, caller: AccountCaller, memberId: string, role: Role, now: Date) {
  const member = await memberOfAccount(store, caller.accountId, memberId);
  if (member.role === role) return memberView(member);
  if (isPrivileged(member.role) || isPrivileged(role)) requireOwner(caller, `change the role ${member.role} to ${role}`);
  const timestamp = now.toISOString();
  const delta = isOwnerRole(role) ? 1 : isOwnerRole(member.role) ? -1 : 0;
  await changeMembership(
    store,
    () => [
      {
        Update: store.entities.Member.patch({ personKey: member.personKey })
          .set({ role, updatedAt: timestamp })
          .where((attributes, { eq }) => `${eq(attributes.accountId, member.accountId)} AND ${eq(attributes.role, member.role)}`)
          .params(),
      },
      ...(delta === 0 ? [] : [ownersChange(store, member.accountId, delta)]),
    ],
    memberId,
  );
  return memberView({ ...member, role, updatedAt: timestamp });
}

/** Deletes the membership: the person's next request, whatever token it carries, is a newcomer's. */
export async function removeMember(store: Store, caller: AccountCaller, memberId: string): Promise<void> {
  const member = await memberOfAccount(store, caller.accountId, memberId);
  if (isPrivileged(member.role)) requireOwner(caller, `remove an ${member.role}`);
  await changeMembership(
    store,
    () => [
      {
        Delete: store.entities.Member.delete({ personKey: member.personKey })
          .where((attributes, { eq }) => `${eq(attributes.accountId, member.accountId)} AND ${eq(attributes.role, member.role)}`)
          .params(),
      },
      ...(isOwnerRole(member.role) ? [ownersChange(store, member.accountId, -1)] : []),
    ],
    memberId,
  );
}

/**
 * Moves a membership to the same subject at another issuer (a local development provider
 * whose address changed): the same id, role and account, under the new person key, in one
 * transaction; the account's owner count does not change. False (nothing written) when that
 * person is a member already or the membership changed meanwhile.
 */
export async function moveMembership(store: Store, member: MemberItem, issuer: string, now: Date): Promise<boolean> {
  const { Member } = store.entities;
  const moved: MemberItem = { ...member, personKey: personKey({ issuer, subject: member.subject }), issuer, updatedAt: now.toISOString() };
  const outcome = await writeTransaction(store, [
    {
      Delete: Member.delete({ personKey: member.personKey })
        .where((attributes, { eq }) => `${eq(attributes.accountId, member.accountId)} AND ${eq(attributes.role, member.role)}`)
        .params(),
    },
    { Put: Member.create(moved).params() },
  ]);
  return !outcome.canceled;
}
