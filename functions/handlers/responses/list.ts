import { z } from 'zod';
import { lambdaHandler } from '../../api/lambda';
import { notImplemented } from '../../api/not-implemented';
import { defineOperation } from '../../api/operation';

export const operation = defineOperation({
  resource: 'responses',
  name: 'list',
  summary: 'Not implemented yet.',
  args: z.array(z.unknown()),
  signature: 'query: ResponseQueryModel',
  result: 'ResponsePage',
  level: 'viewer',
  readOnly: true,
  errors: ['not-implemented'],
  handler: notImplemented('responses/list'),
});

export const handler = lambdaHandler(operation);
