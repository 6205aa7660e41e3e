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
import { callerActor } from '../api/audit';
import { type AccountCaller, type Caller, hashSecret, memberIdentity, personCaller, personKey, ROLES, type Role, verifiedEmail } from '../api/auth';
import { ApiError, notFound } from '../api/errors';
import type { InvitationListQueryModel, MemberInviteModel, MemberListQueryModel } from '../api/member-models';
import type { RequestInfo } from '../api/operation';
import { fallingKeys, invitedByText, keyMayGrant, makerOfInvitation, roleMayGrant } from '../domain/access-cascade';
import type { AuditActor } from '../domain/audit';
import { newId } from '../domain/text';
import { type AccountItem, Invitation as InvitationEntity, type InvitationItem, Member as MemberEntity, type MemberItem, type Store } from '../store/entities';
import { keys as itemKeys, type TransactItem } from '../store/items';
import { conflictPause, isConflict, writeTransaction } from '../store/transactions';
import { accountKeys, cascadeOf, KEYS_MADE_MEANWHILE, keyMaker, makerView, TRANSACTION_ITEMS, writeAhead } from './access-cascade';
import { membersMail } from './notifications';
import { cursorPage } from './paging';

/** How long an invitation can be accepted. */
export const INVITATION_LIFETIME_SECONDS = 7 * 24 * 3600;
const INVITATION_PREFIX = 'fbi_';
/** The console's page that takes an invitation: `<console>/invitations#<token>` (the fragment never reaches a server log). */
export const INVITATION_PATH = '/invitations';

const isOwnerRole = (role: Role) => role === 'owner';
const isPrivileged = (role: Role) => role !== 'viewer';

/** What the API shows of a member; `keys`: the live keys removing them would revoke. */
export function memberView(member: MemberItem, keys?: number) {
  return {
    id: member.id,
    role: member.role,
    ...(member.email === undefined ? {} : { email: member.email }),
    ...(member.name === undefined ? {} : { name: member.name }),
    issuer: member.issuer,
    subject: member.subject,
    createdAt: member.createdAt,
    updatedAt: member.updatedAt,
    ...(keys === undefined ? {} : { keys }),
  };
}

const memberConversions = createConversions(MemberEntity);

/** The account's members, each with the number of live keys their removal would revoke (one more Query: the account's keys). */
export async function listMembers(store: Store, accountId: string, query: MemberListQueryModel) {
  const converter = memberConversions.byAccessPattern.byAccount.fromComposite;
  const keys = (await accountKeys(store, accountId)).map((key) => ({ id: key.id, level: key.level, revokedAt: key.revokedAt, createdBy: keyMaker(key) }));
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
  const mail = await membersMail(store, accountId, page.items);
  return {
    items: page.items.map((member) => ({ ...memberView(member, fallingKeys(keys, { memberId: member.id }).length), ...mail.get(member.id) })),
    ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
  };
}

/** Only an owner (a person) may hand out, take away or change the roles admin and owner; keys never can. */
function requireOwner(caller: Caller, what: string): void {
  if (caller.kind === 'person' && caller.role === 'owner') return;
  throw new ApiError('forbidden', `Only an owner may ${what}`, { required: 'owner' });
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
  /** Who invites: the calling member or key, or the operator (the key CLI's add-owner, npm start's first owner). */
  inviter: AuditActor;
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
    invitedBy: invitedByText(invitation.inviter),
    inviter: invitation.inviter,
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
  return createInvitation(store, { accountId: caller.accountId, email: input.email, role: input.role, inviter: callerActor(caller) }, base, now);
}

/** What members/invitations shows of a pending invitation: never its token or the token's hash. */
function invitationView(invitation: InvitationItem) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    invitedBy: makerView(invitation.inviter, makerOfInvitation(invitation.invitedBy)),
    createdAt: invitation.createdAt,
    expiresAt: new Date(invitation.expiresAt * 1000).toISOString(),
  };
}

