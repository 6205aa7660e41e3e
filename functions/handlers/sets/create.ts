import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { ContentSetCreateModel } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { createContentSet } from '../../operations/sets';

export const operation = defineOperation({
  resource: 'sets',
  name: 'create',
  summary: 'Creates an active content set in a project; the key is unique within the project.',
  args: z.tuple([ContentSetCreateModel]),
  signature: '{ projectId, key, schema, schemaConfig?, metadata: ContentSetMetadataModel }',
  result: 'ContentSet',
  level: 'admin',
  readOnly: false,
  errors: ['not-found', 'conflict'],
  handler: ([input], { store, caller, now }) => createContentSet(store, callerAccount(caller), input, now),
});

export const handler = lambdaHandler(operation);
