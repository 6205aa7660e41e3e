import { projectsLookup } from '../../api/declarations/projects';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { lookupProjects } from '../../operations/projects';

export const operation = implement(projectsLookup, ([text, filters], { store, caller }) => lookupProjects(store, callerAccount(caller), text, filters ?? {}));

export const handler = lambdaHandler(operation);
