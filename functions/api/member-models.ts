import * as z from 'zod';
import { ALERT_MAIL_MODES, MAX_FOLLOWED_PROJECTS } from '../domain/notifications';
import { ROLES } from './roles';
import { cursor } from './response-models';
import { nameText } from '../domain/names';
import { id, MAX_PAGE_SIZE } from './models';

export const DEFAULT_MEMBER_PAGE_SIZE = 100;
export const MAX_EMAIL_LENGTH = 320;

export const RoleModel = z.enum(ROLES).meta({
  id: 'Role',
  description: "A member's role: viewer (reads), admin (reads and writes, invites viewers), owner (an admin who also manages admins and owners).",
});

/** At most 64 characters before the `@` (RFC 5321's limit on a mailbox's local part). */
export const MAX_EMAIL_LOCAL_PART_LENGTH = 64;

/**
 * An address a provider can issue, as the console's email field takes it: the WHATWG rule
 * of `<input type="email">` (zod's `html5Email`), which allows a domain without a dot (npm
 * start's provider names its people `<login>@localhost`), with RFC 5321's limit on the part
 * before the `@` in the same pattern, so the OpenAPI document says all of it. Not `format:
 * email`: JSON Schema's email format (RFC 5321 with a dotted domain in common validators)
 * would refuse such addresses in generated clients.
 */
export const invitedEmail = z
  .string()
  .max(MAX_EMAIL_LENGTH)
  .regex(new RegExp(`^(?=[^@]{1,${MAX_EMAIL_LOCAL_PART_LENGTH}}@)${z.regexes.html5Email.source.slice(1)}`), { message: 'Invalid email address' });

export const MemberInviteModel = z.strictObject({
  email: invitedEmail,
  role: RoleModel,
});
export type MemberInviteModel = z.infer<typeof MemberInviteModel>;

export const MemberListQueryModel = z.strictObject({
  $size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_MEMBER_PAGE_SIZE),
  cursor: cursor.optional(),
});
export type MemberListQueryModel = z.infer<typeof MemberListQueryModel>;

export const InvitationListQueryModel = z.strictObject({
  $size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_MEMBER_PAGE_SIZE),
  cursor: cursor.optional(),
});
export type InvitationListQueryModel = z.infer<typeof InvitationListQueryModel>;

/** An account's name as its people see it (members/renameAccount). */
export const AccountNameModel = nameText(100);

export const memberId = id;
export const invitationId = id;

/** The secret of an invitation link (the part after `#`): `fbi_` and 192 random bits, base64url. */
export const invitationToken = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/);

export const AlertMailModeModel = z.enum(ALERT_MAIL_MODES).meta({
  id: 'AlertMailMode',
  description: "Alert mails: `immediately` (one mail per alert as it is raised), `daily` (one mail a day listing the day before's alerts) or `off`.",
});

/** members/setNotifications: the fields given change, the others stay; `projects: null` follows every project again. */
export const NotificationSettingsModel = z
  .strictObject({
    weeklyDigest: z.boolean().optional(),
    alerts: AlertMailModeModel.optional(),
    projects: z.array(id).min(1).max(MAX_FOLLOWED_PROJECTS).nullable().optional(),
    resumeMail: z.boolean().optional(),
  })
  .meta({
    id: 'NotificationSettings',
    description:
      'What to change of your own notifications: `weeklyDigest`, `alerts`, `projects` (only these projects; `null`: every project of the account), and `resumeMail: true` to mail your address again after it bounced or was marked as spam.',
  });
export type NotificationSettingsModel = z.infer<typeof NotificationSettingsModel>;

/** members/sendDigest: the project whose last complete week to mail to oneself now. */
export const projectToMail = id;
