import { auditExport } from '../../api/declarations/audit';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { exportAuditEntries } from '../../operations/audit-log';

export const operation = implement(auditExport, ([input], { store, caller }) => exportAuditEntries(store, callerAccount(caller), input));

export const handler = lambdaHandler(operation);
