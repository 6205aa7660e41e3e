import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { id } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { getProject } from '../../operations/projects';

export const operation = defineOperation({
  resource: 'projects',
  name: 'get',
  summary: 'A project by id.',
  args: z.tuple([id]),
  signature: 'id: string',
  result: 'Project',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
  handler: ([projectId], { store, caller }) => getProject(store, callerAccount(caller), projectId),
});

export const handler = lambdaHandler(operation);
