import { membersRemove } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { accountCaller } from '../../api/auth';
import { removeMember } from '../../operations/members';

export const operation = implement(membersRemove, ([memberId], { store, caller }) => removeMember(store, accountCaller(caller), memberId));

export const handler = lambdaHandler(operation);
