import { membersSetRole } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { accountCaller } from '../../api/auth';
import { setMemberRole } from '../../operations/members';

export const operation = implement(membersSetRole, async ([memberId, role], { store, caller, now, touched }) => {
  const { member, revokedKeyIds, withdrawnInvitationIds } = await setMemberRole(store, accountCaller(caller), memberId, role, now);
  touched.push(...revokedKeyIds, ...withdrawnInvitationIds);
  return member;
});

export const handler = lambdaHandler(operation);
