import { contentsExists } from '../../api/declarations/contents';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { contentItemExists } from '../../operations/contents';

export const operation = implement(contentsExists, ([{ contentSetId, key }], { store, caller }) =>
  contentItemExists(store, callerAccount(caller), contentSetId, key),
);

export const handler = lambdaHandler(operation);
