import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { ProjectFilters, lookupText } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { lookupProjects } from '../../operations/projects';

export const operation = defineOperation({
  resource: 'projects',
  name: 'lookup',
  summary: 'Projects whose name starts with the text (case-insensitive), or whose id is the text; at most 20, by name.',
  args: z.tuple([lookupText, ProjectFilters.nullish()]),
  signature: 'text: string, filters?: ProjectFilters',
  result: 'Project[]',
  level: 'viewer',
  readOnly: true,
  errors: [],
  handler: ([text, filters], { store, caller }) => lookupProjects(store, callerAccount(caller), text, filters ?? {}),
});

export const handler = lambdaHandler(operation);
