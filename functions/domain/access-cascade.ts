/**
 * What falls when someone loses the right to grant access (docs/api.md, "Members and
 * invitations" and "API keys"): keys and invitations are valid only while whoever made
 * them still may grant them. Pure; operations/access-cascade.ts reads the account's keys
 * and invitations and writes what these functions name.
 *
 * - A member removed: every live key they created falls; demoted, the keys above the
 *   level they keep (an admin made viewer: their admin keys).
 * - A key revoked: every live key it created falls.
 * - Transitively: a key created by a fallen key falls too, whatever its level (the walk
 *   also passes through keys revoked earlier, so their live descendants fall now).
 * - An invitation falls when its maker no longer holds a role that may grant its role:
 *   a viewer invitation needs an admin or owner (or an admin key), an admin or owner
 *   invitation an owner. Invitations of the operator (the key CLI) never fall this way.
 *
 * The keys are read from an index, which lags writes: every maker counts the keys it made
 * (`keysMade` on its item, moved in the key's own transaction), and the cascade writes
 * only once it saw as many keys of each maker it walked as the maker counts
 * (`keysMadeByMember`, `keysByMaker`), conditioned on those counts.
 */

export type Role = 'viewer' | 'admin' | 'owner';
export type KeyLevel = 'viewer' | 'admin';

/** Who made a key or an invitation (the audit log's actor shape: domain/audit.ts). */
export type Maker = { type: 'person'; memberId: string } | { type: 'key'; keyId: string } | { type: 'operator' };

export interface KeyNode {
  id: string;
  level: KeyLevel;
  revokedAt?: string;
  createdBy?: Maker;
}

export interface InvitationNode {
  role: Role;
  invitedBy: Maker;
}

/** Whose rights ended: a member now holding `role` (none: removed), or a key revoked. */
export type Loss = { memberId: string; role?: Role } | { keyId: string };

const LEVEL_RANK: Record<KeyLevel, number> = { viewer: 1, admin: 2 };
const levelOfRole = (role: Role): KeyLevel => (role === 'viewer' ? 'viewer' : 'admin');

/** Whether a member of `role` may invite someone as `invited`. */
export function roleMayGrant(role: Role, invited: Role): boolean {
  return invited === 'viewer' ? role !== 'viewer' : role === 'owner';
}

/** Whether a key of `level` may invite someone as `invited` (keys are never owners: admin keys invite viewers). */
export function keyMayGrant(level: KeyLevel, invited: Role): boolean {
  return level === 'admin' && invited === 'viewer';
}

/** What falls with a loss: every key the walk reached (revoked ones too; not a revoked key itself), and the live ones among them. */
export interface KeyFall<K> {
  walked: K[];
  falling: K[];
}

/**
 * The keys a loss reaches, in the order of `keys`: for a member, the keys they made above
 * the level they keep; for a revoked key, the keys it made; then, transitively, the keys
 * made by any key reached. Linear in the account's keys.
 */
export function keyFall<K extends KeyNode>(keys: readonly K[], loss: Loss): KeyFall<K> {
  const madeBy = keysByMaker(keys);
  const reached = new Set<string>();
  const queue: string[] = [];
  const reach = (key: K) => {
    if (reached.has(key.id)) return;
    reached.add(key.id);
    queue.push(key.id);
  };
  if ('keyId' in loss) {
    reached.add(loss.keyId);
    queue.push(loss.keyId);
  } else {
    const kept = loss.role === undefined ? 0 : LEVEL_RANK[levelOfRole(loss.role)];
    for (const key of keys) {
      if (key.createdBy?.type === 'person' && key.createdBy.memberId === loss.memberId && LEVEL_RANK[key.level] > kept) reach(key);
    }
  }
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of madeBy.get(next) ?? []) reach(child);
  }
  const walked = keys.filter((key) => reached.has(key.id) && !('keyId' in loss && key.id === loss.keyId));
  return { walked, falling: walked.filter((key) => key.revokedAt === undefined) };
}

/** The live keys that fall with `loss` (the revoked key of a key loss is not among them: its caller revokes it). */
export function fallingKeys<K extends KeyNode>(keys: readonly K[], loss: Loss): K[] {
  return keyFall(keys, loss).falling;
}

/** The keys each key made, by the maker key's id. */
export function keysByMaker<K extends KeyNode>(keys: readonly K[]): Map<string, K[]> {
  const madeBy = new Map<string, K[]>();
  for (const key of keys) {
    if (key.createdBy?.type !== 'key') continue;
    const siblings = madeBy.get(key.createdBy.keyId) ?? [];
    siblings.push(key);
    madeBy.set(key.createdBy.keyId, siblings);
  }
  return madeBy;
}

/** How many of `keys` the member made (any level, revoked or not). */
export function keysMadeByMember(keys: readonly KeyNode[], memberId: string): number {
  return keys.filter((key) => key.createdBy?.type === 'person' && key.createdBy.memberId === memberId).length;
}

/** The invitations that fall with `loss`, given the keys that fall with it (`fallenKeyIds`, the revoked key included). */
export function fallingInvitations<I extends InvitationNode>(invitations: readonly I[], loss: Loss, fallenKeyIds: ReadonlySet<string>): I[] {
  return invitations.filter(({ invitedBy, role }) => {
    if (invitedBy.type === 'key') return fallenKeyIds.has(invitedBy.keyId);
    if (invitedBy.type !== 'person' || !('memberId' in loss) || invitedBy.memberId !== loss.memberId) return false;
    return loss.role === undefined || !roleMayGrant(loss.role, role);
  });
}

/** The maker an invitation's `invitedBy` text names (`member:<id>`, `key:<id>`, `cli`). */
export function makerOfInvitation(invitedBy: string): Maker {
  if (invitedBy.startsWith('member:')) return { type: 'person', memberId: invitedBy.slice('member:'.length) };
  if (invitedBy.startsWith('key:')) return { type: 'key', keyId: invitedBy.slice('key:'.length) };
  return { type: 'operator' };
}

/** The `invitedBy` text of a maker, as invitations store it. */
export function invitedByText(maker: Maker): string {
  if (maker.type === 'person') return `member:${maker.memberId}`;
  if (maker.type === 'key') return `key:${maker.keyId}`;
  return 'cli';
}
