import { z } from 'zod';
import { lambdaHandler } from '../../api/lambda';
import { notImplemented } from '../../api/not-implemented';
import { defineOperation } from '../../api/operation';

export const operation = defineOperation({
  resource: 'contents',
  name: 'getStats',
  summary: 'Not implemented yet.',
  args: z.array(z.unknown()),
  signature: 'id: string, filter?: StatsFilter',
  result: 'AggregatedData',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found', 'not-implemented'],
  handler: notImplemented('contents/getStats'),
});

export const handler = lambdaHandler(operation);
