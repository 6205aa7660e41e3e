/**
 * A member's role in an account; `owner` is an admin who may also manage admins and owners.
 * Its own module (no imports), so the declarations and models can name the roles without
 * loading authentication's runtime code.
 */
export const ROLES = ['viewer', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];
