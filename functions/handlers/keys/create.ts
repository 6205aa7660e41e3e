import { keysCreate } from '../../api/declarations/keys';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { accountCaller } from '../../api/auth';
import { createAccountKey } from '../../operations/api-keys';

export const operation = implement(keysCreate, ([input], { store, caller, now }) => createAccountKey(store, accountCaller(caller), input, now));

export const handler = lambdaHandler(operation);
