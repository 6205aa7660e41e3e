import * as z from 'zod';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { defineOperation } from '../../api/operation';
import { ResponseQueryModel } from '../../api/response-models';
import { listResponses } from '../../operations/responses';

export const operation = defineOperation({
  resource: 'responses',
  name: 'list',
  summary: 'Responses of a project, content set or content item, newest first, in 1-based pages.',
  args: z.tuple([ResponseQueryModel]),
  signature: '{ $size?, $page?, projectId?, contentSetId?, contentId?, state?, from?, to? }',
  result: '{ items: Response[], page, size, hasMore }',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
  handler: ([query], { store, caller }) => listResponses(store, callerAccount(caller), query),
});

export const handler = lambdaHandler(operation);
