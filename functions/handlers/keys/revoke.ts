import { keysRevoke } from '../../api/declarations/keys';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { revokeAccountKey } from '../../operations/api-keys';

export const operation = implement(keysRevoke, ([keyId], { store, caller, now }) => revokeAccountKey(store, callerAccount(caller), keyId, now));

export const handler = lambdaHandler(operation);
