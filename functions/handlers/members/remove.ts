import { membersRemove } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { accountCaller } from '../../api/auth';
import { removeMember } from '../../operations/members';

export const operation = implement(membersRemove, async ([memberId], { store, caller, now, touched }) => {
  const { revokedKeyIds, withdrawnInvitationIds } = await removeMember(store, accountCaller(caller), memberId, now);
  touched.push(...revokedKeyIds, ...withdrawnInvitationIds);
});

export const handler = lambdaHandler(operation);
