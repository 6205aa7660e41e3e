/**
 * members/notifications, members/setNotifications (docs/api.md, "Mail"): a member's own
 * notification preferences, and what members/list shows admins of everyone's.
 *
 * Mail goes only to an address the member's sign-in provider verified. The membership
 * records it at acceptance; a member who joined before, or whose provider verified a
 * new address since, has it recorded by their own next call here (the console's
 * Notifications page reads it): mail then follows the address the person signs in with.
 */
import { type Caller, verifiedEmail } from '../api/auth';
import { ApiError } from '../api/errors';
import type { NotificationSettingsModel } from '../api/member-models';
import { defaultPreferences, effectivePreferences, type StoredPreferences } from '../domain/notifications';
import { mailConfiguration } from '../mail/settings';
import type { MemberItem, Store } from '../store/entities';
import { getRawItemsChunked } from '../store/batch';
import { liftSuppression, type SuppressionRecord, suppressionsOf, takeSendNow } from '../store/mail';
import { accountAudience } from '../mail/audience';
import { mailDigestTo, withMail } from '../mail/mails';
import { buildProjectDigest } from './digest';
import { isConditionFailure } from '../store/conditions';

type PersonCaller = Extract<Caller, { kind: 'person' }>;

function personOnly(caller: Caller): PersonCaller {
  if (caller.kind === 'person') return caller;
  throw new ApiError('forbidden', "Notifications are a person's: an API key has no mailbox. Sign in as the member instead.", { required: 'person' });
}

/** What a member chose, as stored (the map's fields only). */
export function storedPreferences(member: Pick<MemberItem, 'notifications'>): StoredPreferences {
  const stored = member.notifications ?? {};
  return {
    ...(stored.weeklyDigest === undefined ? {} : { weeklyDigest: stored.weeklyDigest }),
    ...(stored.alerts === undefined ? {} : { alerts: stored.alerts }),
    ...(stored.projects === undefined ? {} : { projects: stored.projects }),
  };
}

const suppressionView = (suppression: SuppressionRecord | undefined) =>
  suppression ? { suppressed: { reason: suppression.reason, at: suppression.at, ...(suppression.detail ? { detail: suppression.detail } : {}) } } : {};

/** members/list's view of a page of members' mail: preferences in effect, address, suppression (one BatchGetItem). */
export async function membersMail(store: Store, accountId: string, members: MemberItem[]) {
  const suppressions = await suppressionsOf(
    store,
    accountId,
    members.flatMap((member) => (member.mailAddress ? [member.mailAddress] : [])),
  );
  return new Map(
    members.map((member) => [
      member.id,
      {
        notifications: effectivePreferences(member.role, storedPreferences(member)),
        mail: {
          ...(member.mailAddress ? { address: member.mailAddress } : {}),
          ...suppressionView(member.mailAddress ? suppressions.get(member.mailAddress.toLowerCase()) : undefined),
        },
      },
    ]),
  );
}

/** The member's item, read strongly consistent (their own; authentication read it already this request). */
async function ownMember(store: Store, caller: PersonCaller): Promise<MemberItem> {
  const { data } = await store.entities.Member.query.byId({ id: caller.memberId }).go();
  const listed = data.find((candidate) => candidate.accountId === caller.accountId);
  const { data: member } = listed ? await store.entities.Member.get({ personKey: listed.personKey }).go({ consistent: true }) : { data: null };
  if (!member || member.id !== caller.memberId) throw new ApiError('unauthorized', 'Your membership changed meanwhile; sign in again');
  return member;
}

/** Changes the caller's own membership item (one UpdateItem), on the condition that it is still that membership. */
async function patchOwnMember(store: Store, member: MemberItem, change: Pick<MemberItem, 'mailAddress'> | Pick<MemberItem, 'notifications'>, now: Date) {
  try {
    await store.entities.Member.patch({ personKey: member.personKey })
      .set({ ...change, updatedAt: now.toISOString() })
      .where((attributes, { eq }) => `${eq(attributes.id, member.id)} AND ${eq(attributes.accountId, member.accountId)}`)
      .go({ response: 'none' });
  } catch (error) {
    if (isConditionFailure(error)) throw new ApiError('unauthorized', 'Your membership changed meanwhile; sign in again');
    throw error;
  }
}

/** Records the token's verified email as the member's mail address when it differs. */
async function refreshMailAddress(store: Store, caller: PersonCaller, member: MemberItem, now: Date): Promise<MemberItem> {
  const verified = verifiedEmail(caller.person);
  if (!verified || verified === member.mailAddress) return member;
  await patchOwnMember(store, member, { mailAddress: verified }, now);
  return { ...member, mailAddress: verified };
}

