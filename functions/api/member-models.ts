import * as z from 'zod';
import { ROLES } from './roles';
import { cursor } from './response-models';
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
export const AccountNameModel = z.string().trim().min(1).max(100);

export const memberId = id;
export const invitationId = id;

/** The secret of an invitation link (the part after `#`): `fbi_` and 192 random bits, base64url. */
export const invitationToken = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/);
