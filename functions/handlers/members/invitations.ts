import { membersInvitations } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { DEFAULT_MEMBER_PAGE_SIZE } from '../../api/member-models';
import { listInvitations } from '../../operations/members';

export const operation = implement(membersInvitations, ([query], { store, caller, now }) =>
  listInvitations(store, callerAccount(caller), query ?? { $size: DEFAULT_MEMBER_PAGE_SIZE }, now),
);

export const handler = lambdaHandler(operation);