async function notificationsView(store: Store, member: MemberItem) {
  const chosen = storedPreferences(member);
  const suppressions = member.mailAddress ? await suppressionsOf(store, member.accountId, [member.mailAddress]) : new Map();
  const configuration = mailConfiguration();
  return {
    preferences: effectivePreferences(member.role, chosen),
    chosen,
    defaults: defaultPreferences(member.role),
    mail: {
      ...(member.mailAddress ? { address: member.mailAddress } : {}),
      ...suppressionView(member.mailAddress ? suppressions.get(member.mailAddress.toLowerCase()) : undefined),
    },
    delivery: configuration.enabled ? { enabled: true } : { enabled: false, off: configuration.off },
  };
}

/** members/notifications: the caller's own. */
export async function readNotifications(store: Store, caller: Caller, now: Date) {
  const person = personOnly(caller);
  return notificationsView(store, await refreshMailAddress(store, person, await ownMember(store, person), now));
}

/** The projects of the account among `ids`; the others are refused (one BatchGetItem). */
async function requireProjects(store: Store, accountId: string, ids: string[]): Promise<void> {
  const items = await getRawItemsChunked(
    store,
    ids.map((id) => ({ pk: `project#${id}`, sk: 'project' })),
  );
  const unknown = ids.filter((_, index) => items[index]?.accountId !== accountId);
  if (unknown.length > 0) throw new ApiError('not-found', `No project ${unknown.map((id) => `"${id}"`).join(', ')} in this account`, { projectIds: unknown });
}

/**
 * members/setNotifications: changes the fields given of the caller's own preferences;
 * `resumeMail` lifts the suppression of their own address (they fixed what bounced).
 */
export async function setNotifications(store: Store, caller: Caller, input: NotificationSettingsModel & { resumeMail?: boolean }, now: Date) {
  const person = personOnly(caller);
  const member = await refreshMailAddress(store, person, await ownMember(store, person), now);
  const projects = input.projects ? [...new Set(input.projects)] : input.projects;
  if (projects) await requireProjects(store, member.accountId, projects);
  const chosen: StoredPreferences = {
    ...storedPreferences(member),
    ...(input.weeklyDigest === undefined ? {} : { weeklyDigest: input.weeklyDigest }),
    ...(input.alerts === undefined ? {} : { alerts: input.alerts }),
  };
  if (projects === null) delete chosen.projects;
  else if (projects) chosen.projects = projects;
  await patchOwnMember(store, member, { notifications: chosen }, now);
  if (input.resumeMail && member.mailAddress) await liftSuppression(store, member.accountId, member.mailAddress);
  return notificationsView(store, { ...member, notifications: chosen });
}

/** How often a member may ask for their digest now. */
export const SEND_NOW_INTERVAL_MS = 5 * 60_000;

/**
 * members/sendDigest: the project's digest of its last complete week, mailed now to the
 * caller's own verified address only (mail/mails.ts `mailDigestTo`), whatever their
 * preferences; at most once every 5 minutes per member.
 */
export async function sendOwnDigest(store: Store, caller: Caller, projectId: string, now: Date) {
  const person = personOnly(caller);
  const configuration = mailConfiguration();
  if (!configuration.enabled) throw new ApiError('unavailable', configuration.off);
  const member = await refreshMailAddress(store, person, await ownMember(store, person), now);
  const address = member.mailAddress;
  if (!address) throw new ApiError('conflict', 'Your sign-in provider has not verified an email address for you, so the service cannot mail you');
  const { data: project } = await store.entities.Project.get({ id: projectId }).go();
  if (!project || project.accountId !== member.accountId) throw new ApiError('not-found', `No project "${projectId}" in this account`, { projectId });
  if ((await suppressionsOf(store, member.accountId, [address])).size > 0) {
    throw new ApiError('conflict', 'Mail to your address bounced or was marked as spam: ask to be mailed again in your notification settings first');
  }
  if (!(await takeSendNow(store, member.id, now, SEND_NOW_INTERVAL_MS))) {
    throw new ApiError('too-many-requests', 'You asked for a digest in the last 5 minutes; try again later', {
      retryAfterSeconds: SEND_NOW_INTERVAL_MS / 1000,
    });
  }
  const digest = await buildProjectDigest(store, { accountId: member.accountId, projectId, name: project.name }, now);
  const self = {
    recipient: { memberId: member.id, personKey: member.personKey, accountId: member.accountId, address },
    preferences: effectivePreferences(member.role, storedPreferences(member)),
  };
  const audience = { ...(await accountAudience(store, member.accountId)), members: [self] };
  const outcome = await withMail(store, (mail) => mailDigestTo(mail!.sender, mail!.settings, audience, self, digest));
  if (outcome.state !== 'sent') {
    throw new ApiError('unavailable', `The digest could not be sent: ${'reason' in outcome ? outcome.reason : outcome.state}`);
  }
  return { sent: true, to: address, subject: outcome.subject };
}
