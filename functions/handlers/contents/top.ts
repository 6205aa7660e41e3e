import * as z from 'zod';
import { ContentTopQueryModel } from '../../api/aggregate-models';
import { callerAccount } from '../../api/auth';
import { lambdaHandler } from '../../api/lambda';
import { defineOperation } from '../../api/operation';
import { topContentItems } from '../../operations/aggregates';

export const operation = defineOperation({
  resource: 'contents',
  name: 'top',
  summary:
    'Content items of the account, a project or a content set with the most responses in a period (default rolling7d), highest first, each with its stats for that period.',
  args: z.tuple([ContentTopQueryModel.nullish()]),
  signature: 'query?: ContentTopQueryModel',
  result: '(ContentItem & { stats: AggregatedData })[]',
  level: 'viewer',
  readOnly: true,
  errors: ['not-found'],
  handler: ([query], { store, caller, now }) => topContentItems(store, callerAccount(caller), ContentTopQueryModel.parse(query ?? {}), now),
});

export const handler = lambdaHandler(operation);
