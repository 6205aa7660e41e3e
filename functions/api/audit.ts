/**
 * The audit trail's one writer: the adapter calls `recordAudit` once a call by a key to an
 * audited operation (operation.ts, `isAudited`) has been answered, successfully or not.
 * One place for every operation, not a line in each handler.
 *
 * - Keyed callers only: a call whose key failed authentication has no actor and writes
 *   nothing (the request log has it); anonymous callers never reach an audited operation.
 * - What: the operation and the ids it named and created (domain/audit.ts,
 *   `auditTargetIds`), never arguments or answers otherwise.
 * - One PutItem after the answer is known, not part of the operation's own writes: the
 *   outcome (including refusals, which write nothing else) is only known then, and no
 *   operation's transaction has to carry it. A failure to write it is logged
 *   (`audit entry not written`, with the whole entry, so it can be recovered from the logs)
 *   and never turns the call's answer into an error: the change happened and the caller
 *   must be told so.
 */
import { newId } from '../domain/text';
import { type AuditActor, type AuditEntry, auditTargetIds } from '../domain/audit';
import { logger } from '../observability/logger';
import { putAuditEntry } from '../store/audit';
import type { TableClient } from '../store/dynamodb-clients';
import type { Caller } from './auth';
import { isAudited, type OperationDeclaration, operationPath, type RequestInfo } from './operation';

export interface AuditedCall {
  operation: Pick<OperationDeclaration, 'resource' | 'name' | 'readOnly' | 'level'>;
  /** Undefined when authentication failed. */
  caller: Caller | undefined;
  /** The argument array as sent (undefined when it was not a JSON array). */
  args: readonly unknown[] | undefined;
  /** The handler's result, for the id of what it created. */
  result: unknown;
  /** `ok`, or the error code of the answer. */
  outcome: string;
  request: RequestInfo;
  at: Date;
}

function actorOf(caller: Extract<Caller, { accountId: string }>): AuditActor {
  if (caller.kind === 'key') return { type: 'key', keyId: caller.keyId, ...(caller.keyLabel === undefined ? {} : { label: caller.keyLabel }) };
  return personActor(caller.memberId, caller.person);
}

function personActor(memberId: string, person: { email?: string; name?: string }): AuditActor {
  const { email, name } = person;
  return { type: 'person', memberId, ...(email === undefined ? {} : { email }), ...(name === undefined ? {} : { name }) };
}

/**
 * The account and actor of a call: a key's or a member's; or, for a signed-in person who is
 * no member yet, the membership the call gave them (members/accept answers it). A call that
 * made nobody a member names no account and is not recorded.
 */
function accountAndActor(caller: Caller, result: unknown): { accountId: string; actor: AuditActor } | undefined {
  if (caller.kind === 'key' || caller.kind === 'person') return { accountId: caller.accountId, actor: actorOf(caller) };
  if (caller.kind !== 'newcomer') return undefined;
  const joined = result as { accountId?: string; person?: { memberId?: string } } | undefined;
  if (!joined?.accountId || !joined.person?.memberId) return undefined;
  return { accountId: joined.accountId, actor: personActor(joined.person.memberId, caller.person) };
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
      targetIds: auditTargetIds(call.args, call.result),
      ...(call.request.sourceIp ? { sourceIp: call.request.sourceIp } : {}),
      outcome: call.outcome,
      requestId: call.request.requestId,
    },
  };
}

/** Writes the call's entry when it is audited; logs (never throws) when the write fails. */
export async function recordAudit(store: TableClient, call: AuditedCall): Promise<void> {
  const audited = auditEntry(call);
  if (!audited) return;
  try {
    await putAuditEntry(store, audited.accountId, audited.entry);
  } catch (error) {
    logger.error('audit entry not written', { accountId: audited.accountId, entry: audited.entry, error: error as Error });
  }
}
