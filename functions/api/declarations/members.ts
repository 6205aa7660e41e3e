import * as z from 'zod';
import { declareOperation } from '../operation';
import {
  AccountNameModel,
  InvitationListQueryModel,
  invitationId,
  invitationToken,
  MemberInviteModel,
  MemberListQueryModel,
  memberId,
  NotificationSettingsModel,
  projectToMail,
  RoleModel,
} from '../member-models';
import {
  AccountModel,
  DigestMailedModel,
  InvitationModel,
  InvitedToModel,
  MemberModel,
  MemberPageModel,
  MeModel,
  NoContent,
  NotificationsModel,
  PendingInvitationPageModel,
} from '../result-models';

/**
 * The people of the caller's own account (docs/api.md, "Members and invitations"). A
 * person is a member of one account at most; the last owner can never be demoted or
 * removed. Changes hold from the member's next request (authentication reads the
 * membership strongly consistent). Whatever a member or key made (keys, invitations)
 * lasts only while they may grant it: a removal or demotion revokes it in the same change.
 */
export const membersList = declareOperation({
  resource: 'members',
  name: 'list',
  summary: "The account's members, oldest first; page on with the returned cursor.",
  args: z.tuple([MemberListQueryModel.nullish()]),
  signature: 'query?: { $size?, cursor? }',
  result: MemberPageModel,
  level: 'admin',
  readOnly: true,
  errors: [],
  pagesByCursor: true,
});

export const membersInvite = declareOperation({
  resource: 'members',
  name: 'invite',
  summary: 'Invites a person by email with a role; answers a single-use link valid 7 days, shown only here. Only an owner may invite an admin or an owner.',
  args: z.tuple([MemberInviteModel]),
  signature: "{ email, role: 'viewer' | 'admin' | 'owner' }",
  result: InvitationModel,
  level: 'admin',
  readOnly: false,
  errors: [],
});

export const membersInvitations = declareOperation({
  resource: 'members',
  name: 'invitations',
  summary:
    "The account's pending invitations, newest first: email, role, who made each and when it expires (never the link); page on with the returned cursor.",
  args: z.tuple([InvitationListQueryModel.nullish()]),
  signature: 'query?: { $size?, cursor? }',
  result: PendingInvitationPageModel,
  level: 'admin',
  readOnly: true,
  errors: [],
  pagesByCursor: true,
});

export const membersWithdraw = declareOperation({
  resource: 'members',
  name: 'withdraw',
  summary: 'Withdraws a pending invitation by its id: its link no longer works. Withdrawing an owner invitation needs an owner.',
  args: z.tuple([invitationId]),
  signature: 'id: string',
  result: NoContent,
  level: 'admin',
  readOnly: false,
  errors: ['not-found'],
});

export const membersInvitedTo = declareOperation({
  resource: 'members',
  name: 'invitedTo',
  summary:
    "What an invitation link invites to, for whoever holds it, signed in or not: the account's name, the role and when the link expires (the console's invitation page). Never who else is invited.",
  args: z.tuple([invitationToken]),
  signature: 'token: string',
  result: InvitedToModel,
  level: 'anonymous',
  readOnly: true,
  errors: ['not-found'],
});

export const membersAccept = declareOperation({
  resource: 'members',
  name: 'accept',
  summary:
    'Makes the signed-in person (Bearer token) a member of the inviting account with the invited role, and uses the invitation up; only while whoever made it may still grant that role. A person is a member of one account at most.',
  args: z.tuple([invitationToken]),
  signature: 'token: string',
  result: MeModel,
  level: 'person',
  readOnly: false,
  errors: ['not-found', 'conflict'],
});

export const membersSetRole = declareOperation({
  resource: 'members',
  name: 'setRole',
  summary:
    "Changes a member's role. Changes to or from admin or owner need an owner; the last owner cannot be demoted. A demotion revokes the member's keys above their new level and the invitations they may no longer grant.",
  args: z.tuple([memberId, RoleModel]),
  signature: "id: string, role: 'viewer' | 'admin' | 'owner'",
  result: MemberModel,
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict', 'unavailable'],
});

export const membersRemove = declareOperation({
  resource: 'members',
  name: 'remove',
  summary:
    "Removes a member, from the person's next request on, revoking the keys they created and their pending invitations. Removing an admin or owner needs an owner; the last owner cannot be removed.",
  args: z.tuple([memberId]),
  signature: 'id: string',
  result: NoContent,
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict', 'unavailable'],
});

export const membersMe = declareOperation({
  resource: 'members',
  name: 'me',
  summary: "Who the caller is: the account, the level, and the member's role and person or the API key's id and label.",
  args: z.tuple([]),
  signature: '',
  result: MeModel,
  level: 'viewer',
  readOnly: true,
  errors: [],
});

export const membersRenameAccount = declareOperation({
  resource: 'members',
  name: 'renameAccount',
  summary:
    "Names the account as its people see it (members/me, invitation pages); owners only. The name the account was created with (the key CLI's) stays its name there.",
  args: z.tuple([AccountNameModel]),
  signature: 'name: string',
  result: AccountModel,
  level: 'admin',
  readOnly: false,
  errors: [],
});

export const membersNotifications = declareOperation({
  resource: 'members',
  name: 'notifications',
  summary:
    "Your own notifications in this account (a signed-in member; an API key has no mailbox): the weekly digest, alert mails, the projects they cover, your role's defaults, the verified address mail goes to, its suppression, and whether this deployment sends mail.",
  args: z.tuple([]),
  signature: '',
  result: NotificationsModel,
  level: 'viewer',
  readOnly: true,
  errors: [],
});

export const membersSetNotifications = declareOperation({
  resource: 'members',
  name: 'setNotifications',
  summary:
    'Changes your own notifications (the fields given; the others stay): `weeklyDigest`, `alerts` (`immediately`, `daily`, `off`), `projects` (`null`: all); `resumeMail: true` mails your address again after a bounce or complaint. Audited.',
  args: z.tuple([NotificationSettingsModel]),
  signature: "{ weeklyDigest?, alerts?: 'immediately' | 'daily' | 'off', projects?: string[] | null, resumeMail? }",
  result: NotificationsModel,
  level: 'viewer',
  readOnly: false,
  errors: ['not-found'],
});

export const membersSendDigest = declareOperation({
  resource: 'members',
  name: 'sendDigest',
  summary:
    "Mails you this week's digest of a project now (its last complete week), to your own verified address only, whatever your preferences; once every 5 minutes at most.",
  args: z.tuple([projectToMail]),
  signature: 'projectId: string',
  result: DigestMailedModel,
  level: 'viewer',
  readOnly: false,
  errors: ['not-found', 'conflict', 'too-many-requests', 'unavailable'],
  sendsMail: true,
  timeoutSeconds: 28,
});
