import { membersList } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { DEFAULT_MEMBER_PAGE_SIZE } from '../../api/member-models';
import { listMembers } from '../../operations/members';

export const operation = implement(membersList, ([query], { store, caller }) =>
  listMembers(store, callerAccount(caller), query ?? { $size: DEFAULT_MEMBER_PAGE_SIZE }),
);

export const handler = lambdaHandler(operation);
