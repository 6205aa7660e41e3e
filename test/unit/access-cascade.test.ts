import { fallingInvitations, fallingKeys, keyMayGrant, type KeyNode, roleMayGrant } from '../../functions/domain/access-cascade';

/** What falls when a member or a key loses the right to grant access (functions/domain/access-cascade.ts). */
const person = (memberId: string) => ({ type: 'person' as const, memberId });
const byKey = (keyId: string) => ({ type: 'key' as const, keyId });

const keys: KeyNode[] = [
  { id: 'adminOfAda', level: 'admin', createdBy: person('ada') },
  { id: 'viewerOfAda', level: 'viewer', createdBy: person('ada') },
  { id: 'revokedOfAda', level: 'admin', createdBy: person('ada'), revokedAt: '2026-01-01T00:00:00.000Z' },
  { id: 'childOfRevoked', level: 'viewer', createdBy: byKey('revokedOfAda') },
  { id: 'childOfAdmin', level: 'admin', createdBy: byKey('adminOfAda') },
  { id: 'grandchild', level: 'viewer', createdBy: byKey('childOfAdmin') },
  { id: 'ofBob', level: 'admin', createdBy: person('bob') },
  { id: 'ofOperator', level: 'admin', createdBy: { type: 'operator' } },
  { id: 'noMaker', level: 'admin' },
];
const ids = (fallen: KeyNode[]) => fallen.map((key) => key.id);

describe('fallingKeys', () => {
  test('a removed member: every live key they made, and every live key made by those (also through revoked ones)', () => {
    expect(ids(fallingKeys(keys, { memberId: 'ada' }))).toEqual(['adminOfAda', 'viewerOfAda', 'childOfRevoked', 'childOfAdmin', 'grandchild']);
  });

  test('a member made viewer: their admin keys and what those made, not their viewer keys', () => {
    expect(ids(fallingKeys(keys, { memberId: 'ada', role: 'viewer' }))).toEqual(['adminOfAda', 'childOfRevoked', 'childOfAdmin', 'grandchild']);
  });

  test('an owner made admin keeps every key', () => {
    expect(fallingKeys(keys, { memberId: 'ada', role: 'admin' })).toEqual([]);
    expect(fallingKeys(keys, { memberId: 'ada', role: 'owner' })).toEqual([]);
  });

  test("a revoked key: what it made, transitively, but not the key itself or anyone else's", () => {
    expect(ids(fallingKeys(keys, { keyId: 'adminOfAda' }))).toEqual(['childOfAdmin', 'grandchild']);
    expect(fallingKeys(keys, { keyId: 'ofBob' })).toEqual([]);
  });

  test('a cycle of makers (never issued, but the walk must end) falls once', () => {
    const cycle: KeyNode[] = [
      { id: 'a', level: 'admin', createdBy: byKey('b') },
      { id: 'b', level: 'admin', createdBy: byKey('a') },
    ];
    expect(ids(fallingKeys(cycle, { keyId: 'a' }))).toEqual(['b']);
  });
});

describe('fallingInvitations and who may grant what', () => {
  const invitations = [
    { name: 'viewer by ada', role: 'viewer' as const, invitedBy: person('ada') },
    { name: 'admin by ada', role: 'admin' as const, invitedBy: person('ada') },
    { name: 'owner by ada', role: 'owner' as const, invitedBy: person('ada') },
    { name: 'viewer by a fallen key', role: 'viewer' as const, invitedBy: byKey('childOfAdmin') },
    { name: 'viewer by bob', role: 'viewer' as const, invitedBy: person('bob') },
    { name: 'owner by the operator', role: 'owner' as const, invitedBy: { type: 'operator' as const } },
  ];
  const names = (loss: Parameters<typeof fallingInvitations>[1], fallen: string[] = []) =>
    fallingInvitations(invitations, loss, new Set(fallen)).map((invitation) => invitation.name);

  test('removed: all of theirs; demoted: what their new role may not grant; a fallen key: its invitations', () => {
    expect(names({ memberId: 'ada' })).toEqual(['viewer by ada', 'admin by ada', 'owner by ada']);
    expect(names({ memberId: 'ada', role: 'admin' })).toEqual(['admin by ada', 'owner by ada']);
    expect(names({ memberId: 'ada', role: 'viewer' })).toEqual(['viewer by ada', 'admin by ada', 'owner by ada']);
    expect(names({ memberId: 'ada', role: 'owner' })).toEqual([]);
    expect(names({ keyId: 'adminOfAda' }, ['adminOfAda', 'childOfAdmin'])).toEqual(['viewer by a fallen key']);
  });

  test.each([
    ['viewer', 'viewer', false],
    ['admin', 'viewer', true],
    ['admin', 'admin', false],
    ['owner', 'owner', true],
    ['owner', 'admin', true],
  ] as const)('a member %s may grant %s: %s', (role, invited, may) => {
    expect(roleMayGrant(role, invited)).toBe(may);
  });

  test('keys grant viewer at most, and only admin keys', () => {
    expect([keyMayGrant('admin', 'viewer'), keyMayGrant('admin', 'admin'), keyMayGrant('viewer', 'viewer')]).toEqual([true, false, false]);
  });
});
