import { projectsGetStats } from '../../api/declarations/projects';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { projectStats } from '../../operations/get-stats';

export const operation = implement(projectsGetStats, ([entityId, filter], { store, caller, now }) =>
  projectStats(store, callerAccount(caller), entityId, filter, now),
);

export const handler = lambdaHandler(operation);
