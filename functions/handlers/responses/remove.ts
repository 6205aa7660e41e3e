import { z } from 'zod';
import { lambdaHandler } from '../../api/lambda';
import { notImplemented } from '../../api/not-implemented';
import { defineOperation } from '../../api/operation';

export const operation = defineOperation({
  resource: 'responses',
  name: 'remove',
  summary: 'Not implemented yet.',
  args: z.array(z.unknown()),
  signature: '{ responseId, revokeToken }',
  result: 'void',
  level: 'anonymous',
  readOnly: false,
  errors: ['not-implemented'],
  handler: notImplemented('responses/remove'),
});

export const handler = lambdaHandler(operation);
