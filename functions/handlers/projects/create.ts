import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { ProjectCreateModel } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { createProject } from '../../operations/projects';

export const operation = defineOperation({
  resource: 'projects',
  name: 'create',
  summary: 'Creates an active project.',
  args: z.tuple([ProjectCreateModel]),
  signature: '{ name, description? }',
  result: 'Project',
  level: 'admin',
  readOnly: false,
  errors: [],
  handler: ([input], { store, caller, now }) => createProject(store, callerAccount(caller), input, now),
});

export const handler = lambdaHandler(operation);
