import { z } from 'zod';
import { lambdaHandler } from '../../api/lambda';
import { notImplemented } from '../../api/not-implemented';
import { defineOperation } from '../../api/operation';

export const operation = defineOperation({
  resource: 'sets',
  name: 'top',
  summary: 'Not implemented yet.',
  args: z.array(z.unknown()),
  signature: 'query: ContentSetTopQueryModel',
  result: '(ContentSet & { stats: AggregatedData })[]',
  level: 'viewer',
  readOnly: true,
  errors: ['not-implemented'],
  handler: notImplemented('sets/top'),
});

export const handler = lambdaHandler(operation);
