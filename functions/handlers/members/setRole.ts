import { membersSetRole } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { accountCaller } from '../../api/auth';
import { setMemberRole } from '../../operations/members';

export const operation = implement(membersSetRole, ([memberId, role], { store, caller, now }) =>
  setMemberRole(store, accountCaller(caller), memberId, role, now),
);

export const handler = lambdaHandler(operation);
