import { membersRenameAccount } from '../../api/declarations/members';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { accountCaller } from '../../api/auth';
import { renameAccount } from '../../operations/members';

export const operation = implement(membersRenameAccount, ([name], { store, caller, now }) => renameAccount(store, accountCaller(caller), name, now));

export const handler = lambdaHandler(operation);