const invitationConversions = createConversions(InvitationEntity);

/**
 * The account's pending invitations, newest first. Expired ones are left out (the table's
 * TTL deletes them within days); invitations whose maker lost the right to grant them are
 * deleted by that change (operations/access-cascade.ts), so they are not pending.
 */
export async function listInvitations(store: Store, accountId: string, query: InvitationListQueryModel, now: Date) {
  const converter = invitationConversions.byAccessPattern.byAccount.fromComposite;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const page = await cursorPage<InvitationItem>(
    {
      read: async (start, count) => ({
        items: (
          await store.entities.Invitation.query
            .byAccount({ accountId })
            .where((attributes, { gt }) => gt(attributes.expiresAt, nowSeconds))
            .go({ order: 'desc', cursor: start, count, limit: Math.max(count, 25) })
        ).data,
      }),
      positionOf: (invitation) => converter.toCursor(invitation),
    },
    { accountId, scope: { operation: 'members/invitations' }, path: 'args.0.cursor' },
    { cursor: query.cursor, size: query.$size },
  );
  return { items: page.items.map(invitationView), ...(page.cursor === undefined ? {} : { cursor: page.cursor }) };
}

/**
 * Withdraws a pending invitation by its id: its link answers not-found from now on. An
 * owner invitation needs an owner; another account's, an accepted or an unknown id is
 * not-found.
 */
export async function withdrawInvitation(store: Store, caller: AccountCaller, invitationId: string): Promise<void> {
  const { data } = await store.entities.Invitation.query.byId({ id: invitationId }).go();
  const invitation = data.find((candidate) => candidate.accountId === caller.accountId);
  if (!invitation) throw notFound('Invitation', invitationId);
  if (invitation.role === 'owner') requireOwner(caller, 'withdraw an owner invitation');
  // The index may still show an invitation accepted a moment ago: then there is nothing to withdraw.
  const { data: deleted } = await store.entities.Invitation.delete({ tokenHash: invitation.tokenHash }).go({ response: 'all_old' });
  if (!deleted) throw notFound('Invitation', invitationId);
}

const GONE = 'Unknown, used, expired or withdrawn invitation';

/** What people see an account called: the name an owner gave it, else the name it was created with. */
export const accountDisplayName = (account: Pick<AccountItem, 'name' | 'displayName'>) => account.displayName ?? account.name;

async function accountName(store: Store, accountId: string): Promise<string> {
  const { data } = await store.entities.Account.get({ id: accountId }).go();
  if (!data) throw new ApiError('unauthorized', 'The account no longer exists');
  return accountDisplayName(data);
}

/** members/renameAccount: an owner names the account as its people see it. */
export async function renameAccount(store: Store, caller: AccountCaller, name: string, now: Date) {
  requireOwner(caller, 'rename the account');
  const { accountId } = caller;
  const { data } = await store.entities.Account.patch({ id: accountId }).set({ displayName: name, updatedAt: now.toISOString() }).go({ response: 'all_new' });
  return { id: accountId, name: accountDisplayName(data as AccountItem) };
}

/**
 * What an invitation link invites to, for whoever holds the link (members/invitedTo, no
 * sign-in): the account's name, the role and the expiry; never who else is invited.
 */
export async function describeInvitation(store: Store, token: string, now: Date) {
  const { data: invitation } = await store.entities.Invitation.get({ tokenHash: hashSecret(token) }).go();
  if (!invitation || invitation.expiresAt <= Math.floor(now.getTime() / 1000)) throw new ApiError('not-found', GONE);
  return {
    accountName: await accountName(store, invitation.accountId),
    role: invitation.role,
    expiresAt: new Date(invitation.expiresAt * 1000).toISOString(),
  };
}

