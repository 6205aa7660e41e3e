import { setsExists } from '../../api/declarations/sets';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { contentSetExists } from '../../operations/sets';

export const operation = implement(setsExists, ([{ projectId, key }], { store, caller }) => contentSetExists(store, callerAccount(caller), projectId, key));

export const handler = lambdaHandler(operation);
