import { projectsSave } from '../../api/declarations/projects';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { saveProject } from '../../operations/projects';

export const operation = implement(projectsSave, ([projectId, input], { store, caller, now }) =>
  saveProject(store, callerAccount(caller), projectId, input, now),
);

export const handler = lambdaHandler(operation);
