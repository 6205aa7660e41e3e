import { membersWithdraw } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { accountCaller } from '../../api/auth';
import { withdrawInvitation } from '../../operations/members';

export const operation = implement(membersWithdraw, ([invitationId], { store, caller }) => withdrawInvitation(store, accountCaller(caller), invitationId));

export const handler = lambdaHandler(operation);
