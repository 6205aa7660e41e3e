import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { ContentKeyModel } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { contentItemExists } from '../../operations/contents';

export const operation = defineOperation({
  resource: 'contents',
  name: 'exists',
  summary: 'Whether the account has a content item with this key in this set.',
  args: z.tuple([ContentKeyModel]),
  signature: '{ contentSetId, key }: ContentKey',
  result: 'boolean',
  level: 'viewer',
  readOnly: true,
  errors: [],
  handler: ([{ contentSetId, key }], { store, caller }) => contentItemExists(store, callerAccount(caller), contentSetId, key),
});

export const handler = lambdaHandler(operation);
