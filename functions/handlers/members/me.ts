import { membersMe } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { describeCaller } from '../../operations/members';

export const operation = implement(membersMe, (_args, { store, caller }) => describeCaller(store, caller));

export const handler = lambdaHandler(operation);
