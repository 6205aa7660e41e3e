/**
 * What an audit entry's target ids are, by operation: the adapter records the ids of the
 * arguments in order, then the result's, then what the call also changed
 * (functions/domain/audit.ts `auditTargetIds`), so each operation's ids come in a known order.
 * The audit page names each id by its kind (a project's name, a key's label, ...).
 */
export type TargetKind =
  | 'project'
  | 'set'
  | 'item'
  | 'response'
  | 'key'
  | 'webhook'
  | 'delivery'
  | 'member'
  | 'invitation'
  | 'account'
  | 'curation'
  | 'theme'
  | 'unknown';

/**
 * The kinds of the first ids; `rest`: the kind of every id after them (a removal's revoked keys
 * are keys or invitations: unknown). One entry per audited operation and route
 * (test/unit/audit-targets.test.ts).
 */
export const TARGET_KINDS: Record<string, { first: TargetKind[]; rest?: TargetKind }> = {
  'projects/create': { first: ['project'] },
  'projects/save': { first: ['project'] },
  'sets/create': { first: ['project', 'set'] },
  'sets/save': { first: ['set'] },
  // Then the themes the record changes or makes and the messages it moves: which are messages, its record says (`targetKinds`).
  'sets/curateThemes': { first: ['set', 'curation'], rest: 'unknown' },
  'contents/create': { first: ['set', 'item'] },
  'contents/save': { first: ['item'] },
  'responses/erase': { first: [], rest: 'response' },
  'responses/import': { first: ['set'] },
  // The responses named, or the item and then the responses judged.
  'responses/release': { first: [], rest: 'unknown' },
  'responses/discard': { first: [], rest: 'unknown' },
  'keys/create': { first: ['key'] },
  'keys/revoke': { first: ['key'], rest: 'unknown' },
  'webhooks/create': { first: ['webhook'] },
  'webhooks/save': { first: ['webhook'] },
  'webhooks/remove': { first: ['webhook'] },
  'webhooks/rotateSecret': { first: ['webhook'] },
  'webhooks/test': { first: ['webhook', 'delivery'] },
  'webhooks/redeliver': { first: ['delivery'] },
  'members/invite': { first: ['invitation'] },
  'members/withdraw': { first: ['invitation'] },
  'members/accept': { first: ['invitation', 'member'] },
  'members/setRole': { first: ['member'], rest: 'unknown' },
  'members/remove': { first: ['member'], rest: 'unknown' },
  'members/renameAccount': { first: ['account'] },
  'members/sendDigest': { first: ['project'] },
  // One's own preferences and the account's alert settings: no target.
  'members/setNotifications': { first: [] },
  'alerts/saveSettings': { first: [] },
  // A mail's unsubscribe link (functions/operations/unsubscribe.ts): no operation, the member as actor and target.
  'mail/unsubscribe': { first: ['member'] },
};

/** Audit entries of changes that are no operation of the API: a mail's unsubscribe link. */
export const AUDITED_ROUTES = ['mail/unsubscribe'] as const;

/**
 * The kind of each target id of an entry. A theme curation's ids after its set and record
 * are its themes, then the messages it moves (functions/operations/themes.ts): with the
 * curation's `record` (sets/themeCurations), the ids it names as messages are responses and
 * the others themes; without it, unknown.
 */
export function targetKinds(operation: string, targetIds: readonly string[], curation?: Record<string, unknown>): TargetKind[] {
  const kinds = TARGET_KINDS[operation];
  const messages =
    curation && operation === 'sets/curateThemes'
      ? new Set([curation.messageId, ...(Array.isArray(curation.messageIds) ? curation.messageIds : [])])
      : undefined;
  return targetIds.map((id, index) => kinds?.first[index] ?? (messages ? (messages.has(id) ? 'response' : 'theme') : (kinds?.rest ?? 'unknown')));
}
