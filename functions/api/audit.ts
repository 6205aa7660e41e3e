/**
 * The audit trail's one writer: the adapter calls `recordAudit` once a call by a key to an
 * audited operation (operation.ts, `isAudited`) has been answered, successfully or not.
 * One place for every operation, not a line in each handler.
 *
 * - Keys and members only: a call whose credential failed authentication has no actor and
 *   writes nothing (the request log has it); anonymous callers never reach an audited
 *   operation. A member is named by `memberIdentity` (the email and name recorded when
 *   they joined, or a verified email of the token), never by unverified claims.
 * - Refused calls are bounded per actor and minute (`recordAudit`): a flood of them
 *   becomes a few entries and an aggregate with its count.
 * - What: the operation and the ids it named and created (domain/audit.ts,
 *   `auditTargetIds`), never arguments or answers otherwise.
 * - One PutItem after the answer is known, not part of the operation's own writes: the
 *   outcome (including refusals, which write nothing else) is only known then, and no
 *   operation's transaction has to carry it. A failure to write it is logged
 *   (`audit entry not written`, with the whole entry, so it can be recovered from the logs)
 *   and never turns the call's answer into an error: the change happened and the caller
 *   must be told so.
 */
import { createHash, randomUUID } from 'node:crypto';
import { idOf, newId } from '../domain/text';
import { type AuditActor, type AuditEntry, auditTargetIds, REFUSED_ENTRIES_PER_MINUTE } from '../domain/audit';
import { logger } from '../observability/logger';
import { addToAggregate, countRefusal, putAuditEntry } from '../store/audit';
import type { TableClient } from '../store/dynamodb-clients';
import { type AccountCaller, type Caller, memberIdentity } from './auth';
import { isAudited, type OperationDeclaration, operationPath, type RequestInfo } from './operation';

export interface AuditedCall {
  operation: Pick<OperationDeclaration, 'resource' | 'name' | 'readOnly' | 'level'>;
  /** Undefined when authentication failed. */
  caller: Caller | undefined;
  /** The argument array as sent (undefined when it was not a JSON array). */
  args: readonly unknown[] | undefined;
  /** The handler's result, for the id of what it created. */
  result: unknown;
  /** What the call changed besides what it named (OperationContext `touched`). */
  touched?: readonly string[];
  /** Numbers the handler recorded for its entry (OperationContext `counts`). */
  counts?: Readonly<Record<string, number>>;
  /** `ok`, or the error code of the answer. */
  outcome: string;
  request: RequestInfo;
  at: Date;
}

/**
 * The actor a caller of an account is: its key (id, label), or the member (id, and the email
 * and name `memberIdentity` gives: recorded at joining, or a verified email of the token).
 */
export function callerActor(caller: AccountCaller): AuditActor {
  if (caller.kind === 'key') return { type: 'key', keyId: caller.keyId, ...(caller.keyLabel === undefined ? {} : { label: caller.keyLabel }) };
  return personActor(caller.memberId, memberIdentity(caller.person, caller.member));
}

function personActor(memberId: string, identity: { email?: string; name?: string }): AuditActor {
  const { email, name } = identity;
  return { type: 'person', memberId, ...(email === undefined ? {} : { email }), ...(name === undefined ? {} : { name }) };
}

/**
 * The account and actor of a call: a key's or a member's; or, for a signed-in person who is
 * no member yet, the membership the call gave them (members/accept answers it). A call that
 * made nobody a member names no account and is not recorded.
 */
function accountAndActor(caller: Caller, result: unknown): { accountId: string; actor: AuditActor } | undefined {
  if (caller.kind === 'key' || caller.kind === 'person') return { accountId: caller.accountId, actor: callerActor(caller) };
  if (caller.kind !== 'newcomer') return undefined;
  // members/accept answers the new membership as members/me would: named as recorded.
  const joined = result as { accountId?: string; person?: { memberId?: string; email?: string; name?: string } } | undefined;
  if (!joined?.accountId || !joined.person?.memberId) return undefined;
  return { accountId: joined.accountId, actor: personActor(joined.person.memberId, joined.person) };
}

/** The entry of a call, or undefined when the call is not audited. */
export function auditEntry(call: AuditedCall): { accountId: string; entry: AuditEntry } | undefined {
  const { caller } = call;
  const who = caller && isAudited(call.operation) ? accountAndActor(caller, call.result) : undefined;
  if (!who) return undefined;
  return {
    accountId: who.accountId,
    entry: {
      id: newId(),
      at: call.at.toISOString(),
      actor: who.actor,
      operation: operationPath(call.operation),
      targetIds: auditTargetIds(call.args, call.result, call.touched),
      ...(call.counts && Object.keys(call.counts).length > 0 ? { counts: { ...call.counts } } : {}),
      ...(call.request.sourceIp ? { sourceIp: call.request.sourceIp } : {}),
      outcome: call.outcome,
      requestId: call.request.requestId,
    },
  };
}

const actorId = (actor: AuditActor) => (actor.type === 'key' ? actor.keyId : actor.type === 'person' ? actor.memberId : actor.name);

/**
 * The aggregate a refused call is counted in once its actor has had its entries for the
 * minute: one per actor, operation, outcome and minute, at the minute's start, with a
 * derived id (the same for every call it counts) and no target ids.
 */
export function refusalAggregate(entry: AuditEntry, minute: string): AuditEntry {
  const id = idOf(
    createHash('sha256')
      .update(JSON.stringify([actorId(entry.actor), entry.actor.type, entry.operation, entry.outcome, minute]))
      .digest()
      .subarray(0, 16),
  );
  return { ...entry, id, at: minute, targetIds: [] };
}

/**
 * Writes the call's entry when it is audited; logs (never throws) when the write fails.
 * A refused call first counts against its actor's minute (one UpdateItem): the first
 * REFUSED_ENTRIES_PER_MINUTE get entries of their own, the rest one aggregate per
 * operation and outcome, so a key that hammers refused calls adds a few items a minute,
 * not one per call.
 */
export async function recordAudit(store: TableClient, call: AuditedCall): Promise<void> {
  const audited = auditEntry(call);
  if (!audited) return;
  const { accountId, entry } = audited;
  try {
    if (entry.outcome !== 'ok') {
      const minute = `${entry.at.slice(0, 16)}:00.000Z`;
      if ((await countRefusal(store, accountId, actorId(entry.actor), minute)) > REFUSED_ENTRIES_PER_MINUTE) {
        await addToAggregate(store, accountId, refusalAggregate(entry, minute));
        return;
      }
    }
    await putAuditEntry(store, accountId, entry);
  } catch (error) {
    logger.error('audit entry not written', { accountId, entry, error: error as Error });
  }
}

/**
 * The entry of a change the operator made with direct access to the table (the key CLI's
 * create, revoke and add-owner): the same entry as the API's, with the operator as actor,
 * no address and a request id of its own. Throws when it cannot be written: the CLI says so.
 */
export async function recordOperatorChange(
  store: TableClient,
  accountId: string,
  change: { actor: AuditActor; operation: string; targetIds: readonly string[]; at: Date },
): Promise<AuditEntry> {
  const entry: AuditEntry = {
    id: newId(),
    at: change.at.toISOString(),
    actor: change.actor,
    operation: change.operation,
    targetIds: auditTargetIds([], undefined, change.targetIds),
    outcome: 'ok',
    requestId: randomUUID(),
  };
  await putAuditEntry(store, accountId, entry);
  return entry;
}
