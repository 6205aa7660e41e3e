import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { id } from '../../api/models';
import { defineOperation } from '../../api/operation';
import { getContentItem } from '../../operations/contents';

export const operation = defineOperation({
  resource: 'contents',
  name: 'get',
  summary: 'A content item by id (extension: SPEC has no contents/get).',
  args: z.tuple([id]),
  signature: 'id: string',
  result: 'ContentItem',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
  handler: ([contentId], { store, caller }) => getContentItem(store, callerAccount(caller), contentId),
});

export const handler = lambdaHandler(operation);
