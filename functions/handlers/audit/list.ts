import { auditList } from '../../api/declarations/audit';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { listAuditEntries } from '../../operations/audit-log';

export const operation = implement(auditList, ([query], { store, caller }) => listAuditEntries(store, callerAccount(caller), query));

export const handler = lambdaHandler(operation);
