import { setsCreate } from '../../api/declarations/sets';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { createContentSet } from '../../operations/sets';

export const operation = implement(setsCreate, ([input], { store, caller, now }) => createContentSet(store, callerAccount(caller), input, now));

export const handler = lambdaHandler(operation);
