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

export const MemberInviteModel = z.strictObject({
  email: z.email().max(MAX_EMAIL_LENGTH),
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

export const memberId = id;
export const invitationId = id;

/** The secret of an invitation link (the part after `#`): `fbi_` and 192 random bits, base64url. */
export const invitationToken = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/);
