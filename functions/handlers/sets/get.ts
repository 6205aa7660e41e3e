import { setsGet } from '../../api/declarations/sets';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { getContentSet } from '../../operations/sets';

export const operation = implement(setsGet, ([contentSetId], { store, caller }) => getContentSet(store, callerAccount(caller), contentSetId));

export const handler = lambdaHandler(operation);
