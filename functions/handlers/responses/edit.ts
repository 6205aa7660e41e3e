import { z } from 'zod';
import { lambdaHandler } from '../../api/lambda';
import { notImplemented } from '../../api/not-implemented';
import { defineOperation } from '../../api/operation';

export const operation = defineOperation({
  resource: 'responses',
  name: 'edit',
  summary: 'Not implemented yet.',
  args: z.array(z.unknown()),
  signature: '{ responseId, revokeToken, value }',
  result: 'ResponseWriteResult',
  level: 'anonymous',
  readOnly: false,
  errors: ['not-implemented'],
  handler: notImplemented('responses/edit'),
});

export const handler = lambdaHandler(operation);
