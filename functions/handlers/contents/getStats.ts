import { contentsGetStats } from '../../api/declarations/contents';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { contentItemStats } from '../../operations/get-stats';

export const operation = implement(contentsGetStats, ([entityId, filter], { store, caller, now }) =>
  contentItemStats(store, callerAccount(caller), entityId, filter, now),
);

export const handler = lambdaHandler(operation);
