import { z } from 'zod';
import { lambdaHandler } from '../../api/lambda';
import { notImplemented } from '../../api/not-implemented';
import { defineOperation } from '../../api/operation';

export const operation = defineOperation({
  resource: 'responses',
  name: 'getAggregates',
  summary: 'Not implemented yet.',
  args: z.array(z.unknown()),
  signature: 'target: string | ContentKey, period?: StatPeriod',
  result: 'number[]',
  level: 'anonymous',
  readOnly: true,
  errors: ['not-implemented'],
  handler: notImplemented('responses/getAggregates'),
});

export const handler = lambdaHandler(operation);
