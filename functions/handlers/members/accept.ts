import { membersAccept } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { acceptInvitation } from '../../operations/members';

export const operation = implement(membersAccept, ([token], { store, caller, now, touched }) => acceptInvitation(store, caller, token, now, touched));

export const handler = lambdaHandler(operation);
