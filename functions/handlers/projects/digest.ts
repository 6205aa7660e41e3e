import { projectsDigest } from '../../api/declarations/projects';
import { implement } from '../../api/operation';
import { lambdaHandler } from '../../api/lambda';
import { callerAccount } from '../../api/auth';
import { projectDigest } from '../../operations/alerts';

export const operation = implement(projectsDigest, ([projectId, query], { store, caller, now }) =>
  projectDigest(store, callerAccount(caller), projectId, query, now),
);

export const handler = lambdaHandler(operation);