/** What members/me answers, and members/accept once the person is in. */
export async function describeCaller(store: Store, caller: Caller) {
  if (caller.kind === 'person') {
    const { email, name } = memberIdentity(caller.person, caller.member);
    return {
      accountId: caller.accountId,
      accountName: await accountName(store, caller.accountId),
      level: caller.level,
      role: caller.role,
      person: { memberId: caller.memberId, ...(email === undefined ? {} : { email }), ...(name === undefined ? {} : { name }) },
    };
  }
  if (caller.kind === 'key') {
    const { data } = await store.entities.ApiKey.query.byId({ id: caller.keyId }).go();
    const label = data[0]?.label;
    return {
      accountId: caller.accountId,
      accountName: await accountName(store, caller.accountId),
      level: caller.level,
      key: { id: caller.keyId, ...(label === undefined ? {} : { label }) },
    };
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
 * The ConditionCheck that the invitation's maker still holds a role that may grant its
 * role, at the instant the acceptance commits: the member (same id, same account, a
 * granting role) or the key (same id, not revoked). `null` when it already does not (the
 * invitation is void); undefined for the operator's invitations, which nobody's loss voids.
 * One read (the maker by id, from gsi2); the check itself is on the maker's own item, so
 * a removal, demotion or revocation committed before the acceptance always wins.
 */
async function makerStillGrants(store: Store, invitation: InvitationItem, accepter: string): Promise<TransactItem | null | undefined> {
  const maker = makerOfInvitation(invitation.invitedBy);
  if (maker.type === 'operator') return undefined;
  if (maker.type === 'person') {
    const { data } = await store.entities.Member.query.byId({ id: maker.memberId }).go();
    const member = data.find((candidate) => candidate.accountId === invitation.accountId);
    // The accepter is a member of no account (authentication read that strongly
    // consistent): an index still naming them as the maker is behind a removal.
    if (!member || member.personKey === accepter || !roleMayGrant(member.role, invitation.role)) return null;
    const granting = ROLES.filter((role) => roleMayGrant(role, invitation.role));
    return {
      ConditionCheck: {
        TableName: store.tableName,
        Key: itemKeys.member(member.personKey),
        ConditionExpression: `#id = :id AND #accountId = :accountId AND #role IN (${granting.map((_, index) => `:role${index}`).join(', ')})`,
        ExpressionAttributeNames: { '#id': 'id', '#accountId': 'accountId', '#role': 'role' },
        ExpressionAttributeValues: {
          ':id': member.id,
          ':accountId': invitation.accountId,
          ...Object.fromEntries(granting.map((role, index) => [`:role${index}`, role])),
        },
      },
    };
  }
  const { data } = await store.entities.ApiKey.query.byId({ id: maker.keyId }).go();
  const key = data.find((candidate) => candidate.accountId === invitation.accountId);
  if (!key || key.revokedAt !== undefined || !keyMayGrant(key.level, invitation.role)) return null;
  return {
    ConditionCheck: {
      TableName: store.tableName,
      Key: itemKeys.apiKey(key.keyHash),
      ConditionExpression: '#id = :id AND attribute_not_exists(#revokedAt)',
      ExpressionAttributeNames: { '#id': 'id', '#revokedAt': 'revokedAt' },
      ExpressionAttributeValues: { ':id': key.id },
    },
  };
}

/** A void invitation is deleted when someone tries it (its maker's loss normally did that already). */
async function voided(store: Store, invitation: InvitationItem): Promise<never> {
  await store.entities.Invitation.delete({ tokenHash: invitation.tokenHash }).go({ response: 'none' });
  throw new ApiError('not-found', `${GONE}: whoever made it no longer may grant this role`, { reason: 'inviter-lost-access' });
}

/**
 * Binds the signed-in person to the invitation's account with its role, and deletes the
 * invitation, in one transaction: the invitation must still exist and not have expired,
 * the person must be a member of no account, and whoever made the invitation must still
 * hold a role (or a live key) that may grant it.
 */
/** `touched` gets the invitation's id and the new membership's (the call's audit entry names them). */
export async function acceptInvitation(store: Store, caller: Caller, token: string, now: Date, touched: string[] = []) {
  if (caller.kind === 'person') {
    throw new ApiError('conflict', 'You are already a member of an account; a person is a member of one account at most', { accountId: caller.accountId });
  }
  if (caller.kind !== 'newcomer') throw new ApiError('forbidden', 'Only a signed-in person can accept an invitation');
  const tokenHash = hashSecret(token);
  const { data: invitation } = await store.entities.Invitation.get({ tokenHash }).go({ consistent: true });
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (!invitation || invitation.expiresAt <= nowSeconds) throw new ApiError('not-found', GONE);
  const { person } = caller;
  const accepter = personKey(person);
  const makerCheck = await makerStillGrants(store, invitation, accepter);
  if (makerCheck === null) return voided(store, invitation);
  const timestamp = now.toISOString();
  const member: MemberItem = {
    personKey: accepter,
    id: newId(),
    accountId: invitation.accountId,
    issuer: person.issuer,
    subject: person.subject,
    role: invitation.role,
    // Unverified, a token's email is only what someone typed: the invited address is recorded instead.
    email: verifiedEmail(person) ?? invitation.email,
    // Mail goes only to an address the provider verified (operations/notifications.ts).
    ...(verifiedEmail(person) ? { mailAddress: verifiedEmail(person) } : {}),
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
    ...(makerCheck ? [makerCheck] : []),
    ...(isOwnerRole(invitation.role) ? [ownersChange(store, invitation.accountId, 1)] : []),
  ];
  const outcome = await writeTransaction(store, items);
  if (outcome.canceled) {
    const [used, taken, check] = outcome.reasons;
    if (taken.code === 'ConditionalCheckFailed') throw new ApiError('conflict', 'You are already a member of an account');
    if (used.code === 'ConditionalCheckFailed') throw new ApiError('not-found', GONE);
    if (makerCheck && check.code === 'ConditionalCheckFailed') return voided(store, invitation);
    if (isConflict(outcome.reasons)) throw new ApiError('conflict', 'The invitation is being accepted by another request');
    throw new ApiError('not-found', 'The inviting account no longer exists');
  }
  touched.push(invitation.id, member.id);
  return describeCaller(store, personCaller(person, member));
}

/** The member by id (the index), then their item read strongly consistent: its role and count of keys made are what the change is conditioned on. */
async function memberOfAccount(store: Store, accountId: string, memberId: string): Promise<MemberItem> {
  const { data } = await store.entities.Member.query.byId({ id: memberId }).go();
  const listed = data.find((candidate) => candidate.accountId === accountId);
  const { data: member } = listed ? await store.entities.Member.get({ personKey: listed.personKey }).go({ consistent: true }) : { data: null };
  if (!member || member.id !== memberId || member.accountId !== accountId) throw notFound('Member', memberId);
  return member;
}

const LAST_OWNER = 'The account must keep at least one owner: make another member owner first';

/** What a role change or a removal also did: the keys it revoked and the invitations it deleted (the audit entry names them). */
export interface MembershipChange {
  revokedKeyIds: string[];
  withdrawnInvitationIds: string[];
}

/**
 * Runs a role change or a removal as one transaction with the owners count and what falls
 * with it (operations/access-cascade.ts), again (up to 3 times) when another transaction
 * held an item. What falls beyond one transaction's room is written first: revocations are
 * safe to make early, and the change's own transaction then holds the rest.
 */
async function changeMembership(
  store: Store,
  member: MemberItem,
  change: TransactItem,
  ownersDelta: -1 | 0 | 1,
  loss: { memberId: string; role?: Role } | undefined,
  now: Date,
): Promise<MembershipChange> {
  const cascade = loss ? await cascadeOf(store, member.accountId, loss, now, member.keysMade ?? 0) : { keys: [], invitations: [], writes: [] };
  const owners = ownersDelta === 0 ? [] : [ownersChange(store, member.accountId, ownersDelta)];
  const rest = await writeAhead(store, cascade.writes, TRANSACTION_ITEMS - 1 - owners.length);
  for (let attempt = 1; ; attempt++) {
    const outcome = await writeTransaction(store, [change, ...owners, ...rest]);
    if (!outcome.canceled) {
      return { revokedKeyIds: cascade.keys.map((key) => key.id), withdrawnInvitationIds: cascade.invitations.map((invitation) => invitation.id) };
    }
    const [changed, counted] = outcome.reasons;
    if (owners.length > 0 && counted.code === 'ConditionalCheckFailed') throw new ApiError('conflict', LAST_OWNER);
    if (changed.code === 'ConditionalCheckFailed')
      throw new ApiError('conflict', 'The member was changed or removed meanwhile (or made a key); read it again', { id: member.id });
    if (outcome.reasons.some((reason) => reason.code === 'ConditionalCheckFailed')) throw new ApiError('conflict', KEYS_MADE_MEANWHILE, { id: member.id });
    if (!isConflict(outcome.reasons) || attempt === 3)
      throw new ApiError('conflict', 'The member is being changed by another request; try again', { id: member.id });
    await conflictPause(attempt);
  }
}

/**
 * Changes a member's role. A demotion revokes, in the same change, the live keys the member
 * created above the level they keep and deletes the invitations they may no longer grant.
 */
export async function setMemberRole(store: Store, caller: AccountCaller, memberId: string, role: Role, now: Date) {
  const member = await memberOfAccount(store, caller.accountId, memberId);
  if (member.role === role) return { member: memberView(member), revokedKeyIds: [], withdrawnInvitationIds: [] };
  if (isPrivileged(member.role) || isPrivileged(role)) requireOwner(caller, `change the role ${member.role} to ${role}`);
  const timestamp = now.toISOString();
  const delta = isOwnerRole(role) ? 1 : isOwnerRole(member.role) ? -1 : 0;
  const change: TransactItem = {
    Update: store.entities.Member.patch({ personKey: member.personKey }).set({ role, updatedAt: timestamp }).where(unchangedMembership(member)).params(),
  };
  // A promotion takes nothing away; a demotion may (keys above the new level, invitations it may not grant).
  const demotion = ROLES.indexOf(role) < ROLES.indexOf(member.role);
  const done = await changeMembership(store, member, change, delta, demotion ? { memberId: member.id, role } : undefined, now);
  return { member: memberView({ ...member, role, updatedAt: timestamp }), ...done };
}

type MemberCondition = Parameters<ReturnType<Store['entities']['Member']['remove']>['where']>[0];

/**
 * The condition of a role change or removal: the membership is still the one read (account,
 * role, and the count of keys it made, so a key made meanwhile makes the change conflict).
 */
function unchangedMembership(member: Pick<MemberItem, 'accountId' | 'role' | 'keysMade'>): MemberCondition {
  return (attributes, { eq, notExists }) =>
    `${eq(attributes.accountId, member.accountId)} AND ${eq(attributes.role, member.role)} AND ${
      member.keysMade === undefined ? notExists(attributes.keysMade) : eq(attributes.keysMade, member.keysMade)
    }`;
}

/**
 * Deletes the membership: the person's next request, whatever token it carries, is a
 * newcomer's. The live keys they created (and keys those keys created) are revoked, and
 * their pending invitations deleted, in the same change.
 */
export async function removeMember(store: Store, caller: AccountCaller, memberId: string, now: Date): Promise<MembershipChange> {
  const member = await memberOfAccount(store, caller.accountId, memberId);
  if (isPrivileged(member.role)) requireOwner(caller, `remove an ${member.role}`);
  const change: TransactItem = {
    Delete: store.entities.Member.delete({ personKey: member.personKey }).where(unchangedMembership(member)).params(),
  };
  return changeMembership(store, member, change, isOwnerRole(member.role) ? -1 : 0, { memberId: member.id }, now);
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
