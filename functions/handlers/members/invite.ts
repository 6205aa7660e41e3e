import { membersInvite } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { accountCaller } from '../../api/auth';
import { consoleBase, inviteMember } from '../../operations/members';

export const operation = implement(membersInvite, ([input], { store, caller, now, request }) =>
  inviteMember(store, accountCaller(caller), input, consoleBase(request), now),
);

export const handler = lambdaHandler(operation);
