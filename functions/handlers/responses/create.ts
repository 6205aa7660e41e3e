import { z } from 'zod';
import { lambdaHandler } from '../../api/lambda';
import { notImplemented } from '../../api/not-implemented';
import { defineOperation } from '../../api/operation';

export const operation = defineOperation({
  resource: 'responses',
  name: 'create',
  summary: 'Not implemented yet.',
  args: z.array(z.unknown()),
  signature: 'ResponseCreateModel, or 7 positional arguments',
  result: 'ResponseWriteResult',
  level: 'anonymous',
  readOnly: false,
  errors: ['not-implemented'],
  handler: notImplemented('responses/create'),
});

export const handler = lambdaHandler(operation);
