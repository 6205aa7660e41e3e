import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { ContentSetKeyModel } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { contentSetExists } from '../../operations/sets';

export const operation = defineOperation({
  resource: 'sets',
  name: 'exists',
  summary: 'Whether the account has a content set with this key in this project.',
  args: z.tuple([ContentSetKeyModel]),
  signature: '{ projectId, key }: ContentSetKey',
  result: 'boolean',
  level: 'viewer',
  readOnly: true,
  errors: [],
  handler: ([{ projectId, key }], { store, caller }) => contentSetExists(store, callerAccount(caller), projectId, key),
});

export const handler = lambdaHandler(operation);
