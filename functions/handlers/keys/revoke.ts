import { keysRevoke } from '../../api/declarations/keys';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { revokeAccountKey } from '../../operations/api-keys';

export const operation = implement(keysRevoke, async ([keyId], { store, caller, now, touched }) => {
  const { cascade } = await revokeAccountKey(store, callerAccount(caller), keyId, now);
  touched.push(...cascade.keys.map((key) => key.id), ...cascade.invitations.map((invitation) => invitation.id));
});

export const handler = lambdaHandler(operation);
