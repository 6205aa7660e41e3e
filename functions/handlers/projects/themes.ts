import { callerAccount } from '../../api/auth';
import { projectsThemes } from '../../api/declarations/projects';
import { lambdaHandler } from '../../api/lambda';
import { implement } from '../../api/operation';
import { scopeThemes } from '../../operations/themes';

export const operation = implement(projectsThemes, ([id, filter], { store, caller, now }) =>
  scopeThemes(store, callerAccount(caller), { kind: 'projects', id }, filter, now),
);

export const handler = lambdaHandler(operation);
