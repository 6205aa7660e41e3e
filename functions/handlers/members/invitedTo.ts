import { membersInvitedTo } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { describeInvitation } from '../../operations/members';

export const operation = implement(membersInvitedTo, ([token], { store, now }) => describeInvitation(store, token, now));

export const handler = lambdaHandler(operation);
