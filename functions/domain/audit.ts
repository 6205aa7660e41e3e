/**
 * The audit log's entry and what goes into it, pure: which ids of a call's arguments and
 * result name its targets, and how an entry reads as a CSV record. Written by the adapter
 * (functions/api/audit.ts), stored by functions/store/audit.ts.
 *
 * An entry names who, what, when, from where and how it ended, never what was said:
 * target ids are taken only from the id fields below and only when they look like ids,
 * so no free text (names, descriptions, URLs, labels, response values) and no secret
 * (API keys, webhook secrets, revoke tokens) is ever copied into the log.
 */

/**
 * Who made a call (or a key, or an invitation): an API key (its public id and label), a
 * member signed in as a person (their membership id, email and name), or the operator
 * with direct access to the table (the key CLI, named as such).
 */
export type AuditActor =
  | { type: 'key'; keyId: string; label?: string }
  | { type: 'person'; memberId: string; email?: string; name?: string }
  | { type: 'operator'; name: string };

/** The key CLI (bin/keys.ts) as an actor: it writes to the table directly, with no key or person. */
export const KEY_CLI_ACTOR: AuditActor = { type: 'operator', name: 'key CLI' };

export interface AuditEntry {
  id: string;
  /** When the call was made: ISO 8601 in UTC with milliseconds. */
  at: string;
  actor: AuditActor;
  /** `<resource>/<name>`. */
  operation: string;
  targetIds: string[];
  /** The caller's address as the API saw it (keyed callers only: widgets' visitors are never audited). */
  sourceIp?: string;
  /** `ok`, or the error code the call was answered with. */
  outcome: string;
  requestId: string;
  /** What the call did, in numbers, when its operation says (responses/import: `imported`, `duplicate`, `refused`). */
  counts?: Record<string, number>;
  /**
   * Only on an aggregate of refused calls: how many calls of this actor and operation were
   * refused with `outcome` in the minute from `at`, beyond the ones with entries of their
   * own (functions/api/audit.ts). Its targetIds are empty; sourceIp and requestId are
   * those of the first call it counts.
   */
  count?: number;
}

/** An actor's (key's or person's) refused calls in one minute that get entries of their own; the rest are counted per operation and outcome. */
export const REFUSED_ENTRIES_PER_MINUTE = 10;

/** Entries are kept this long (the table's TTL deletes them after). */
export const AUDIT_RETENTION_DAYS = 400;
export const AUDIT_RETENTION_SECONDS = AUDIT_RETENTION_DAYS * 24 * 3600;

/** Fields of an argument object that hold ids of what a call acts on. */
export const TARGET_ID_FIELDS = ['id', 'projectId', 'contentSetId', 'contentId', 'webhookId', 'keyId', 'responseId', 'deliveryId'] as const;
/** Fields holding lists of ids (responses/erase). */
const TARGET_ID_LIST_FIELDS = ['responseIds'] as const;
/** Fields of a result that name what the call created or touched (a created entity's id, a test delivery, an invitation). */
const RESULT_ID_FIELDS = ['id', 'deliveryId', 'invitationId'] as const;

/**
 * The shapes of the ids this service issues, and nothing else: 22 base64url characters
 * (128 bits: domain/text.ts newId, and derived ids), 44 (a content item's: its set's id and
 * its own) and 12 (an API key's public id). A refused call can name anything; only what
 * could be an id of ours is copied, so the log holds no words a caller chose.
 */
const ID_PATTERN = /^(?:[A-Za-z0-9_-]{12}|[A-Za-z0-9_-]{22}|[A-Za-z0-9_-]{44})$/;
/** Secrets that are base64url too: API keys (`fbk_`) and invitation tokens (`fbi_`) are never copied. */
const SECRET_PREFIX = /^fb[a-z]_/;
/** At most this many target ids per entry (responses/erase takes up to 100). */
export const MAX_TARGET_IDS = 100;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The ids a call named and the id of what it created: string arguments that look like ids,
 * the id fields of object arguments, `id`/`deliveryId` of the result, then what it changed
 * besides (`touched`: the keys and invitations a removal revoked). In order of appearance,
 * without repeats.
 */
export function auditTargetIds(args: readonly unknown[] | undefined, result?: unknown, touched: readonly string[] = []): string[] {
  const ids: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string' && ID_PATTERN.test(value) && !SECRET_PREFIX.test(value) && !ids.includes(value) && ids.length < MAX_TARGET_IDS)
      ids.push(value);
  };
  for (const argument of args ?? []) {
    if (typeof argument === 'string') add(argument);
    else if (isRecord(argument)) {
      for (const field of TARGET_ID_FIELDS) add(argument[field]);
      for (const field of TARGET_ID_LIST_FIELDS) {
        const list = argument[field];
        if (Array.isArray(list)) list.forEach(add);
      }
    }
  }
  if (isRecord(result)) for (const field of RESULT_ID_FIELDS) add(result[field]);
  touched.forEach(add);
  return ids;
}

export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actorType',
  'keyId',
  'label',
  'memberId',
  'email',
  'operation',
  'targetIds',
  'sourceIp',
  'outcome',
  'requestId',
  'count',
  'counts',
] as const;
export type AuditCsvColumn = (typeof AUDIT_CSV_COLUMNS)[number];

/** The cells of one entry: target ids joined by spaces. */
export function auditCsvRecord(entry: AuditEntry): Record<AuditCsvColumn, string> {
  return {
    id: entry.id,
    at: entry.at,
    actorType: entry.actor.type,
    keyId: entry.actor.type === 'key' ? entry.actor.keyId : '',
    label: entry.actor.type === 'key' ? (entry.actor.label ?? '') : entry.actor.type === 'operator' ? entry.actor.name : '',
    memberId: entry.actor.type === 'person' ? entry.actor.memberId : '',
    email: entry.actor.type === 'person' ? (entry.actor.email ?? '') : '',
    operation: entry.operation,
    targetIds: entry.targetIds.join(' '),
    sourceIp: entry.sourceIp ?? '',
    outcome: entry.outcome,
    requestId: entry.requestId,
    count: entry.count === undefined ? '' : String(entry.count),
    counts:
      entry.counts === undefined
        ? ''
        : Object.entries(entry.counts)
            .map(([name, value]) => `${name}=${value}`)
            .join(' '),
  };
}
