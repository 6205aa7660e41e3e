import { setsGetStats } from '../../api/declarations/sets';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { contentSetStats } from '../../operations/get-stats';

export const operation = implement(setsGetStats, ([entityId, filter], { store, caller, now }) =>
  contentSetStats(store, callerAccount(caller), entityId, filter, now),
);

export const handler = lambdaHandler(operation);
