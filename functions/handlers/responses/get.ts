import { z } from 'zod';
import { lambdaHandler } from '../../api/lambda';
import { notImplemented } from '../../api/not-implemented';
import { defineOperation } from '../../api/operation';

export const operation = defineOperation({
  resource: 'responses',
  name: 'get',
  summary: 'Not implemented yet.',
  args: z.array(z.unknown()),
  signature: 'id: string',
  result: 'Response',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found', 'not-implemented'],
  handler: notImplemented('responses/get'),
});

export const handler = lambdaHandler(operation);
