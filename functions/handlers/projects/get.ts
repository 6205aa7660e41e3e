import { projectsGet } from '../../api/declarations/projects';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { getProject } from '../../operations/projects';

export const operation = implement(projectsGet, ([projectId], { store, caller }) => getProject(store, callerAccount(caller), projectId));

export const handler = lambdaHandler(operation);
