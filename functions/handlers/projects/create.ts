import { projectsCreate } from '../../api/declarations/projects';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { createProject } from '../../operations/projects';

export const operation = implement(projectsCreate, ([input], { store, caller, now }) => createProject(store, callerAccount(caller), input, now));

export const handler = lambdaHandler(operation);
