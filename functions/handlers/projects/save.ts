import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { ProjectSaveModel, id } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { saveProject } from '../../operations/projects';

export const operation = defineOperation({
  resource: 'projects',
  name: 'save',
  summary: 'Changes the given fields of a project (name, description, state).',
  args: z.tuple([id, ProjectSaveModel]),
  signature: 'id: string, { name?, description?, state? }',
  result: 'Project',
  level: 'admin',
  readOnly: false,
  errors: ['not-found'],
  handler: ([projectId, input], { store, caller, now }) => saveProject(store, callerAccount(caller), projectId, input, now),
});

export const handler = lambdaHandler(operation);
