import { setsLookup } from '../../api/declarations/sets';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { lookupContentSets } from '../../operations/sets';

export const operation = implement(setsLookup, ([text, filters], { store, caller }) => lookupContentSets(store, callerAccount(caller), text, filters ?? {}));

export const handler = lambdaHandler(operation);
